// fxscope against what Inductor's PatternMatcherPass does on the same graph and pattern file (the divergences of
// issue 14, one case each). tests/oracle checks the same against the real torch on hundreds of cases; these keep
// each fixed divergence visible as a unit test that runs without Python.

#include "io/fx_text_parser.h"
#include "io/readable_parser.h"
#include "io/readable_writer.h"
#include "patterns/pattern_file.h"
#include "match/match_report.h"
#include "rewrite/session.h"

#include <QtTest>

using namespace fxs;

namespace {

const std::string kData = std::string(FXSCOPE_TEST_DATA_DIR) + "/inductor/";
const std::string kOraclePatterns = std::string(FXSCOPE_SOURCE_DIR) + "/tests/oracle/patterns/";

std::unique_ptr<Graph> code(const std::string &text)
{
    auto file = parseReadable(text, "test");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file->graphs.front().graph);
}

std::unique_ptr<Graph> loadCode(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", path.c_str());
    return code(f.readAll().toStdString());
}

// A pattern file of tests/data/inductor, or a path.
std::shared_ptr<PatternRegistry> patterns(const std::string &file)
{
    auto r = std::make_shared<PatternRegistry>();
    if (auto st = loadPatternFile(file.find('/') == std::string::npos ? kData + file : file, *r); !st)
        qFatal("%s", st.error().toString().c_str());
    return r;
}

// The graph after one PatternMatcherPass sweep, as readable code.
std::string fused(std::unique_ptr<Graph> graph, const std::string &patternFile)
{
    Session s(std::move(graph), patterns(patternFile));
    auto n = s.runToEnd();
    if (!n)
        qFatal("%s", n.error().toString().c_str());
    return writeReadable(s.graph());
}

} // namespace

class TestInductorSemantics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // add(x, 0.5) with scalar_workaround eps: the replacement keeps 0.5 (was the example's 2e-06).
    void replacementKeepsMatchedScalar()
    {
        const std::string out = fused(code("def forward(self, x: \"f32[4, 4][4, 1]cpu\"):\n"
                                           "    add = torch.ops.aten.add.Tensor(x, 0.5)\n"
                                           "    return (add,)\n"),
            "scalar_workaround_replace.py");
        QVERIFY2(out.find("aten.sub.Tensor(x, -0.5)") != std::string::npos, out.c_str());
    }

    // replace_fn's y.size(-1) is the match's last dim (7168), not the example input's (2).
    void replacementTracedWithMatchShapes()
    {
        const std::string out = fused(loadCode(kData + "add_rms_norm_cast_graph.py"), "add_rms_norm_cast_replace.py");
        QVERIFY2(out.find("npu_add_rms_norm_cast") != std::string::npos, out.c_str());
        QVERIFY2(out.find("[-1, 7168]") != std::string::npos, out.c_str());
    }

    // The same on a symbolic graph: make_fx reads s1 from the replacement's first input that has it, a new
    // sym_size.int(a_1, 1) before the view; the graph's own sym_size_int stays, unused, as Inductor leaves it.
    // (The file registers through TorchAir, whose pipeline then turns the view into a reshape.)
    void replacementReadsSymbolicSizeFromItsInput()
    {
        const std::string out
            = fused(loadCode(kData + "add_rms_norm_cast_symbolic.py"), kOraclePatterns + "add_rms_norm_cast.py");
        QVERIFY2(out.find("sym_size_int_1: \"Sym(s1)\" = torch.ops.aten.sym_size.int(a_1, 1)\n"
                          "        view_1: \"f32[s0, s1]\" = torch.ops.aten.reshape.default(getitem_1, [-1, sym_size_int_1])")
                != std::string::npos,
            out.c_str());
        QVERIFY2(out.find("sym_size_int: \"Sym(s1)\" = torch.ops.aten.sym_size.int(a_1, 1)") != std::string::npos,
            out.c_str());
    }

    // print(gm.graph) text has no shapes: replace_fn is traced on the example input, the candidate says so, and the
    // new nodes get no meta (the example's [4, 4] is not this graph's).
    void standInTraceLeavesNewNodesWithoutMeta()
    {
        auto file = parseFxText("graph():\n"
                                "    %x_1 : [num_users=1] = placeholder[target=x_1]\n"
                                "    %sin : [num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%x_1,), kwargs = {})\n"
                                "    %cos : [num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%sin,), kwargs = {})\n"
                                "    return (cos,)\n",
            "test");
        QVERIFY(file);
        Session s(std::move(file->graphs.front().graph), patterns(kOraclePatterns + "sin_cos_chain.py"));
        const Verdict &v = s.report().value()->find("sin_cos")->candidates.at(0);
        QVERIFY(v.accepted);
        const auto reasons = v.reasonTexts();
        QVERIFY(std::any_of(reasons.begin(), reasons.end(),
            [](const std::string &r) { return r.find("the example input's shape") != std::string::npos; }));
        QCOMPARE(s.runToEnd().value(), size_t(1));
        for (const auto &n : s.graph().nodes())
            QVERIFY2(!n->meta().val, n->name().c_str());
    }

    // x.to(torch.float32) of a float32 tensor traces to nothing: the T5 pattern matches a float32 T5 RMSNorm.
    void sameDtypeCastTracesToNothing()
    {
        auto graph = code("def forward(self, x: \"f32[4, 6, 16][96, 16, 1]cpu\", w: \"f32[16][1]cpu\"):\n"
                          "    pow_1: \"f32[4, 6, 16][96, 16, 1]cpu\" = torch.ops.aten.pow.Tensor_Scalar(x, 2)\n"
                          "    mean: \"f32[4, 6, 1][6, 1, 1]cpu\" = torch.ops.aten.mean.dim(pow_1, [-1], True)\n"
                          "    add: \"f32[4, 6, 1][6, 1, 1]cpu\" = torch.ops.aten.add.Tensor(mean, 1e-06)\n"
                          "    rsqrt: \"f32[4, 6, 1][6, 1, 1]cpu\" = torch.ops.aten.rsqrt.default(add)\n"
                          "    mul: \"f32[4, 6, 16][96, 16, 1]cpu\" = torch.ops.aten.mul.Tensor(x, rsqrt)\n"
                          "    mul_1: \"f32[4, 6, 16][96, 16, 1]cpu\" = torch.ops.aten.mul.Tensor(w, mul)\n"
                          "    return (mul_1,)\n");
        auto registry = patterns("t5_rms_norm_f32.py");
        Session s(std::move(graph), registry);
        auto report = s.report();
        QVERIFY(report);
        const PatternReport *p = report.value()->find("t5_rms_norm");
        QVERIFY(p);
        QVERIFY(!p->candidates.empty());
        QCOMPARE(p->candidates[0].anchor, std::string("mul_1"));
        QVERIFY2(p->candidates[0].accepted, p->candidates[0].reasonTexts().front().c_str());
    }

    // The first replacement (at the later anchor) drops a use of m; the second pattern then needs m single-use and
    // matches, as on Inductor's graph (fxscope's matcher once judged every anchor on the unchanged graph).
    void userCountAfterEarlierReplacement()
    {
        const char *graph = "def forward(self, x: \"f32[8][1]cpu\", y: \"f32[8][1]cpu\", w: \"f32[8][1]cpu\"):\n"
                            "    m: \"f32[8][1]cpu\" = torch.ops.aten.mul.Tensor(x, y)\n"
                            "    e: \"f32[8][1]cpu\" = torch.ops.aten.exp.default(m)\n"
                            "    z: \"f32[8][1]cpu\" = torch.ops.aten.mul.Tensor(m, 0)\n"
                            "    r: \"f32[8][1]cpu\" = torch.ops.aten.add.Tensor(z, w)\n"
                            "    return (e, r)\n";
        Session s(code(graph), patterns("user_count_after_replacement.py"));
        auto report = s.report();
        QVERIFY(report);
        QVERIFY(report.value()->find("times_zero_plus")->candidates.at(0).accepted);
        const Verdict &exp = report.value()->find("exp_of_product")->candidates.at(0);
        QCOMPARE(exp.anchor, std::string("e"));
        QVERIFY2(exp.accepted, exp.reasonTexts().front().c_str());
        QCOMPARE(s.runToEnd().value(), size_t(2));
        const std::string out = writeReadable(s.graph());
        QVERIFY2(out.find("aten.mul.Tensor(y, x)") != std::string::npos, out.c_str());
    }

    // An extra_check that raises stops the sweep there with the error (Inductor does not catch it).
    void extraCheckExceptionStopsThePass()
    {
        const char *graph = "def forward(self, x: \"f32[8][1]cpu\", y: \"f32[8][1]cpu\"):\n"
                            "    m: \"f32[8][1]cpu\" = torch.ops.aten.mul.Tensor(x, y)\n"
                            "    e: \"f32[8][1]cpu\" = torch.ops.aten.exp.default(m)\n"
                            "    m_1: \"f32[8][1]cpu\" = torch.ops.aten.mul.Tensor(e, y)\n"
                            "    e_1: \"f32[8][1]cpu\" = torch.ops.aten.exp.default(m_1)\n"
                            "    return (e_1,)\n";
        Session s(code(graph), patterns("extra_check_raises.py"));
        auto report = s.report();
        QVERIFY(report);
        const auto &candidates = report.value()->find("exp_of_product")->candidates;
        QCOMPARE(candidates.size(), size_t(1)); // e is never tried
        QCOMPARE(candidates[0].stage, MatchStage::Error);
        QVERIFY2(report.value()->stoppedBy.find("extra_check_raises.py:17") != std::string::npos
                && report.value()->stoppedBy.find("KeyError") != std::string::npos,
            report.value()->stoppedBy.c_str());
        auto step = s.step();
        QVERIFY(!step);
        QVERIFY2(step.error().message.find("KeyError") != std::string::npos, step.error().message.c_str());
    }

    // A complex input: PatternMatcherPass skips the anchor before trying any pattern.
    void complexAnchorSkipped()
    {
        const char *graph = "def forward(self, x: \"c64[8][1]cpu\", y: \"c64[8][1]cpu\"):\n"
                            "    m: \"c64[8][1]cpu\" = torch.ops.aten.mul.Tensor(x, y)\n"
                            "    e: \"c64[8][1]cpu\" = torch.ops.aten.exp.default(m)\n"
                            "    return (e,)\n";
        Session s(code(graph), patterns("user_count_after_replacement.py"));
        auto report = s.report();
        QVERIFY(report);
        const Verdict &v = report.value()->find("exp_of_product")->candidates.at(0);
        QVERIFY(!v.accepted);
        QVERIFY2(v.reasonTexts().front().find("complex") != std::string::npos, v.reasonTexts().front().c_str());
        QCOMPARE(s.runToEnd().value(), size_t(0));
    }

    // Two patterns that differ only in dtype= are two patterns (Inductor's duplicate key is the traced graph's text).
    void duplicateKeyHoldsKwargs()
    {
        auto registry = patterns(kOraclePatterns + "dtype_kwargs.py");
        QCOMPARE(registry->entries().size(), size_t(2));
    }

    // A search_fn parameter no KeywordArg binds (alpha, never in the traced graph): check_fn raises "Not all inputs
    // to pattern found in match.kwargs" at the first match, out of the pass.
    void unboundParameterRaises()
    {
        const char *graph = "def forward(self, x: \"f32[4, 4][4, 1]cpu\", y: \"f32[4, 4][4, 1]cpu\"):\n"
                            "    tanh: \"f32[4, 4][4, 1]cpu\" = torch.ops.aten.tanh.default(x)\n"
                            "    mul: \"f32[4, 4][4, 1]cpu\" = torch.ops.aten.mul.Tensor(tanh, y)\n"
                            "    return (mul,)\n";
        Session s(code(graph), patterns(kOraclePatterns + "unused_scalar.py"));
        auto report = s.report();
        QVERIFY(report);
        QCOMPARE(report.value()->find("tanh_mul")->candidates.at(0).stage, MatchStage::Error);
        QVERIFY2(report.value()->stoppedBy.find("Not all inputs to pattern found in match.kwargs") != std::string::npos,
            report.value()->stoppedBy.c_str());
        QVERIFY(!s.step());
    }
};

QTEST_GUILESS_MAIN(TestInductorSemantics)
#include "tst_inductor_semantics.moc"
