// Replacement as Inductor does it (insertion before the earliest output, pairwise and tuple outputs, getitem users
// rewired, erase in reverse, stable topological sort), provenance, meta carried over, DCE, the per-op diff and the
// fxscope-cli apply JSON contract, on the LLaMA sample and small hand-built graphs.

#include "io/loader.h"
#include "io/readable_parser.h"
#include "io/readable_writer.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/dead_code.h"
#include "rewrite/graph_diff.h"
#include "rewrite/replacement.h"
#include "rewrite/session.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace fxs;

namespace {

const std::string kLlama = std::string(FXSCOPE_SOURCE_DIR) + "/resources/samples/llama_block.py";

std::unique_ptr<Graph> loadFirst(const std::string &path)
{
    auto file = loadGraphFile(path);
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file->graphs.front().graph);
}

std::unique_ptr<Graph> code(const char *text)
{
    auto file = parseReadable(text, "test");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file->graphs.front().graph);
}

std::shared_ptr<PatternRegistry> builtins(const std::string &name = {})
{
    auto r = std::make_shared<PatternRegistry>();
    if (auto st = registerBuiltinPatterns(*r, name); !st)
        qFatal("%s", st.error().toString().c_str());
    return r;
}

std::map<std::string, int> targetCounts(const Graph &g)
{
    std::map<std::string, int> out;
    for (const auto &n : g.nodes())
        ++out[n->target()];
    return out;
}

// add + npu_rms_norm → getitem, with a residual user of the add: TorchAir's add_rms_norm example.
std::string addRmsNormGraph(int lastDim)
{
    std::string d = std::to_string(lastDim);
    return "class GraphModule(torch.nn.Module):\n"
           "    def forward(self, x1: \"f16[1, 4, "
        + d + "]\", x2: \"f16[1, 4, " + d + "]\", gamma: \"f16[" + d
        + "]\"):\n"
          "        add: \"f16[1, 4, "
        + d
        + "]\" = torch.ops.aten.add.Tensor(x1, x2)\n"
          "        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, gamma)\n"
          "        getitem: \"f16[1, 4, "
        + d
        + "]\" = npu_rms_norm[0]\n"
          "        mul: \"f16[1, 4, "
        + d
        + "]\" = torch.ops.aten.mul.Tensor(getitem, 2)\n"
          "        add_1: \"f16[1, 4, "
        + d
        + "]\" = torch.ops.aten.add.Tensor(add, mul)\n"
          "        return (add_1,)\n";
}

} // namespace

class TestRewrite : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void llamaSample()
    {
        auto original = loadFirst(kLlama);
        QCOMPARE(original->size(), size_t(107));
        Session s(original->clone(), builtins());
        auto n = s.runToEnd();
        QVERIFY2(n, n ? "" : n.error().toString().c_str());
        QCOMPARE(n.value(), size_t(3));
        QCOMPARE(s.graph().size(), size_t(95));
        QVERIFY(lint(s.graph()).empty());
        // Inductor's order: anchors last to first.
        QCOMPARE(s.history()[0].name, std::string("swiglu"));
        QCOMPARE(s.history()[1].name, std::string("rms_norm_cast"));
        QCOMPARE(s.history()[2].name, std::string("rms_norm_cast"));
        QCOMPARE(s.history()[1].removed.size(), size_t(8));
        QCOMPARE(s.history()[1].added.size(), size_t(2));

        auto counts = targetCounts(s.graph());
        QCOMPARE(counts["torch.ops.npu.npu_rms_norm.default"], 2);
        QCOMPARE(counts["torch.ops.npu.npu_swiglu.default"], 1);
        QCOMPARE(counts["torch.ops.aten.rsqrt.default"], 0);
        QCOMPARE(counts["torch.ops.aten.silu.default"], 0);

        // Every removed node is gone and nothing refers to it; the users of the old output use the getitem.
        for (const auto &step : s.history())
            for (const auto &name : step.removed)
                QVERIFY2(!s.graph().find(name), name.c_str());
        Node *oldOut = original->find(s.history()[2].anchor);
        QVERIFY(oldOut);
        const Node *getitem = s.graph().find(s.history()[2].added.back());
        QVERIFY(isGetitem(*getitem));
        QCOMPARE(getitem->users().size(), oldOut->users().size());
        for (const Node *u : oldOut->users())
            QVERIFY(std::find_if(getitem->users().begin(), getitem->users().end(), [&](const Node *x) {
                return x->name() == u->name();
            }) != getitem->users().end());
        // Meta: the getitem takes the replaced output's val; the tuple-valued op's val stays unknown.
        QVERIFY(getitem->meta().val);
        QCOMPARE(*getitem->meta().val, *oldOut->meta().val);
        const Node *norm = getitem->args()[0].node();
        QVERIFY(!norm->meta().val);
        const Json &prov = norm->meta().extra[kProvenanceKey];
        QCOMPARE(prov["pattern"].toString(), std::string("rms_norm_cast"));
        QCOMPARE(prov["anchor"].toString(), s.history()[2].anchor);
        QCOMPARE(prov["replaced"].items().size(), size_t(8));

        // The fused graph writes and re-loads and lints clean.
        QTemporaryDir dir;
        std::string path = dir.filePath("fused.py").toStdString();
        QVERIFY(writeFileAtomically(path, writeReadable(s.graph())));
        auto reloaded = loadFirst(path);
        QCOMPARE(reloaded->size(), size_t(95));
        QVERIFY(lint(*reloaded).empty());
    }

    void multiOutput_data()
    {
        QTest::addColumn<int>("lastDim");
        QTest::addColumn<bool>("fused");
        QTest::newRow("7168 passes extra_check") << 7168 << true;
        QTest::newRow("4096 fails extra_check") << 4096 << false;
    }
    void multiOutput()
    {
        QFETCH(int, lastDim);
        QFETCH(bool, fused);
        auto g = code(addRmsNormGraph(lastDim).c_str());
        std::string before = printCanonical(*g);
        Session s(std::move(g), builtins("add_rms_norm"));
        auto n = s.runToEnd();
        QVERIFY2(n, n ? "" : n.error().toString().c_str());
        QCOMPARE(n.value(), size_t(fused ? 1 : 0));
        if (!fused)
            return;
        const Graph &out = s.graph();
        QVERIFY(lint(out).empty());
        QVERIFY(!out.find("add") && !out.find("npu_rms_norm") && !out.find("getitem"));
        auto counts = targetCounts(out);
        QCOMPARE(counts["torch.ops.npu.npu_add_rms_norm.default"], 1);
        QCOMPARE(counts["operator.getitem"], 2);
        // add_1 = add(add, mul) now reads the fused op's element 2, mul reads element 0.
        const Node *add1 = out.find("add_1");
        const Node *mul = out.find("mul");
        const Node *residual = add1->args()[0].node();
        const Node *normed = mul->args()[0].node();
        QVERIFY(isGetitem(*residual) && isGetitem(*normed));
        QCOMPARE(residual->args()[1].toInt(), int64_t(2));
        QCOMPARE(normed->args()[1].toInt(), int64_t(0));
        QCOMPARE(residual->args()[0].node(), normed->args()[0].node());
        QCOMPARE(residual->args()[0].node()->target(), std::string("torch.ops.npu.npu_add_rms_norm.default"));
        // The new getitems carry the vals of the outputs they replaced.
        QCOMPARE(residual->meta().val->toAnnotation(), std::string("f16[1, 4, 7168]"));
        // Inserted before the earliest output (add), so everything stays in order without moving.
        QVERIFY(residual->args()[0].node()->index() < normed->index());
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
    }

    void insertionBeforeEarliestOutputIsSorted()
    {
        // The earliest output (add) comes before the producer of gamma's input: the replacement inserted before it
        // would read a later node, so stable_topological_sort must move it after that producer.
        auto g = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[1, 4, 7168]", x2: "f16[1, 4, 7168]", w: "f16[7168]"):
        add: "f16[1, 4, 7168]" = torch.ops.aten.add.Tensor(x1, x2)
        gamma: "f16[7168]" = torch.ops.aten.mul.Tensor(w, 2)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, gamma)
        getitem: "f16[1, 4, 7168]" = npu_rms_norm[0]
        add_1: "f16[1, 4, 7168]" = torch.ops.aten.add.Tensor(add, getitem)
        return (add_1,)
)");
        std::string before = printCanonical(*g);
        Session s(std::move(g), builtins("add_rms_norm"));
        auto n = s.runToEnd();
        QVERIFY2(n, n ? "" : n.error().toString().c_str());
        QCOMPARE(n.value(), size_t(1));
        QVERIFY(lint(s.graph()).empty());
        bool reordered = false;
        for (const auto &op : s.history()[0].edits.ops())
            reordered = reordered || op.kind == EditOp::Kind::Reorder;
        QVERIFY(reordered);
        const Node *gamma = s.graph().find("gamma");
        QVERIFY(gamma->users().front()->index() > gamma->index());
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
        QVERIFY(s.redo());
        QVERIFY(lint(s.graph()).empty());
    }

    void deadCode()
    {
        auto g = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]", y: "f32[4]"):
        a: "f32[4]" = torch.ops.aten.mul.Tensor(x, 2)
        b: "f32[4]" = torch.ops.aten.relu.default(a)
        c: "f32[4]" = torch.ops.aten.add_.Tensor(y, 1)
        d: "f32[4]" = torch.ops.aten.neg.default(x)
        return (d,)
)");
        std::string before = printCanonical(*g);
        GraphEditor editor(*g);
        auto removed = eliminateDeadCode(editor);
        QCOMPARE(removed, (std::vector<std::string>{"b", "a"}));
        QVERIFY(g->find("c")); // in place: impure
        QVERIFY(g->find("x") && g->find("y"));
        QVERIFY(lint(*g).empty());
        QVERIFY(editor.record().undo(*g));
        QCOMPARE(printCanonical(*g), before);
    }

    // The built-in layer_norm is re-traced per match: its replacement takes normalized_shape from this weight and
    // eps from this match (not the [8] and 1e-05 of its example), so 2-d rows of 16 with eps 1e-12 fuse correctly.
    void builtinLayerNormReplacementRetraced()
    {
        auto g = code(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 16]", w: "f32[16]", b: "f32[16]"):
        var_mean = torch.ops.aten.var_mean.correction(x, [1], correction = 0, keepdim = True)
        getitem: "f32[4, 1]" = var_mean[0]
        getitem_1: "f32[4, 1]" = var_mean[1]
        add: "f32[4, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-12)
        rsqrt: "f32[4, 1]" = torch.ops.aten.rsqrt.default(add)
        sub: "f32[4, 16]" = torch.ops.aten.sub.Tensor(x, getitem_1)
        mul: "f32[4, 16]" = torch.ops.aten.mul.Tensor(sub, rsqrt)
        mul_1: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul, w)
        add_1: "f32[4, 16]" = torch.ops.aten.add.Tensor(mul_1, b)
        return add_1
)");
        Session s(std::move(g), builtins("layer_norm"));
        auto stepped = s.step();
        QVERIFY2(stepped, stepped ? "" : stepped.error().toString().c_str());
        QVERIFY(stepped.value());
        const Node *ln = nullptr;
        for (const auto &n : s.graph().nodes())
            if (n->target().find("native_layer_norm") != std::string::npos)
                ln = n.get();
        QVERIFY(ln);
        QCOMPARE(ln->args().size(), size_t(5));
        QCOMPARE(ln->args()[0].node()->name(), std::string("x"));
        QCOMPARE(ln->args()[1].toPython(), std::string("[16]"));
        QCOMPARE(ln->args()[4].toDouble(), 1e-12);
        QVERIFY(lint(s.graph()).empty());
    }

    // The same op in two spellings (a dump's torch.ops.aten.cat.default, a pass's aten.cat.default) is one row of
    // the op table and no target change; a real change of op still is one.
    void diffCanonicalTargets()
    {
        auto build = [](const char *catTarget, const char *negTarget) {
            auto g = std::make_unique<Graph>();
            Node *x = g->append(OpKind::Placeholder, "x", "x");
            Node *cat = g->append(OpKind::CallFunction, "cat", catTarget,
                {Argument::list({Argument::ofNode(x), Argument::ofNode(x)}), Argument::ofInt(-1)});
            Node *neg = g->append(OpKind::CallFunction, "neg", negTarget, {Argument::ofNode(cat)});
            Node *item = g->append(OpKind::CallFunction, "getitem", "<built-in function getitem>",
                {Argument::ofNode(neg), Argument::ofInt(0)});
            g->append(OpKind::Output, "output", "output", {Argument::ofNode(item)});
            return g;
        };
        auto before = build("torch.ops.aten.cat.default", "torch.ops.aten.neg.default");
        auto after = build("aten.cat.default", "aten.abs.default");
        after->setTarget(after->find("getitem"), "_operator.getitem");
        GraphDiff d = diffGraphs(*before, *after);
        QCOMPARE(d.opCounts.count("torch.ops.aten.cat.default"), size_t(0));
        QCOMPARE(d.opCounts["aten.cat.default"], std::make_pair(size_t(1), size_t(1)));
        QCOMPARE(d.opCounts["operator.getitem"], std::make_pair(size_t(1), size_t(1)));
        QCOMPARE(d.opCounts["aten.neg.default"], std::make_pair(size_t(1), size_t(0)));
        QCOMPARE(d.opCounts["aten.abs.default"], std::make_pair(size_t(0), size_t(1)));
        QCOMPARE(d.changed.size(), size_t(1));
        QCOMPARE(d.changed[0].name, std::string("neg"));
        QCOMPARE(d.changed[0].before, std::string("aten.neg.default"));
        QCOMPARE(d.changed[0].after, std::string("aten.abs.default"));
        const std::string table = d.opTable(false);
        QVERIFY(table.find("torch.ops.") == std::string::npos);
        QVERIFY2(table.find("aten.cat.default") != std::string::npos, table.c_str());
    }

    void diffTable()
    {
        auto original = loadFirst(kLlama);
        Session s(original->clone(), builtins());
        QVERIFY(s.runToEnd());
        GraphDiff d = diffGraphs(*original, s.graph());
        QCOMPARE(d.nodesBefore, size_t(107));
        QCOMPARE(d.nodesAfter, size_t(95));
        QCOMPARE(d.removed.size(), size_t(18));
        QCOMPARE(d.added.size(), size_t(6));
        QCOMPARE(d.opCounts["npu.npu_rms_norm.default"], std::make_pair(size_t(0), size_t(2)));
        QCOMPARE(d.opCounts["aten.mul.Tensor"], std::make_pair(size_t(9), size_t(4)));
        for (const auto &a : d.added) {
            QVERIFY(!a.pattern.empty());
            QVERIFY(!a.replaced.empty());
        }
        // Users rewired show up as args changes, matched by name.
        bool argsChanged = false;
        for (const auto &c : d.changed)
            argsChanged = argsChanged || c.field == "args";
        QVERIFY(argsChanged);
        QVERIFY(d.opTable().find("npu.npu_swiglu.default") != std::string::npos);
        QVERIFY(diffGraphs(s.graph(), s.graph()).empty());
    }

    void cliJsonContract()
    {
        QTemporaryDir dir;
        QString out = dir.filePath("fused.json");
        QProcess p;
        p.start(QString(FXSCOPE_BIN_DIR) + "/fxscope-cli",
            {"apply", QString::fromStdString(kLlama), "--patterns", "builtin", "--all", "-o", out, "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        auto root = Json::parse(p.readAllStandardOutput().toStdString());
        QVERIFY(root);
        QCOMPARE(root.value()["nodes_before"].toInt(), int64_t(107));
        QCOMPARE(root.value()["nodes_after"].toInt(), int64_t(95));
        const auto &steps = root.value()["steps"].items();
        QCOMPARE(steps.size(), size_t(3));
        for (const auto &st : steps) {
            QVERIFY(st["pattern"].isString());
            QVERIFY(st["removed"].isArray() && !st["removed"].items().empty());
            QVERIFY(st["added"].isArray() && !st["added"].items().empty());
        }
        QVERIFY(root.value()["lint"].items().empty());
        auto reloaded = loadFirst(out.toStdString());
        QCOMPARE(reloaded->size(), size_t(95));
        QVERIFY(lint(*reloaded).empty());

        p.start(QString(FXSCOPE_BIN_DIR) + "/fxscope-cli",
            {"apply", QString::fromStdString(kLlama), "--patterns", "builtin", "--steps", "1", "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        root = Json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(root.value()["steps"].items().size(), size_t(1));
        QCOMPARE(root.value()["nodes_after"].toInt(), int64_t(107));

        p.start(QString(FXSCOPE_BIN_DIR) + "/fxscope-cli",
            {"apply", QString::fromStdString(kLlama), "--patterns", "builtin", "--steps", "x"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRewrite)
#include "tst_rewrite.moc"
