// The Inductor-style matcher: every rejection stage with its exact reason, register_replacement's two stages,
// registration order, Python-equality literals, real transformer graphs counted independently, a 100k-node
// chain, and the fxscope-cli patterns/match JSON contract.

#include "io/loader.h"
#include "io/readable_parser.h"
#include "match/matcher.h"
#include "match/mutation_regions.h"
#include "match/pattern_matcher.h"
#include "patterns/builtin_patterns.h"
#include "patterns/extra_checks.h"
#include "patterns/pattern_file.h"
#include "patterns/register_replacement.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace fxs;

namespace {

std::shared_ptr<Graph> code(const char *text)
{
    auto file = parseReadable(text, "test");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::shared_ptr<Graph>(std::move(file->graphs.front().graph));
}

// RMSNorm's variance part, T5 style: rsqrt(mean(pow(x, 2), [-1], True) + 1e-06) * x.
const char *kRmsSearch = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        pow_1: "f32[2, 8]" = torch.ops.aten.pow.Tensor_Scalar(x, 2)
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)";

ReplacementSpec rmsSpec(const std::string &name = "rstd")
{
    ReplacementSpec spec;
    spec.name = name;
    spec.search = code(kRmsSearch);
    spec.replace = spec.search;
    spec.exampleInputs = {{"x", TensorMeta{"torch.float32", {{2, {}}, {8, {}}}, {}, false, "cpu"}, false}};
    return spec;
}

MatchReport runOne(PatternRegistry &registry, const Graph &graph)
{
    auto report = Matcher(registry).run(graph);
    if (!report)
        qFatal("%s", report.error().toString().c_str());
    return std::move(report.value());
}

const Verdict *verdictAt(const MatchReport &report, const std::string &pattern, const std::string &anchor)
{
    const PatternReport *p = report.find(pattern);
    if (!p)
        return nullptr;
    for (const auto &c : p->candidates)
        if (c.anchor == anchor)
            return &c;
    return nullptr;
}

std::string allReasons(const Verdict &v)
{
    std::string out;
    for (const auto &r : v.reasonTexts())
        out += r + "\n";
    return out;
}

// Independent count of T5-style RMSNorm sites: rsqrt(add(mean(pow(x, 2), [-1], True), eps)) where pow, mean and
// add each have a single user, read straight from the node list.
int countRmsSites(const Graph &g, double eps)
{
    int count = 0;
    for (const auto &n : g.nodes()) {
        if (n->target().find("aten.rsqrt.default") == std::string::npos || n->args().empty() || !n->args()[0].isNode())
            continue;
        const Node *add = n->args()[0].node();
        if (add->target().find("aten.add.Tensor") == std::string::npos || add->users().size() != 1
            || add->args().size() != 2 || !add->args()[0].isNode() || add->args()[1].toDouble() != eps)
            continue;
        const Node *mean = add->args()[0].node();
        if (mean->target().find("aten.mean.dim") == std::string::npos || mean->users().size() != 1)
            continue;
        const Node *pow = mean->args()[0].node();
        if (pow->target().find("aten.pow.Tensor_Scalar") == std::string::npos || pow->users().size() != 1
            || pow->args()[1].toDouble() != 2)
            continue;
        ++count;
    }
    return count;
}

QString corpus(const char *rel)
{
    return QStringLiteral(FXSCOPE_CORPUS_DIR "/") + rel;
}

} // namespace

class TestPatternMatcher : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rejectionStages_data();
    void rejectionStages();
    void mutationBarrier();
    void torchairStreamLabel();
    void retraceRequiresGrad();
    void extraCheckExplains();
    void overlapWithEarlierMatch();
    void pythonEqualityLiterals();
    void packetsAndRegistrationOrder();
    void genericPatternIgnoresLiterals();
    void t5RmsNormEveryInstance();
    void t5FullRmsNormRejectedByUsers();
    void llamaRmsNormCast();
    void builtinLayerNormRetraced_data();
    void builtinLayerNormRetraced();
    void builtinLayerNormNearMiss();
    void chainOf100kNodes();
    void deepPatternRefused();
    void jsonPatternFile();
    void cliJsonContract();
};

// Graphs that each fail the rstd pattern at one stage; the reason text must name what disagreed.
void TestPatternMatcher::rejectionStages_data()
{
    QTest::addColumn<QString>("graph");
    QTest::addColumn<QString>("anchor");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("reason");

    QTest::newRow("match") << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
                           << "rsqrt"
                           << "accepted"
                           << "generic pattern matched 4 nodes";
    QTest::newRow("function_mismatch")
        << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.sum.dim_IntList(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
        << "rsqrt"
        << "generic"
        << "function_mismatch: expected call_function aten.mean.dim, found call_function "
           "aten.sum.dim_IntList at mean (path: rsqrt → args[0] add → args[0] mean)";
    QTest::newRow("intermediate used outside")
        << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return (rsqrt, mean)
)"
        << "rsqrt"
        << "generic"
        << "multiple_users: mean is an intermediate node of the match with 2 users "
           "(add, output) but the traced pattern has 1; used outside the match by: output";
    QTest::newRow("constant_args keepdim") << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], False)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
                                           << "rsqrt"
                                           << "generic"
                                           << "constant_args: mean.args[2] is False, the pattern has the literal True";
    QTest::newRow("args_structure kwarg")
        << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], keepdim = True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
        << "rsqrt"
        << "generic"
        << "function_mismatch: mean passes 2 positional arguments, the pattern expects 3";
    QTest::newRow("eps differs")
        << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-05)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
        << "rsqrt"
        << "specific"
        << "specific pattern (real literals): constant_args: add.args[1] is 1e-05, the pattern has "
           "the literal 1e-06 (path: rsqrt → args[0] add → args[1] 1e-05)";
    QTest::newRow("dim differs") << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)"
                                 << "rsqrt"
                                 << "specific"
                                 << "constant_args: mean.args[1][0] is 1, the pattern has the literal -1";
    QTest::newRow("repeated pattern differs")
        << R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]", b: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        mul = torch.ops.aten.mul.Tensor(b, rsqrt)
        return mul
)"
        << "mul"
        << "generic"
        << "repeated pattern differs: the same sub-pattern was already bound to b, here "
           "it meets a";
}

void TestPatternMatcher::rejectionStages()
{
    QFETCH(QString, graph);
    QFETCH(QString, anchor);
    QFETCH(QString, stage);
    QFETCH(QString, reason);
    PatternRegistry registry;
    ReplacementSpec spec = rmsSpec();
    if (anchor == "mul") {
        // x * rsqrt(...) where x must be the same node on both sides.
        spec.search = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        pow_1: "f32[2, 8]" = torch.ops.aten.pow.Tensor_Scalar(x, 2)
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 8]" = torch.ops.aten.mul.Tensor(x, rsqrt)
        return mul
)");
    }
    QVERIFY(registerReplacement(registry, spec));
    auto g = code(graph.toUtf8().constData());
    MatchReport report = runOne(registry, *g);
    const Verdict *v = verdictAt(report, "rstd", anchor.toStdString());
    QVERIFY(v);
    QCOMPARE(QString(matchStageName(v->stage)), stage);
    QCOMPARE(v->accepted, stage == "accepted");
    QVERIFY2(allReasons(*v).find(reason.toStdString()) != std::string::npos, allReasons(*v).c_str());
    QVERIFY(!v->reasonTexts().empty());
}

void TestPatternMatcher::mutationBarrier()
{
    PatternRegistry registry;
    QVERIFY(registerReplacement(registry, rmsSpec()));
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]", buf: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        copy_ = torch.ops.aten.copy_.default(buf, a)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return (rsqrt, copy_)
)");
    MatchReport report = runOne(registry, *g);
    const Verdict *v = verdictAt(report, "rstd", "rsqrt");
    QVERIFY(v);
    QCOMPARE(v->stage, MatchStage::MutationStream);
    QVERIFY2(allReasons(*v).find("pattern match crosses mutation barrier - discard (mutation regions: pow_1=0, mean=1")
            != std::string::npos,
        allReasons(*v).c_str());
    // Without a known schema: an OpOverload mutates by PyTorch's in-place naming (scale_), whatever words its name
    // holds (seed, scope_enter: Inductor reads their schemas, which are functional); a plain function by the regex.
    auto probe = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4]"):
        x = torch.ops.myops.scale_.default(a)
        y = torch.ops.myops.seed.default(a)
        z = torch.ops.myops.dunder__.default(a)
        e = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        w = torch._C._set_grad_enabled(False)
        return (x, y, z, e, w)
)");
    const OpSchemaTable &t = OpSchemaTable::instance();
    QVERIFY(isMutationOp(*probe->find("x"), t));
    QVERIFY(!isMutationOp(*probe->find("y"), t));
    QVERIFY(!isMutationOp(*probe->find("z"), t));
    QVERIFY(!isMutationOp(*probe->find("e"), t));
    QVERIFY(isMutationOp(*probe->find("w"), t));
}

void TestPatternMatcher::torchairStreamLabel()
{
    PatternRegistry registry;
    QVERIFY(registerReplacement(registry, rmsSpec()));
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)");
    g->find("add")->meta().extra = Json::object({{"stream_label", "_user_stream_label_1"}});
    MatchReport report = runOne(registry, *g);
    const Verdict *v = verdictAt(report, "rstd", "rsqrt");
    QVERIFY(v);
    QCOMPARE(v->stage, MatchStage::MutationStream);
    QVERIFY2(allReasons(*v).find("Cross-stream operation detected in pattern match.") != std::string::npos,
        allReasons(*v).c_str());
    QVERIFY(allReasons(*v).find("\"_user_stream_label_1\": add") != std::string::npos);

    // PM-main's own check on meta["custom"]["stream"], before the second stage.
    g->find("add")->meta().extra = Json::object({{"custom", Json::object({{"stream", 1}})}});
    report = runOne(registry, *g);
    v = verdictAt(report, "rstd", "rsqrt");
    QCOMPARE(v->stage, MatchStage::MutationStream);
    QVERIFY(allReasons(*v).find("pattern match crosses stream boundary") != std::string::npos);
}

void TestPatternMatcher::retraceRequiresGrad()
{
    PatternRegistry registry;
    ReplacementSpec spec = rmsSpec();
    spec.exampleInputs[0].requiresGrad = true;
    QVERIFY(registerReplacement(registry, spec));
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "i64[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)");
    MatchReport report = runOne(registry, *g);
    const Verdict *v = verdictAt(report, "rstd", "rsqrt");
    QCOMPARE(v->stage, MatchStage::Retrace);
    QVERIFY2(allReasons(*v).find("input 'x' is a of dtype torch.int64 but its example input requires grad")
            != std::string::npos,
        allReasons(*v).c_str());
}

void TestPatternMatcher::extraCheckExplains()
{
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry, "add_rms_norm"));
    const char *tmpl = R"(class G(torch.nn.Module):
    def forward(self, r: "f16[1, 128, DIM]", h: "f16[1, 128, DIM]", w: "f16[DIM]"):
        add = torch.ops.aten.add.Tensor(r, h)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, w)
        getitem = npu_rms_norm[0]
        mul = torch.ops.aten.mul.Tensor(getitem, add)
        return mul
)";
    for (const char *dim : {"4096", "7168"}) {
        auto g = code(QString(tmpl).replace("DIM", dim).toUtf8().constData());
        MatchReport report = runOne(registry, *g);
        const Verdict *v = verdictAt(report, "add_rms_norm", "getitem");
        QVERIFY(v);
        if (QByteArray(dim) == "4096") {
            QCOMPARE(v->stage, MatchStage::ExtraCheck);
            QVERIFY(!v->accepted);
            QVERIFY2(
                allReasons(*v).find("a_shape[-1] == 7168 → False because a_shape[-1] is 4096") != std::string::npos,
                allReasons(*v).c_str());
        } else {
            QVERIFY2(v->accepted, allReasons(*v).c_str());
            QCOMPARE(v->nodes, (std::vector<std::string>{"add", "npu_rms_norm", "getitem"}));
            QCOMPARE(v->bindings.size(), size_t(3));
            QVERIFY(allReasons(*v).find("a_shape[-1] == 7168 → True because a_shape[-1] is 7168") != std::string::npos);
        }
    }
}

void TestPatternMatcher::overlapWithEarlierMatch()
{
    // Two registrations covering the same nodes: the later anchor in graph order wins (anchors are visited
    // last-to-first), the other is rejected as overlapping.
    PatternRegistry registry;
    QVERIFY(registerReplacement(registry, rmsSpec("rstd")));
    ReplacementSpec add = rmsSpec("add_eps");
    add.search = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        pow_1: "f32[2, 8]" = torch.ops.aten.pow.Tensor_Scalar(x, 2)
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        return add
)");
    QVERIFY(registerReplacement(registry, add));
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)");
    MatchReport report = runOne(registry, *g);
    QVERIFY(verdictAt(report, "rstd", "rsqrt")->accepted);
    const Verdict *v = verdictAt(report, "add_eps", "add");
    QCOMPARE(v->stage, MatchStage::Overlap);
    QCOMPARE(v->overlapWith, std::string("'rstd' at rsqrt"));
    QVERIFY(allReasons(*v).find("already replaced by the accepted match 'rstd' at rsqrt") != std::string::npos);

    // When the anchor itself survives but its inputs were consumed, the overlap names the nodes.
    PatternRegistry second;
    ReplacementSpec inner = rmsSpec("inner");
    inner.search = add.search;
    QVERIFY(registerReplacement(second, inner));
    ReplacementSpec outer = rmsSpec("outer");
    outer.search = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(x, [-1], True)
        add: "f32[2, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 1]" = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)");
    QVERIFY(registerReplacement(second, outer));
    auto g2 = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        add_1 = torch.ops.aten.add.Tensor(add, 1)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return (rsqrt, add_1)
)");
    // inner (anchor add) is rejected for users (add has 2); outer needs add with 2 users too: rejected.
    report = runOne(second, *g2);
    QCOMPARE(verdictAt(report, "outer", "rsqrt")->stage, MatchStage::Generic);
    QVERIFY(
        allReasons(*verdictAt(report, "outer", "rsqrt")).find("used outside the match by: add_1") != std::string::npos);
}

void TestPatternMatcher::pythonEqualityLiterals()
{
    QVERIFY(pythonEquals(Argument::ofInt(1), Argument::ofFloat(1.0)));
    QVERIFY(pythonEquals(Argument::ofInt(1), Argument::ofBool(true)));
    QVERIFY(pythonEquals(Argument::ofFloat(0.0), Argument::ofBool(false)));
    QVERIFY(!pythonEquals(Argument::ofInt(2), Argument::ofBool(true)));
    QVERIFY(!pythonEquals(Argument::list({Argument::ofInt(1)}), Argument::tuple({Argument::ofInt(1)})));
    QVERIFY(pythonEquals(Argument::list({Argument::ofInt(-1)}), Argument::list({Argument::ofFloat(-1.0)})));
    QVERIFY(!pythonEquals(Argument::ofFloat(std::nan("")), Argument::ofFloat(std::nan(""))));
    QVERIFY(!pythonEquals(Argument::ofString("1"), Argument::ofInt(1)));

    // In a pattern: keepdim=1 (int) matches True; pow(x, 2.0) matches the literal 2 of the specific stage.
    PatternRegistry registry;
    QVERIFY(registerReplacement(registry, rmsSpec()));
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4, 16]"):
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(a, 2.0)
        mean = torch.ops.aten.mean.dim(pow_1, [-1.0], 1)
        add = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt = torch.ops.aten.rsqrt.default(add)
        return rsqrt
)");
    MatchReport report = runOne(registry, *g);
    QVERIFY2(verdictAt(report, "rstd", "rsqrt")->accepted, allReasons(*verdictAt(report, "rstd", "rsqrt")).c_str());
}

void TestPatternMatcher::packetsAndRegistrationOrder()
{
    auto g = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4]", b: "f32[4]"):
        add = torch.ops.aten.add.Tensor(a, b)
        add_1 = torch.ops.aten.add.Scalar(add, 2)
        return add_1
)");
    // A packet pattern expands to every overload: registered under add.Tensor and add.Scalar.
    auto packet = callFunction("aten.add", {PatternValue::of(keywordArg("x")), PatternValue::of(ignored())});
    QVERIFY(packet->matchesTarget("aten.add.Tensor"));
    QVERIFY(packet->matchesTarget("aten.add.Scalar"));
    QVERIFY(packet->matchesTarget("aten.add_.Tensor") == false);

    PatternRegistry registry;
    auto entry = [](const std::string &name, PatternPtr p) {
        auto e = std::make_shared<PatternEntry>();
        e->name = name;
        e->pattern = std::move(p);
        return e;
    };
    QVERIFY(registry.add(entry("first", packet)));
    QVERIFY(registry.add(entry("second",
        callFunction("torch.ops.aten.add.Scalar", {PatternValue::of(argPattern()), PatternValue::of(ignored())}))));
    QVERIFY(registry.add(
        entry("prepended",
            callFunction("aten.add.Scalar", {PatternValue::of(argPattern()), PatternValue::of(Argument::ofInt(2))})),
        true));
    const auto *slot = registry.entriesFor(OpKind::CallFunction, "aten.add.Scalar");
    QVERIFY(slot);
    QCOMPARE(slot->size(), size_t(3));
    QCOMPARE((*slot)[0]->name, std::string("prepended"));
    QCOMPARE((*slot)[1]->name, std::string("first"));
    QCOMPARE((*slot)[2]->name, std::string("second"));
    QCOMPARE(registry.entriesFor(OpKind::CallFunction, "aten.add.Tensor")->size(), size_t(1));

    // Anchors last-to-first; the first accepted entry consumes add_1, so the other two are not tried.
    MatchReport report = runOne(registry, *g);
    QVERIFY(verdictAt(report, "prepended", "add_1")->accepted);
    QCOMPARE(verdictAt(report, "first", "add_1")->stage, MatchStage::Overlap);
    QCOMPARE(verdictAt(report, "second", "add_1")->stage, MatchStage::Overlap);
    QVERIFY(verdictAt(report, "first", "add")->accepted);
    QCOMPARE(report.find("first")->candidates.front().anchor, std::string("add_1"));

    // VarArgs captures everything.
    PatternMatcher matcher;
    MatchResult r
        = matcher.match(*callVarArgs(OpKind::CallFunction, {"aten.add"}, PatternExpr::kMultiple), g->find("add_1"));
    QVERIFY(r.ok);
    QCOMPARE(r.match.args.size(), size_t(2));
    // ListOf over a cat's inputs; non_list on a tensor.
    auto cat = code(R"(class G(torch.nn.Module):
    def forward(self, a: "f32[4]", b: "f32[4]"):
        neg = torch.ops.aten.neg.default(a)
        neg_1 = torch.ops.aten.neg.default(b)
        cat = torch.ops.aten.cat.default([neg, neg_1])
        return cat
)");
    auto listPattern = callFunction("aten.cat.default",
        {PatternValue::of(listOf(callFunction("aten.neg.default", {PatternValue::of(argPattern())})))});
    r = matcher.match(*listPattern, cat->find("cat"));
    QVERIFY(r.ok);
    QCOMPARE(r.match.nodes.size(), size_t(3));
    auto nonList = callFunction("aten.neg.default", {PatternValue::of(listOf(argPattern()))});
    r = matcher.match(*nonList, cat->find("neg"));
    QVERIFY(!r.ok);
    QCOMPARE(r.failure->message, std::string("non_list"));
}

void TestPatternMatcher::genericPatternIgnoresLiterals()
{
    FxToPatternOptions options;
    auto search = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        view = torch.ops.aten.view.default(x, [2, 8])
        var_mean = torch.ops.aten.var_mean.correction(view, [-1], correction = 0, keepdim = True)
        getitem = var_mean[1]
        convert = torch.ops.prims.convert_element_type.default(getitem, torch.float16)
        return convert
)");
    auto generic = fxToPattern(*search, options);
    QVERIFY(generic);
    QCOMPARE(generic.value()->repr(1000),
        std::string("CallFunction(prims.convert_element_type.default, CallFunction(operator.getitem, "
                    "CallFunction(aten.var_mean.correction, CallFunction(aten.view.default, KeywordArg('x'), *), *, "
                    "correction=*, keepdim=True), 1), *)"));
    options.ignoreTypes = false;
    auto specific = fxToPattern(*search, options);
    QVERIFY(specific);
    QVERIFY(specific.value()->repr(1000).find("[2, 8]") != std::string::npos);
    QVERIFY(specific.value()->repr(1000).find("torch.float16") != std::string::npos);
    options.ignoreTypes = true;
    options.scalarWorkaround = {{"a", 1.0}, {"b", 1.0}};
    QVERIFY(!fxToPattern(*search, options));
    // call_method is NotImplementedError in fx_to_pattern.
    auto method = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x):
        y = x.relu()
        return y
)");
    auto bad = fxToPattern(*method, FxToPatternOptions{});
    QCOMPARE(method->find("y")->op(), OpKind::CallMethod);
    QVERIFY(!bad);
    QVERIFY(bad.error().message.find("call_method is not supported by fx_to_pattern") != std::string::npos);
}

void TestPatternMatcher::t5RmsNormEveryInstance()
{
    auto file = loadGraphFile(
        corpus("readable/learn_torch_compile__tb_hf_T5_training_cpu__aot_joint_graph.py").toStdString());
    QVERIFY(file);
    const Graph &g = *file->graphs.front().graph;
    const int expected = countRmsSites(g, 1e-6);
    QCOMPARE(expected, 32);
    PatternRegistry registry;
    QVERIFY(registerReplacement(registry, rmsSpec()));
    MatchReport report = runOne(registry, g);
    const PatternReport *p = report.find("rstd");
    QCOMPARE(int(p->acceptedCount()), expected);
    QCOMPARE(p->candidates.size(), size_t(32)); // one candidate per rsqrt anchor
    for (const auto &c : p->candidates) {
        QVERIFY(c.accepted);
        QCOMPARE(c.nodes.size(), size_t(4));
        QCOMPARE(c.nodes.back(), c.anchor);
    }
}

void TestPatternMatcher::t5FullRmsNormRejectedByUsers()
{
    // The full weight * (x * rsqrt(...)) pattern cannot fuse in a joint graph: the backward uses mul_1.
    auto file = loadGraphFile(
        corpus("readable/learn_torch_compile__tb_hf_T5_training_cpu__aot_joint_graph.py").toStdString());
    QVERIFY(file);
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry, "rms_norm"));
    MatchReport report = runOne(registry, *file->graphs.front().graph);
    QCOMPARE(report.find("rms_norm")->acceptedCount(), size_t(0));
    const Verdict *v = verdictAt(report, "rms_norm", "mul_2");
    QVERIFY(v);
    QCOMPARE(v->stage, MatchStage::Generic);
    QVERIFY(v->failure);
    QCOMPARE(v->failure->code, std::string("multiple_users"));
    QCOMPARE(v->failure->graphNode, std::string("mul_1"));
    QCOMPARE(v->failure->externalUsers, std::vector<std::string>{"mul_358"});
    QCOMPARE(v->failure->path, (std::vector<std::string>{"mul_2", "args[1] mul_1"}));
    QCOMPARE(v->failure->expected, std::string("1 user"));
    QCOMPARE(v->failure->actual, std::string("2 users"));
    // Inductor's FailedMatch text ends with the full repr of the pattern node that failed (shared, not copied).
    QVERIFY(v->failure->messagePattern);
    const std::string message = v->failure->messageText();
    QVERIFY2(message.rfind("multiple_users CallFunction(aten.mul.Tensor, ", 0) == 0, message.c_str());
    QCOMPARE(message.substr(std::string("multiple_users ").size()), *v->failure->messagePattern);
    QCOMPARE(QString::fromStdString(v->toJson()["failure"]["message"].toString()), QString::fromStdString(message));
}

void TestPatternMatcher::llamaRmsNormCast()
{
    auto file = loadGraphFile(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
    QVERIFY(file);
    const Graph &g = *file->graphs.front().graph;
    // Independent count: rsqrt whose add/mean/pow chain starts at a float32 convert_element_type.
    int expected = 0;
    for (const auto &n : g.nodes())
        if (n->target().find("rsqrt") != std::string::npos) {
            const Node *pow = n->args()[0].node()->args()[0].node()->args()[0].node();
            if (pow->args()[0].node()->target().find("convert_element_type") != std::string::npos)
                ++expected;
        }
    QCOMPARE(expected, 2);
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry));
    MatchReport report = runOne(registry, g);
    QCOMPARE(int(report.find("rms_norm_cast")->acceptedCount()), expected);
    const Verdict *v = verdictAt(report, "rms_norm_cast", "mul_1");
    QVERIFY(v->accepted);
    QCOMPARE(v->bindings.front(), (std::pair<std::string, std::string>("weight", "arg0_1")));
    QCOMPARE(report.find("swiglu")->acceptedCount(), size_t(1));
    QVERIFY(verdictAt(report, "swiglu", "mul_8")->accepted);
}

// The built-in layer_norm is written for a 2-d example (var_mean over [1]); re-traced per match with the matched
// tensors' shapes, it accepts the real graphs' LayerNorms. Expected counts come from the dump's text: one
// var_mean per LayerNorm.
void TestPatternMatcher::builtinLayerNormRetraced_data()
{
    QTest::addColumn<QString>("file");
    // A training forward returns x * rsqrt for the backward: there every LayerNorm is a near miss (multiple_users).
    QTest::addColumn<bool>("training");
    QTest::newRow("GPT-2 inference, post-grad")
        << corpus("readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py") << false;
    QTest::newRow("OPT inference, AOT forward")
        << corpus("readable/learn_torch_compile__hf_OPTForCausalLM_inference_cpu__aot_forward_graph.py") << false;
    QTest::newRow("Bert training, AOT forward")
        << corpus("readable/learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_forward_graph.py") << true;
    QTest::newRow("2-d rows, post-grad (multi-rank)")
        << corpus("readable/tlparse__multi_rank_runtime_r0__0-1__after_post_grad_graph.py") << false;
}

void TestPatternMatcher::builtinLayerNormRetraced()
{
    QFETCH(QString, file);
    QFETCH(bool, training);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    const int layerNorms = int(text.count(QStringLiteral("torch.ops.aten.var_mean.correction(")));
    QVERIFY(layerNorms > 0);
    const int rejectedByUsers = training ? layerNorms : 0;
    auto loaded = loadGraphFile(file.toStdString());
    QVERIFY(loaded);
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry, "layer_norm"));
    MatchReport report = runOne(registry, *loaded->graphs.front().graph);
    const PatternReport *p = report.find("layer_norm");
    QCOMPARE(int(p->acceptedCount()), layerNorms - rejectedByUsers);
    int byUsers = 0;
    for (const auto &c : p->candidates) {
        if (c.accepted) {
            QCOMPARE(c.nodes.size(), size_t(9));
            QVERIFY(allReasons(c).find("re-traced") != std::string::npos);
        } else if (c.failure && c.failure->code == "multiple_users") {
            QCOMPARE(c.stage, MatchStage::Generic);
            QVERIFY(!c.failure->externalUsers.empty());
            ++byUsers;
        }
    }
    QCOMPARE(byUsers, rejectedByUsers);
}

// Near misses: a var_mean over a dimension other than the normalised ones passes the generic stage (lists are
// ignored there) and is rejected by the re-traced specific pattern, which names both dims; a weight with more
// dimensions than the input makes the re-trace raise, as layer_norm does.
void TestPatternMatcher::builtinLayerNormNearMiss()
{
    const char *graph = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 8]", w: "f32[8]", b: "f32[8]", x2: "f32[8]", w2: "f32[2, 8]", b2: "f32[2, 8]"):
        var_mean = torch.ops.aten.var_mean.correction(x, [1], correction = 0, keepdim = True)
        getitem: "f32[2, 1, 8]" = var_mean[0]
        getitem_1: "f32[2, 1, 8]" = var_mean[1]
        add: "f32[2, 1, 8]" = torch.ops.aten.add.Tensor(getitem, 1e-05)
        rsqrt: "f32[2, 1, 8]" = torch.ops.aten.rsqrt.default(add)
        sub: "f32[2, 4, 8]" = torch.ops.aten.sub.Tensor(x, getitem_1)
        mul: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(sub, rsqrt)
        mul_1: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(mul, w)
        add_1: "f32[2, 4, 8]" = torch.ops.aten.add.Tensor(mul_1, b)
        var_mean_1 = torch.ops.aten.var_mean.correction(x2, [0], correction = 0, keepdim = True)
        getitem_2: "f32[1]" = var_mean_1[0]
        getitem_3: "f32[1]" = var_mean_1[1]
        add_2: "f32[1]" = torch.ops.aten.add.Tensor(getitem_2, 1e-05)
        rsqrt_1: "f32[1]" = torch.ops.aten.rsqrt.default(add_2)
        sub_1: "f32[8]" = torch.ops.aten.sub.Tensor(x2, getitem_3)
        mul_2: "f32[8]" = torch.ops.aten.mul.Tensor(sub_1, rsqrt_1)
        mul_3: "f32[2, 8]" = torch.ops.aten.mul.Tensor(mul_2, w2)
        add_3: "f32[2, 8]" = torch.ops.aten.add.Tensor(mul_3, b2)
        return (add_1, add_3)
)";
    PatternRegistry registry;
    QVERIFY(registerBuiltinPatterns(registry, "layer_norm"));
    MatchReport report = runOne(registry, *code(graph));
    QCOMPARE(report.find("layer_norm")->acceptedCount(), size_t(0));
    const Verdict *wrongDim = verdictAt(report, "layer_norm", "add_1");
    QVERIFY(wrongDim);
    QCOMPARE(wrongDim->stage, MatchStage::Specific);
    QVERIFY(wrongDim->failure);
    QCOMPARE(wrongDim->failure->graphNode, std::string("var_mean"));
    QCOMPARE(wrongDim->failure->code, std::string("constant_args"));
    QCOMPARE(wrongDim->failure->expected, std::string("2")); // re-traced for a 3-d x and a 1-d weight
    QCOMPARE(wrongDim->failure->actual, std::string("1"));
    const Verdict *raised = verdictAt(report, "layer_norm", "add_3");
    QVERIFY(raised);
    QCOMPARE(raised->stage, MatchStage::Retrace);
    QVERIFY2(
        allReasons(*raised).find("normalized_shape of 2 dimensions") != std::string::npos, allReasons(*raised).c_str());
}

void TestPatternMatcher::chainOf100kNodes()
{
    Graph g;
    Node *prev = g.append(OpKind::Placeholder, "x", "x");
    const int n = 100000;
    for (int i = 0; i < n; ++i)
        prev = g.append(
            OpKind::CallFunction, "neg_" + std::to_string(i), "torch.ops.aten.neg.default", {Argument::ofNode(prev)});
    g.append(OpKind::Output, "output", "output", {Argument::ofNode(prev)});
    PatternRegistry registry;
    ReplacementSpec spec;
    spec.name = "double_neg";
    spec.search = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]"):
        neg = torch.ops.aten.neg.default(x)
        neg_1 = torch.ops.aten.neg.default(neg)
        return neg_1
)");
    QVERIFY(registerReplacement(registry, spec));
    MatchReport report = runOne(registry, g);
    const PatternReport *p = report.find("double_neg");
    QCOMPARE(p->candidates.size(), size_t(n));
    QCOMPARE(p->acceptedCount(), size_t(n / 2));
    QVERIFY(p->candidates[0].accepted);
    QCOMPARE(p->candidates[1].stage, MatchStage::Overlap);
}

void TestPatternMatcher::deepPatternRefused()
{
    PatternPtr p = keywordArg("x");
    for (int i = 0; i < kMaxPatternDepth + 10; ++i)
        p = callFunction("aten.neg.default", {PatternValue::of(p)});
    QCOMPARE(patternDepth(*p), kMaxPatternDepth + 11);
    auto e = std::make_shared<PatternEntry>();
    e->name = "deep";
    e->pattern = p;
    PatternRegistry registry;
    Status st = registry.add(e);
    QVERIFY(!st);
    QVERIFY(st.error().message.find("sub-patterns deep") != std::string::npos);
}

void TestPatternMatcher::jsonPatternFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("p.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    Json search{std::string(kRmsSearch)};
    Json root = Json::object({{"fxscope_patterns", 1},
        {"patterns",
            Json::array({Json::object({{"name", "rstd_json"}, {"search", search}, {"replace", search},
                {"extra_check", "def extra_check(match):\n    return True"}})})}});
    f.write(root.dump(1).c_str());
    f.close();
    PatternRegistry registry;
    Status loaded = loadPatternFile(path.toStdString(), registry);
    QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
    QVERIFY(registry.find("rstd_json"));
    QVERIFY(registry.find("rstd_json")->extraCheckEvaluated); // the subset interpreter reads its source
    QVERIFY(registry.find("rstd_json")->source == path.toStdString() + ":4");
    // Loading the same name twice is an error at the pattern's line.
    Status again = loadPatternFile(path.toStdString(), registry);
    QVERIFY(!again);
    QVERIFY(again.error().message.find("unique pattern name") != std::string::npos);

    QVERIFY(!loadPatternJson("{\"patterns\": []}", "x.json", registry));
    Status missing
        = loadPatternJson("{\"fxscope_patterns\": 1, \"patterns\": [{\"name\": \"a\"}]}", "x.json", registry);
    QVERIFY(!missing);
    QCOMPARE(missing.error().line, 1);
    QVERIFY(missing.error().message.find("expected a graph") != std::string::npos);
    QVERIFY(!loadPatternSpec("builtin:nope", registry));
}

void TestPatternMatcher::cliJsonContract()
{
    const QString cli = QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli");
    if (!QFile::exists(cli))
        QSKIP("fxscope-cli is not built");
    QProcess p;
    p.start(cli, {"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py", "--patterns", "builtin", "--json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    auto json = Json::parse(p.readAllStandardOutput().toStdString());
    QVERIFY(json);
    const Json &patterns = json.value()["patterns"];
    QCOMPARE(patterns.size(), builtinPatterns().size());
    size_t accepted = 0;
    for (const Json &pattern : patterns.items()) {
        QVERIFY(pattern["name"].isString());
        QVERIFY(pattern["source"].isString());
        QVERIFY(pattern["candidates"].isArray());
        for (const Json &c : pattern["candidates"].items()) {
            for (const char *key : {"anchor", "nodes", "bindings", "accepted", "stage", "reasons"})
                QVERIFY2(c.find(key), key);
            QVERIFY(c["nodes"].isArray() && c["bindings"].isObject() && c["accepted"].isBool());
            QVERIFY(c["reasons"].size() > 0);
            accepted += c["accepted"].toBool() ? 1 : 0;
        }
    }
    QCOMPARE(accepted, size_t(3));

    p.start(cli, {"patterns", "builtin", "--json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    auto list = Json::parse(p.readAllStandardOutput().toStdString());
    QVERIFY(list);
    QCOMPARE(list.value()["patterns"].size(), builtinPatterns().size());

    p.start(cli, {"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py", "--patterns", "/nonexistent.json"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    p.start(cli, {"match", FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
}

QTEST_GUILESS_MAIN(TestPatternMatcher)
#include "tst_pattern_matcher.moc"
