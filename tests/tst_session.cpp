// The fusion session: undo/redo restore the canonical dump exactly, redo cleared by a new step, bisect, stepping
// over a pattern, a chosen candidate, disabled patterns, passes as steps, lint failures that stop the session,
// diffs between revisions, and a 100k-node chain whose steps' edit records stay O(step).

#include "io/loader.h"
#include "io/readable_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"
#include "patterns/builtin_patterns.h"
#include "patterns/pattern_file.h"
#include "patterns/register_replacement.h"
#include "rewrite/dead_code.h"
#include "rewrite/graph_diff.h"
#include "rewrite/session.h"

#include <QtTest>

#include <map>
#include <random>

using namespace fxs;

namespace {

const std::string kLlama = std::string(FXSCOPE_SOURCE_DIR) + "/resources/samples/llama_block.py";

std::unique_ptr<Graph> llama()
{
    auto file = loadGraphFile(kLlama);
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

// x -> (silu(x) * x) -> (silu * .) -> ...: `pairs` SwiGLU matches, 2 * pairs + 2 nodes.
std::unique_ptr<Graph> swigluChain(size_t pairs)
{
    auto g = std::make_unique<Graph>();
    Node *prev = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < pairs; ++i) {
        Node *silu = g->append(
            OpKind::CallFunction, "silu_" + std::to_string(i), "torch.ops.aten.silu.default", {Argument::ofNode(prev)});
        prev = g->append(OpKind::CallFunction, "mul_" + std::to_string(i), "torch.ops.aten.mul.Tensor",
            {Argument::ofNode(silu), Argument::ofNode(prev)});
    }
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(prev)})});
    return g;
}

std::shared_ptr<const Graph> snippet(const char *code)
{
    auto file = parseReadable(code, "snippet");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::shared_ptr<const Graph>(std::move(file->graphs.front().graph));
}

// GPT-2's LayerNorm over dim 2 and its tanh GELU, as post-grad graphs spell them: 25 + 12 matches in the corpus's
// GPT-2 inference graph.
std::shared_ptr<PatternRegistry> gpt2Patterns()
{
    auto registry = std::make_shared<PatternRegistry>();
    auto add = [&](const char *name, const char *search, const char *replace) {
        ReplacementSpec spec;
        spec.name = name;
        spec.search = snippet(search);
        spec.replace = snippet(replace);
        for (const Node *p : spec.search->placeholders()) {
            ExampleInput ex;
            ex.name = p->name();
            ex.meta = p->meta().val->tensor;
            spec.exampleInputs.push_back(std::move(ex));
        }
        if (auto st = registerReplacement(*registry, std::move(spec)); !st)
            qFatal("%s", st.error().toString().c_str());
    };
    add("layer_norm_dim2", R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 8]", weight: "f32[8]", bias: "f32[8]"):
        var_mean = torch.ops.aten.var_mean.correction(x, [2], correction = 0, keepdim = True)
        getitem: "f32[2, 4, 1]" = var_mean[0]
        getitem_1: "f32[2, 4, 1]" = var_mean[1]
        sub: "f32[2, 4, 8]" = torch.ops.aten.sub.Tensor(x, getitem_1)
        add: "f32[2, 4, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-05)
        rsqrt: "f32[2, 4, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(sub, rsqrt)
        mul_1: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(mul, weight)
        add_1: "f32[2, 4, 8]" = torch.ops.aten.add.Tensor(mul_1, bias)
        return add_1
)",
        R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 8]", weight: "f32[8]", bias: "f32[8]"):
        native_layer_norm = torch.ops.aten.native_layer_norm.default(x, [768], weight, bias, 1e-05)
        getitem: "f32[2, 4, 8]" = native_layer_norm[0]
        return getitem
)");
    add("gelu_tanh", R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 8]"):
        mul: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(x, 0.5)
        pow_1: "f32[2, 4, 8]" = torch.ops.aten.pow.Tensor_Scalar(x, 3.0)
        mul_1: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(pow_1, 0.044715)
        add: "f32[2, 4, 8]" = torch.ops.aten.add.Tensor(x, mul_1)
        mul_2: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(add, 0.7978845608028654)
        tanh: "f32[2, 4, 8]" = torch.ops.aten.tanh.default(mul_2)
        add_1: "f32[2, 4, 8]" = torch.ops.aten.add.Tensor(tanh, 1.0)
        mul_3: "f32[2, 4, 8]" = torch.ops.aten.mul.Tensor(mul, add_1)
        return mul_3
)",
        R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 8]"):
        gelu: "f32[2, 4, 8]" = torch.ops.aten.gelu.default(x, approximate = 'tanh')
        return gelu
)");
    return registry;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void undoRedoExact_data()
    {
        QTest::addColumn<int>("steps");
        QTest::newRow("1 step") << 1;
        QTest::newRow("2 steps") << 2;
        QTest::newRow("3 steps") << 3;
    }
    void undoRedoExact()
    {
        QFETCH(int, steps);
        Session s(llama(), builtins());
        std::vector<std::string> dumps{printCanonical(s.graph())};
        for (int i = 0; i < steps; ++i) {
            auto r = s.step();
            QVERIFY(r && r.value());
            QVERIFY(lint(s.graph()).empty());
            dumps.push_back(printCanonical(s.graph()));
        }
        for (int i = steps; i > 0; --i) {
            QVERIFY(s.undo());
            QCOMPARE(printCanonical(s.graph()), dumps[size_t(i - 1)]);
        }
        QVERIFY(!s.canUndo());
        for (int i = 1; i <= steps; ++i) {
            QVERIFY(s.redo());
            QCOMPARE(printCanonical(s.graph()), dumps[size_t(i)]);
        }
        QVERIFY(s.reset());
        QCOMPARE(printCanonical(s.graph()), dumps[0]);
        QVERIFY(s.goTo(size_t(steps)));
        QCOMPARE(printCanonical(s.graph()), dumps.back());
    }

    // The issue's example, from the pattern files users write: add -> npu_rms_norm -> getitem becomes
    // npu_add_rms_norm with its getitems, the add's and the norm's users rewired; undo gives back the dump exactly.
    void addRmsNormFromPatternFiles()
    {
        auto registry = std::make_shared<PatternRegistry>();
        for (const char *file : {"rms_norm.py", "add_rms_norm.py"})
            QVERIFY(loadPatternFile(std::string(FXSCOPE_SOURCE_DIR) + "/resources/patterns/" + file, *registry));
        Session s(llama(), registry);
        QVERIFY(s.run(2)); // the two RMSNorms become npu_rms_norm + getitem
        const Node *norm = s.graph().find("npu_rms_norm");
        QVERIFY(norm);
        const Node *add = norm->args()[0].node();
        QCOMPARE(add->target(), std::string("torch.ops.aten.add.Tensor"));
        const std::string addName = add->name();
        QCOMPARE(add->users().size(), size_t(2)); // the norm and the next residual add
        const Node *normOut = s.graph().find("getitem");
        QVERIFY(normOut && normOut->args()[0].node() == norm);
        const size_t normUsers = normOut->users().size();
        std::vector<std::string> normReplaced;
        for (const Json &name : norm->meta().extra[kProvenanceKey]["replaced"].items())
            normReplaced.push_back(name.toString());
        QCOMPARE(normReplaced.size(), size_t(8)); // the cast RMSNorm's eight ops

        // The files register through TorchAir, so TorchAir's view_to_reshape follows the sweep as a step of its own.
        QVERIFY(s.step().value());
        QCOMPARE(s.history().back().kind, std::string("pass"));
        QCOMPARE(s.history().back().name, std::string("view_to_reshape"));
        // The npu_rms_norm nodes the first sweep created are no anchors of it (Inductor's pass collects its anchors
        // when it starts): add_rms_norm fuses them when the pass is applied again.
        QVERIFY(!s.step().value());
        const std::string beforeFusion = printCanonical(s.graph());
        s.startNewSweep();
        auto r = s.step();
        QVERIFY(r && r.value());
        const SessionStep &step = s.history().back();
        QCOMPARE(step.name, std::string("add_rms_norm"));
        QCOMPARE(step.removed, (std::vector<std::string>{"getitem", addName, "npu_rms_norm"}));
        const Node *fused = s.graph().find("npu_add_rms_norm");
        QVERIFY(fused);
        QCOMPARE(fused->target(), std::string("npu.npu_add_rms_norm.default"));
        std::map<int64_t, const Node *> items; // getitem index -> node
        for (const Node *u : fused->users())
            items[u->args()[1].toInt()] = u;
        QVERIFY(items.count(0) && items.count(2));
        QCOMPARE(items[0]->users().size(), normUsers); // y: the norm's users
        QCOMPARE(items[2]->users().size(), size_t(1)); // x_out: the residual add that used `add`
        QCOMPARE(fused->meta().extra[kProvenanceKey]["pattern"].toString(), std::string("add_rms_norm"));
        // Its origin goes back through the earlier fusion: the add and the nodes npu_rms_norm had replaced, all
        // in the graph as loaded, each once.
        std::vector<std::string> origin;
        for (const Json &name : fused->meta().extra[kProvenanceKey]["origin"].items())
            origin.push_back(name.toString());
        std::vector<std::string> expected = normReplaced;
        expected.push_back(addName);
        std::sort(origin.begin(), origin.end());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(origin, expected);
        const auto loaded = llama();
        for (const auto &name : origin)
            QVERIFY2(loaded->find(name), name.c_str());
        QVERIFY(lint(s.graph()).empty());

        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), beforeFusion);
        QVERIFY(s.redo());
        QVERIFY(s.graph().find("npu_add_rms_norm"));
    }

    void newStepClearsRedo()
    {
        Session s(llama(), builtins());
        QCOMPARE(s.run(3).value(), size_t(3));
        QVERIFY(s.undo());
        QVERIFY(s.undo());
        QVERIFY(s.canRedo());
        QCOMPARE(s.history().size(), size_t(3));
        auto r = s.step();
        QVERIFY(r && r.value());
        QVERIFY(!s.canRedo());
        QCOMPARE(s.history().size(), size_t(2));
        QCOMPARE(s.revision(), size_t(2));
        QVERIFY(!s.step().value() || s.revision() == 3);
    }

    void bisect()
    {
        Session s(llama(), builtins());
        std::vector<std::string> dumps{printCanonical(s.graph())};
        while (s.step().value())
            dumps.push_back(printCanonical(s.graph()));
        QCOMPARE(dumps.size(), size_t(4));
        for (size_t n : {size_t(1), size_t(0), size_t(2), size_t(3)}) {
            auto r = s.bisect(n);
            QVERIFY(r);
            QCOMPARE(r.value(), n);
            QCOMPARE(printCanonical(s.graph()), dumps[n]);
        }
        // Past the recorded history, bisect matches afresh and stops at the fixed point.
        QCOMPARE(s.bisect(10).value(), size_t(3));
    }

    void stepOverAndChosenCandidate()
    {
        Session s(llama(), builtins());
        auto n = s.stepOver("rms_norm_cast");
        QVERIFY(n);
        QCOMPARE(n.value(), size_t(2));
        for (const auto &st : s.history())
            QCOMPARE(st.name, std::string("rms_norm_cast"));
        QVERIFY(!s.stepOver("no_such_pattern"));

        Session c(llama(), builtins());
        // The earliest rms_norm_cast site first, out of Inductor's order.
        auto rep = c.report();
        QVERIFY(rep);
        const PatternReport *pr = rep.value()->find("rms_norm_cast");
        std::string first;
        for (const auto &cand : pr->candidates)
            if (cand.accepted)
                first = cand.anchor; // candidates run last to first: the last accepted is the earliest
        QVERIFY(c.applyCandidate("rms_norm_cast", first));
        QCOMPARE(c.history()[0].anchor, first);
        std::string rejected;
        for (const auto &cand : c.report().value()->find("swiglu")->candidates)
            if (!cand.accepted)
                rejected = cand.anchor;
        if (!rejected.empty())
            QVERIFY(!c.applyCandidate("swiglu", rejected));
        QVERIFY(!c.applyCandidate("swiglu", "no_such_node"));
    }

    void disablePattern()
    {
        Session s(llama(), builtins());
        s.setPatternEnabled("rms_norm_cast", false);
        QVERIFY(!s.isPatternEnabled("rms_norm_cast"));
        QCOMPARE(s.runToEnd().value(), size_t(1));
        QCOMPARE(s.history()[0].name, std::string("swiglu"));
        QVERIFY(!s.report().value()->find("rms_norm_cast"));
        s.setPatternEnabled("rms_norm_cast", true);
        QCOMPARE(s.runToEnd().value(), size_t(2));
        QCOMPARE(s.graph().size(), size_t(95));

        // Undo after disabling: the step taken from a sweep that had the pattern must not bring it back.
        Session t(llama(), builtins());
        auto first = t.step();
        QVERIFY(first && first.value());
        const std::string name = t.history()[0].name;
        t.setPatternEnabled(name, false);
        QVERIFY(t.undo());
        auto again = t.step();
        QVERIFY(again && again.value());
        QVERIFY(t.history()[0].name != name);
        QVERIFY(!t.report().value()->find(name));
    }

    void passAsStep()
    {
        auto g = llama();
        // A dead node to eliminate.
        Node *x = g->placeholders().front();
        g->insertBefore(
            g->outputNode(), OpKind::CallFunction, "dead", "torch.ops.aten.neg.default", {Argument::ofNode(x)});
        std::string before = printCanonical(*g);
        Session s(std::move(g), builtins());
        auto dce = [](GraphEditor &e) -> Result<bool> { return !eliminateDeadCode(e).empty(); };
        auto r = s.applyPass("dce", dce);
        QVERIFY(r && r.value());
        QCOMPARE(s.history()[0].kind, std::string("pass"));
        QCOMPARE(s.history()[0].removed, std::vector<std::string>{"dead"});
        QVERIFY(!s.applyPass("dce", dce).value()); // nothing left: no step
        QCOMPARE(s.revision(), size_t(1));
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
    }

    void lintFailureStops()
    {
        Session s(llama(), builtins());
        QVERIFY(s.step().value());
        // A broken pass: a node after the output.
        auto bad = [](GraphEditor &e) -> Result<bool> {
            Node *x = e.graph().placeholders().front();
            e.insertBefore(nullptr, OpKind::CallFunction, "late", "torch.ops.aten.neg.default", {Argument::ofNode(x)});
            return true;
        };
        auto r = s.applyPass("bad", bad);
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("step 2 (pass 'bad')") != std::string::npos, r.error().message.c_str());
        QVERIFY(!s.stoppedReason().empty());
        QVERIFY(!s.step()); // refused while stopped
        QVERIFY(s.undo());
        QVERIFY(s.stoppedReason().empty());
        QVERIFY(lint(s.graph()).empty());
        QVERIFY(s.step().value());
    }

    void diffBetweenRevisions()
    {
        Session s(llama(), builtins());
        QCOMPARE(s.runToEnd().value(), size_t(3));
        auto g0 = s.graphAt(0);
        auto g1 = s.graphAt(1);
        auto g2 = s.graphAt(2);
        QVERIFY(g0 && g1 && g2);
        QCOMPARE(g0.value()->size(), size_t(107));
        // Between revisions 1 and 2 exactly step 2's nodes were removed and added.
        GraphDiff d = diffGraphs(*g1.value(), *g2.value());
        std::vector<std::string> removed, added;
        for (const auto &n : d.removed)
            removed.push_back(n.name);
        for (const auto &n : d.added)
            added.push_back(n.name);
        std::vector<std::string> expectRemoved = s.history()[1].removed, expectAdded = s.history()[1].added;
        std::sort(removed.begin(), removed.end());
        std::sort(expectRemoved.begin(), expectRemoved.end());
        QCOMPARE(removed, expectRemoved);
        QCOMPARE(added, expectAdded);
        for (const auto &n : d.added)
            QCOMPARE(n.pattern, std::string("rms_norm_cast"));
        // Revision 0 to the end equals the diff of the original and the fused graph.
        GraphDiff all = diffGraphs(*g0.value(), s.graph());
        QCOMPARE(all.nodesAfter, size_t(95));
        QCOMPARE(all.opCounts["npu.npu_rms_norm.default"].second, size_t(2));
        QVERIFY(s.graphAt(4).ok() == false);
    }

    // A seeded random walk of step / undo / redo: lint clean after every action, and every revision reached again
    // prints exactly the canonical dump it had when first reached.
    void randomWalk_data()
    {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<bool>("corpus");
        QTest::addColumn<int>("steps"); // run to the end applies this many steps; the walk gets that deep
        QTest::newRow("llama sample, built-ins") << QString::fromStdString(kLlama) << false << 3;
        QTest::newRow("GPT-2 inference (corpus), LayerNorm + GELU") << QStringLiteral(
            FXSCOPE_CORPUS_DIR "/readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py")
                                                                    << true << 37;
    }
    void randomWalk()
    {
        QFETCH(QString, graph);
        QFETCH(bool, corpus);
        QFETCH(int, steps);
        auto file = loadGraphFile(graph.toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        Session s(std::move(file->graphs.front().graph), corpus ? gpt2Patterns() : builtins());
        std::mt19937 rng(5);
        std::vector<std::string> dumps{printCanonical(s.graph())};
        size_t deepest = 0, checked = 0;
        for (int action = 0; action < 300; ++action) {
            int roll = int(rng() % 6); // step 1/2, undo 1/3, redo 1/6
            bool stepped = false;
            if (roll < 3 || (!s.canUndo() && !s.canRedo())) {
                auto r = s.step();
                QVERIFY2(r, r ? "" : r.error().toString().c_str());
                stepped = r.value();
                if (!stepped)
                    QVERIFY(s.undo()); // fixed point: go back instead
            } else if (roll < 5 ? s.canUndo() : !s.canRedo()) {
                QVERIFY(s.undo());
            } else {
                QVERIFY(s.redo());
            }
            const std::vector<std::string> problems = lint(s.graph());
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
            QVERIFY(s.stoppedReason().empty());
            const std::string dump = printCanonical(s.graph());
            if (stepped) {
                dumps.resize(s.revision());
                dumps.push_back(dump);
            } else {
                QVERIFY(s.revision() < dumps.size());
                QVERIFY2(dumps[s.revision()] == dump,
                    ("revision " + std::to_string(s.revision()) + " differs after action " + std::to_string(action))
                        .c_str());
                ++checked;
            }
            deepest = std::max(deepest, s.revision());
        }
        QCOMPARE(deepest, size_t(steps));
        QVERIFY(checked > 50);
        // The walk's revisions are a prefix of running to the end: the fixed point lints clean too.
        QVERIFY(s.goTo(0));
        QCOMPARE(printCanonical(s.graph()), dumps[0]);
        auto all = s.runToEnd();
        QVERIFY(all);
        QCOMPARE(all.value(), size_t(steps));
        QVERIFY(lint(s.graph()).empty());
    }

    void hundredThousandNodeChain()
    {
        const size_t pairs = 50000;
        Session s(swigluChain(pairs), builtins("swiglu"), SessionOptions{{}, false});
        QCOMPARE(s.graph().size(), 2 * pairs + 2);
        auto rep = s.report();
        QVERIFY(rep);
        QCOMPARE(rep.value()->find("swiglu")->acceptedCount(), pairs);
        const size_t steps = 300;
        std::string beforeLast;
        for (size_t i = 0; i < steps; ++i) {
            if (i + 1 == steps)
                beforeLast = printCanonical(s.graph());
            auto r = s.step();
            QVERIFY(r && r.value());
            // O(step): a SwiGLU step inserts 2 nodes, erases 2, rewires the 2 users, sets 2 metas, whatever the
            // graph's size.
            const EditRecord &e = s.history().back().edits;
            QVERIFY2(e.size() <= 8 && e.nodeCount() <= 8, std::to_string(e.size()).c_str());
        }
        QCOMPARE(s.graph().size(), 2 * pairs + 2);
        QVERIFY(lint(s.graph()).empty());
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), beforeLast);
        QVERIFY(s.redo());
        QVERIFY(lint(s.graph()).empty());
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
