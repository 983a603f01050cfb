// The PassManager on a Session: constraint violations and cycles, the fixed point over steps, the error naming the
// failing pass and the passes before it, checks after each pass, undo of a pass step; and the passes: CSE keeps
// impure ops, no-op views go only when meta shows it, detach, replace/insert, scalars to tensors, inlining.

#include "ir/canonical_printer.h"
#include "ir/lint.h"
#include "rewrite/pass_manager.h"
#include "rewrite/passes/cse.h"
#include "rewrite/passes/example_passes.h"
#include "rewrite/passes/inline_calls.h"
#include "rewrite/passes/noop_views.h"
#include "rewrite/passes/pass_library.h"
#include "test_graphs.h"

#include <QtTest>

using namespace fxs;

namespace {

Argument ref(Node *n)
{
    return Argument::ofNode(n);
}

Session session(std::unique_ptr<Graph> g)
{
    return Session(std::move(g), std::make_shared<PatternRegistry>());
}

// x -> relu -> relu (same args twice) -> add; an in-place add_ twice; output.
std::unique_ptr<Graph> duplicates()
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    Node *a = g->append(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default", {ref(x)});
    Node *b = g->append(OpKind::CallFunction, "relu_1", "aten.relu.default", {ref(x)});
    Node *m1 = g->append(OpKind::CallFunction, "add_", "torch.ops.aten.add_.Tensor", {ref(x), ref(a)});
    Node *m2 = g->append(OpKind::CallFunction, "add__1", "torch.ops.aten.add_.Tensor", {ref(x), ref(a)});
    Node *r1 = g->append(OpKind::CallFunction, "rand", "torch.ops.aten.rand_like.default", {ref(x)});
    Node *r2 = g->append(OpKind::CallFunction, "rand_1", "torch.ops.aten.rand_like.default", {ref(x)});
    Node *s = g->append(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor", {ref(a), ref(b)});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({ref(s), ref(m1), ref(m2), ref(r1), ref(r2)})});
    return g;
}

// A pass that changes the graph `times` times (renaming a target back and forth), then reports no change.
SessionPass flipping(int &remaining)
{
    return [&remaining](GraphEditor &e) -> Result<bool> {
        if (remaining <= 0)
            return false;
        --remaining;
        for (const auto &n : e.graph().nodes())
            if (n->op() == OpKind::CallFunction) {
                e.setTarget(n.get(), n->target() == "aten.relu.default" ? "aten.gelu.default" : "aten.relu.default");
                return true;
            }
        return false;
    };
}

SessionPass unchanged()
{
    return [](GraphEditor &) -> Result<bool> { return false; };
}

std::unique_ptr<Graph> chain()
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    Node *r = g->append(OpKind::CallFunction, "relu", "aten.relu.default", {ref(x)});
    g->append(OpKind::Output, "output", "output", {ref(r)});
    return g;
}

} // namespace

class TestPassManager : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void constraints_data()
    {
        QTest::addColumn<QStringList>("order");
        QTest::addColumn<QString>("error");
        QTest::newRow("kept") << QStringList{"a", "b", "c"} << QString();
        QTest::newRow("violated") << QStringList{"b", "a", "c"}
                                  << "pass schedule constraint violated. Expected a before b but found a at index 1 "
                                     "and b at index0 in pass list.";
        QTest::newRow("violated far") << QStringList{"c", "b", "x", "a"}
                                      << "pass schedule constraint violated. Expected a before b but found a at index "
                                         "3 and b at index1 in pass list.";
    }
    void constraints()
    {
        QFETCH(QStringList, order);
        QFETCH(QString, error);
        PassManager pm;
        for (const auto &name : order)
            pm.addPass(name.toStdString(), unchanged());
        pm.addConstraint("a", "b");
        auto s = session(chain());
        auto r = pm.run(s);
        QCOMPARE(r.ok(), error.isEmpty());
        if (!r)
            QCOMPARE(QString::fromStdString(r.error().message), error);
    }

    void solveConstraints()
    {
        PassManager pm;
        for (const char *name : {"c", "b", "a"})
            pm.addPass(name, unchanged());
        pm.addConstraint("a", "b");
        pm.addConstraint("b", "c");
        QVERIFY(pm.solveConstraints());
        QCOMPARE(pm.passes()[0].name, std::string("a"));
        QCOMPARE(pm.passes()[1].name, std::string("b"));
        QCOMPARE(pm.passes()[2].name, std::string("c"));
        pm.addConstraint("c", "a");
        auto st = pm.solveConstraints();
        QVERIFY(!st);
        QCOMPARE(st.error().message,
            std::string("Circular dependency detected within the following passes: ['a', 'b', 'c']"));
    }

    void fixedPoint_data()
    {
        QTest::addColumn<int>("changes");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("iterations");
        QTest::addColumn<int>("revision");
        QTest::newRow("stops at the fixed point") << 2 << 10 << 3 << 2;
        QTest::newRow("steps exhausted") << 5 << 3 << 3 << 3;
        QTest::newRow("nothing to do") << 0 << 4 << 1 << 0;
        QTest::newRow("seeds' default of one step") << 3 << 1 << 1 << 1;
    }
    void fixedPoint()
    {
        QFETCH(int, changes);
        QFETCH(int, steps);
        QFETCH(int, iterations);
        QFETCH(int, revision);
        int remaining = changes;
        PassManagerOptions options;
        options.steps = size_t(steps);
        PassManager pm({{"flip", flipping(remaining)}, {"noop", unchanged()}}, options);
        auto s = session(chain());
        auto r = pm.run(s);
        QVERIFY(r);
        QCOMPARE(int(r->iterations), iterations);
        QCOMPARE(int(s.revision()), revision);
        QCOMPARE(r->modified, revision > 0);
    }

    void failingPassNamesPassesBefore()
    {
        PassManager pm;
        pm.addPass("dce", makePass("dce", {}).value().fn);
        pm.addPass("cse", makePass("cse", {}).value().fn);
        pm.addPass("broken", [](GraphEditor &) -> Result<bool> { return Error{"", 0, 0, "boom"}; });
        auto s = session(chain());
        auto r = pm.run(s);
        QVERIFY(!r);
        QCOMPARE(r.error().message,
            std::string("An error occurred when running the 'broken' pass after the following passes: ['dce', "
                        "'cse']: pass 'broken' failed: boom"));
    }

    void checkAfterEachPass()
    {
        PassManagerOptions options;
        options.runChecksAfterEachPass = true;
        int remaining = 1;
        PassManager pm({{"flip", flipping(remaining)}, {"noop", unchanged()}}, options);
        pm.addCheck("no gelu", [](const Graph &g) -> Status {
            for (const auto &n : g.nodes())
                if (n->target() == "aten.gelu.default")
                    return Error{"", 0, 0, "'" + n->name() + "' is a gelu"};
            return Ok{};
        });
        auto s = session(chain());
        auto r = pm.run(s);
        QVERIFY(!r);
        QCOMPARE(r.error().message,
            std::string("An error occurred when running the 'flip' pass after the following passes: []: check 'no "
                        "gelu' failed: 'relu' is a gelu"));
        // The step stays in the history, to inspect or undo.
        QCOMPARE(s.revision(), size_t(1));
    }

    void undoPassStep()
    {
        auto s = session(duplicates());
        std::string before = printCanonical(s.graph());
        PassManager pm({makePass("cse", {}).value(), makePass("dce", {}).value()});
        auto r = pm.run(s);
        QVERIFY(r && r->modified);
        QCOMPARE(s.history()[0].kind, std::string("pass"));
        QCOMPARE(s.history()[0].name, std::string("cse"));
        std::string after = printCanonical(s.graph());
        while (s.canUndo())
            QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
        while (s.canRedo())
            QVERIFY(s.redo());
        QCOMPARE(printCanonical(s.graph()), after);
    }

    void cseKeepsImpureOps()
    {
        auto g = duplicates();
        GraphEditor e(*g);
        auto r = eliminateCommonSubexpressions(e);
        QVERIFY(r && r.value());
        QVERIFY(!g->find("relu_1")); // pure, same target in another spelling: merged
        QVERIFY(g->find("add_") && g->find("add__1")); // mutating
        QVERIFY(g->find("rand") && g->find("rand_1")); // random
        QCOMPARE(g->find("add")->args()[1].node(), g->find("relu"));
        QVERIFY(lint(*g).empty());
    }

    void noopViews_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("removed");
        QTest::newRow("view same shape") << "f32[2, 3]"
                                         << "f32[2, 3]"
                                         << "torch.ops.aten.view.default" << true;
        QTest::newRow("reshape same shape") << "f32[s0, 3]"
                                            << "f32[s0, 3]"
                                            << "aten.reshape.default" << true;
        QTest::newRow("expand same shape") << "f32[4, 3]"
                                           << "f32[4, 3]"
                                           << "aten.expand.default" << true;
        QTest::newRow("view new shape") << "f32[2, 3]"
                                        << "f32[6]"
                                        << "aten.view.default" << false;
        QTest::newRow("dtype differs") << "f32[2, 3]"
                                       << "f16[2, 3]"
                                       << "aten.view.default" << false;
        QTest::newRow("no meta") << ""
                                 << ""
                                 << "aten.view.default" << false;
        QTest::newRow("not a view") << "f32[2, 3]"
                                    << "f32[2, 3]"
                                    << "aten.relu.default" << false;
    }
    void noopViews()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QFETCH(QString, target);
        QFETCH(bool, removed);
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *v = g->append(OpKind::CallFunction, "v", target.toStdString(), {ref(x), Argument::list({})});
        Node *r = g->append(OpKind::CallFunction, "relu", "aten.relu.default", {ref(v)});
        g->append(OpKind::Output, "output", "output", {ref(r)});
        if (!in.isEmpty()) {
            x->meta().val = test::meta(in.toStdString().c_str());
            v->meta().val = test::meta(out.toStdString().c_str());
        }
        auto s = session(std::move(g));
        auto changed = s.applyPass("remove_noop_views", [](GraphEditor &e) { return removeNoopViews(e); });
        QVERIFY(changed);
        QCOMPARE(changed.value(), removed);
        QCOMPARE(s.graph().find("v") == nullptr, removed);
        QVERIFY(lint(s.graph()).empty());
    }

    void exampleTransforms()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *d = g->append(OpKind::CallFunction, "detach", "torch.ops.aten.detach.default", {ref(x)});
        Node *a = g->append(OpKind::CallFunction, "add", "torch.ops.aten.add.Scalar", {ref(d), Argument::ofFloat(2)});
        Node *m = g->append(OpKind::CallFunction, "mul", "torch.ops.aten.mul.Tensor", {ref(a), ref(a)});
        g->append(OpKind::Output, "output", "output", {ref(m)});
        auto s = session(std::move(g));
        std::string before = printCanonical(s.graph());
        PassManager pm({makePass("remove_detach", {}).value(), makePass("scalars_to_tensors", {}).value(),
            makePass("replace:aten.mul=aten.div.Tensor", {}).value(),
            makePass("insert_after:aten.div.Tensor=aten.relu.default", {}).value()});
        auto r = pm.run(s);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const Graph &out = s.graph();
        QVERIFY(!out.find("detach"));
        QCOMPARE(out.find("add")->target(), std::string("torch.ops.aten.add.Tensor"));
        const Node *st = out.find("add")->args()[1].node();
        QVERIFY(st);
        QCOMPARE(st->target(), std::string("torch.ops.aten.scalar_tensor.default"));
        QCOMPARE(st->meta().val->tensor.dtype, std::string("torch.float32"));
        QCOMPARE(out.find("mul")->target(), std::string("aten.div.Tensor"));
        QCOMPARE(out.outputNode()->args()[0].node()->target(), std::string("aten.relu.default"));
        QCOMPARE(out.outputNode()->args()[0].node()->args()[0].node(), out.find("mul"));
        QVERIFY(lint(out).empty());
        QCOMPARE(s.revision(), size_t(4));
        QVERIFY(s.reset());
        QCOMPARE(printCanonical(s.graph()), before);
    }

    void inlineNestedGraph()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *y = g->append(OpKind::Placeholder, "y", "y");
        Node *call = g->append(OpKind::CallModule, "sub", "sub", {ref(x), ref(y)});
        Node *g0 = g->append(OpKind::CallFunction, "getitem", "operator.getitem", {ref(call), Argument::ofInt(0)});
        Node *g1 = g->append(OpKind::CallFunction, "getitem_1", "operator.getitem", {ref(call), Argument::ofInt(1)});
        Node *add = g->append(OpKind::CallFunction, "add", "aten.add.Tensor", {ref(g0), ref(g1)});
        g->append(OpKind::Output, "output", "output", {ref(add)});
        auto body = std::make_unique<Graph>();
        Node *a = body->append(OpKind::Placeholder, "a", "a");
        Node *b = body->append(OpKind::Placeholder, "b", "b");
        Node *w = body->append(OpKind::GetAttr, "w", "weight");
        Node *mm = body->append(OpKind::CallFunction, "mm", "aten.mm.default", {ref(a), ref(w)});
        Node *add2 = body->append(OpKind::CallFunction, "add", "aten.add.Tensor", {ref(mm), ref(b)});
        body->append(OpKind::Output, "output", "output", {Argument::tuple({ref(add2), ref(mm)})});
        g->addSubgraph("sub", std::move(body));
        QVERIFY(lint(*g).empty());

        auto s = session(std::move(g));
        std::string before = printCanonical(s.graph());
        auto r = s.applyPass("inline", [](GraphEditor &e) { return inlineCalls(e); });
        QVERIFY2(r && r.value(), r ? "" : r.error().message.c_str());
        const Graph &out = s.graph();
        QVERIFY(lint(out).empty());
        QVERIFY(!out.subgraph("sub"));
        QVERIFY(!out.find("sub") && !out.find("getitem"));
        QCOMPARE(out.find("w")->target(), std::string("sub.weight"));
        const Node *sum = out.outputNode()->args()[0].node();
        QCOMPARE(sum->name(), std::string("add"));
        QCOMPARE(sum->args()[0].node()->name(), std::string("add_1")); // the body's add, renamed
        QCOMPARE(sum->args()[1].node()->name(), std::string("mm"));
        QCOMPARE(out.find("add_1")->args()[1].node()->name(), std::string("y"));
        // Provenance: every inlined node names the pass and the call (with its getitems) it replaced.
        for (const char *name : {"add_1", "mm", "w"}) {
            const Json *p = out.find(name)->meta().extra.find(kProvenanceKey);
            QVERIFY2(p, name);
            QCOMPARE((*p)["pass"].toString(), std::string("inline"));
            std::vector<std::string> replaced;
            for (const auto &r : (*p)["replaced"].items())
                replaced.push_back(r.toString());
            std::sort(replaced.begin(), replaced.end());
            QCOMPARE(replaced, (std::vector<std::string>{"getitem", "getitem_1", "sub"}));
        }
        QCOMPARE(s.history().back().provenance["mm"]["pass"].toString(), std::string("inline"));
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
    }

    // Dynamo's wrap higher-order op: torch.ops.higher_order.wrap(self.wrap_body_0, x) runs a nested graph.
    void inlineWrapBody()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *attr = g->append(OpKind::GetAttr, "wrap_body_0", "wrap_body_0");
        Node *wrap = g->append(OpKind::CallFunction, "wrap", "torch.ops.higher_order.wrap", {ref(attr), ref(x)});
        Node *item = g->append(OpKind::CallFunction, "getitem", "operator.getitem", {ref(wrap), Argument::ofInt(0)});
        g->append(OpKind::Output, "output", "output", {Argument::tuple({ref(item)})});
        auto body = std::make_unique<Graph>();
        Node *a = body->append(OpKind::Placeholder, "l_x_", "l_x_");
        Node *sin = body->append(OpKind::CallFunction, "sin", "torch.sin", {ref(a)});
        Node *cos = body->append(OpKind::CallFunction, "cos", "torch.cos", {ref(sin)});
        body->append(OpKind::Output, "output", "output", {Argument::tuple({ref(cos)})});
        g->addSubgraph("wrap_body_0", std::move(body));
        QVERIFY(lint(*g).empty());

        auto s = session(std::move(g));
        const std::string before = printCanonical(s.graph());
        auto r = s.applyPass("inline", [](GraphEditor &e) { return inlineCalls(e); });
        QVERIFY2(r && r.value(), r ? "" : r.error().message.c_str());
        const Graph &out = s.graph();
        QVERIFY(lint(out).empty());
        QVERIFY(!out.find("wrap") && !out.find("getitem") && !out.find("wrap_body_0"));
        QVERIFY(!out.subgraph("wrap_body_0"));
        const Node *result = out.outputNode()->args()[0].items()[0].node();
        QCOMPARE(result->target(), std::string("torch.cos"));
        QCOMPARE(result->args()[0].node()->target(), std::string("torch.sin"));
        QCOMPARE(result->args()[0].node()->args()[0].node()->name(), std::string("x"));
        QCOMPARE(out.size(), size_t(4));
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
    }

    // A call_function of an fx.wrap'ed composite: inlined when the library knows its graph, kept otherwise.
    void inlineLibraryComposite()
    {
        auto make = [] {
            auto g = std::make_unique<Graph>();
            Node *x = g->append(OpKind::Placeholder, "x", "x");
            Node *call = g->append(OpKind::CallFunction, "my_gelu", "__main__.my_gelu", {ref(x)});
            Node *add = g->append(OpKind::CallFunction, "add", "aten.add.Tensor", {ref(call), ref(x)});
            g->append(OpKind::Output, "output", "output", {ref(add)});
            return g;
        };
        auto body = std::make_shared<Graph>();
        Node *in = body->append(OpKind::Placeholder, "t", "t");
        Node *half = body->append(OpKind::CallFunction, "mul", "aten.mul.Tensor", {ref(in), Argument::ofFloat(0.5)});
        Node *erf = body->append(OpKind::CallFunction, "erf", "aten.erf.default", {ref(in)});
        Node *prod = body->append(OpKind::CallFunction, "mul_1", "aten.mul.Tensor", {ref(half), ref(erf)});
        body->append(OpKind::Output, "output", "output", {ref(prod)});
        const CompositeLibrary library{{"my_gelu", body}};

        auto unknown = session(make());
        auto none = unknown.applyPass("inline", [](GraphEditor &e) { return inlineCalls(e); });
        QVERIFY(none && !none.value());
        QVERIFY(unknown.graph().find("my_gelu"));

        auto s = session(make());
        auto r = s.applyPass("inline", [&](GraphEditor &e) { return inlineCalls(e, {}, &library); });
        QVERIFY2(r && r.value(), r ? "" : r.error().message.c_str());
        const Graph &out = s.graph();
        QVERIFY(lint(out).empty());
        QVERIFY(!out.find("my_gelu"));
        const Node *add = out.find("add");
        QCOMPARE(add->args()[0].node()->target(), std::string("aten.mul.Tensor"));
        QCOMPARE(add->args()[0].node()->args()[1].node()->target(), std::string("aten.erf.default"));
        QCOMPARE(add->args()[0].node()->meta().extra[kProvenanceKey]["replaced"].items()[0].toString(),
            std::string("my_gelu"));
        QCOMPARE(out.size(), size_t(6));
    }

    // Two calls inlined by one pass step: each inlined node names only its own call.
    void inlineProvenanceKeepsCallsApart()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *c1 = g->append(OpKind::CallModule, "call_a", "a", {ref(x)});
        Node *c2 = g->append(OpKind::CallModule, "call_b", "b", {ref(c1)});
        g->append(OpKind::Output, "output", "output", {ref(c2)});
        for (const char *name : {"a", "b"}) {
            auto body = std::make_unique<Graph>();
            Node *in = body->append(OpKind::Placeholder, "t", "t");
            Node *r = body->append(OpKind::CallFunction, std::string("relu_") + name, "aten.relu.default", {ref(in)});
            body->append(OpKind::Output, "output", "output", {ref(r)});
            g->addSubgraph(name, std::move(body));
        }
        auto s = session(std::move(g));
        auto r = s.applyPass("inline", [](GraphEditor &e) { return inlineCalls(e); });
        QVERIFY2(r && r.value(), r ? "" : r.error().message.c_str());
        auto replaced = [&](const char *node) {
            std::vector<std::string> out;
            for (const auto &item : s.graph().find(node)->meta().extra[kProvenanceKey]["replaced"].items())
                out.push_back(item.toString());
            return out;
        };
        QCOMPARE(replaced("relu_a"), std::vector<std::string>{"call_a"});
        QCOMPARE(replaced("relu_b"), std::vector<std::string>{"call_b"});
    }
};

QTEST_GUILESS_MAIN(TestPassManager)
#include "tst_pass_manager.moc"
