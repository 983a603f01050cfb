// CapabilityBasedPartitioner: the reason every node is outside every partition (unsupported, a merge that would
// close a cycle with its path, the single-node filter, getitems of outside producers), getitems following their
// producer, fusing into fused_<i> submodule calls that lint clean, undo exactly and inline back, and 100k-node graphs.

#include "io/loader.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"
#include "rewrite/partitioner.h"
#include "rewrite/passes/inline_calls.h"
#include "rewrite/passes/pass_library.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace fxs;

namespace {

Argument ref(Node *n)
{
    return Argument::ofNode(n);
}

// x -> a -> u -> c, a -> b -> c: merging a into {b, c} would close a cycle through the unsupported u.
std::unique_ptr<Graph> diamond()
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    Node *a = g->append(OpKind::CallFunction, "a", "aten.relu.default", {ref(x)});
    Node *u = g->append(OpKind::CallFunction, "u", "aten.sort.default", {ref(a)});
    Node *b = g->append(OpKind::CallFunction, "b", "aten.neg.default", {ref(a)});
    Node *c = g->append(OpKind::CallFunction, "c", "aten.add.Tensor", {ref(b), ref(u)});
    g->append(OpKind::Output, "output", "output", {ref(c)});
    return g;
}

OperatorSupport npu()
{
    return OperatorSupport(std::vector<std::string>{"aten.relu", "aten.neg.default", "torch.ops.aten.add.Tensor",
        "aten.mm", "aten.mul", "npu.npu_rms_norm", "aten.rsqrt", "aten.mean", "aten.pow"});
}

std::unique_ptr<Graph> llama()
{
    auto file = loadGraphFile(std::string(FXSCOPE_SOURCE_DIR) + "/resources/samples/llama_block.py");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    return std::move(file->graphs.front().graph);
}

} // namespace

class TestPartitioner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reasons_data()
    {
        QTest::addColumn<bool>("singleAllowed");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reasonStart");
        QTest::newRow("unsupported") << false << "u"
                                     << "unsupported"
                                     << "unsupported: 'aten.sort.default' is not in the operator-support set";
        QTest::newRow("cycle")
            << false << "a"
            << "cycle"
            << "merging with the partition of 'b' would close a cycle: a -> u -> c; its partition {a}";
        QTest::newRow("in partition") << false << "b"
                                      << "in_partition"
                                      << "";
        QTest::newRow("single allowed") << true << "a"
                                        << "in_partition"
                                        << "";
        QTest::newRow("placeholder") << false << "x"
                                     << "not_a_call"
                                     << "placeholder nodes";
    }
    void reasons()
    {
        QFETCH(bool, singleAllowed);
        QFETCH(QString, node);
        QFETCH(QString, kind);
        QFETCH(QString, reasonStart);
        auto g = diamond();
        PartitionerOptions options;
        options.allowsSingleNodePartition = singleAllowed;
        ProposedPartitions p = CapabilityBasedPartitioner(*g, npu(), options).proposePartitions();
        const NodePlacement *pl = p.find(node.toStdString());
        QVERIFY(pl);
        QCOMPARE(QString(placementKindName(pl->kind)), kind);
        QVERIFY2(QString::fromStdString(pl->reason).startsWith(reasonStart), pl->reason.c_str());
        QCOMPARE(p.mergesRefused, size_t(1));
        QCOMPARE(p.partitions.size(), size_t(singleAllowed ? 2 : 1));
        if (kind == "cycle")
            QCOMPARE(pl->cyclePath, (std::vector<std::string>{"a", "u", "c"}));
    }

    void getitemsFollowProducer()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *w = g->append(OpKind::Placeholder, "w", "w");
        Node *norm = g->append(OpKind::CallFunction, "norm", "npu.npu_rms_norm.default", {ref(x), ref(w)});
        Node *g0 = g->append(OpKind::CallFunction, "getitem", "operator.getitem", {ref(norm), Argument::ofInt(0)});
        Node *m = g->append(OpKind::CallFunction, "mul", "aten.mul.Tensor", {ref(g0), ref(w)});
        Node *s = g->append(OpKind::CallFunction, "sort", "aten.sort.default", {ref(m)});
        Node *s0 = g->append(OpKind::CallFunction, "getitem_1", "operator.getitem", {ref(s), Argument::ofInt(0)});
        g->append(OpKind::Output, "output", "output", {ref(s0)});
        OperatorSupport support(std::vector<std::string>{"npu.npu_rms_norm", "aten.mul", "operator.getitem"});
        ProposedPartitions p = CapabilityBasedPartitioner(*g, support).proposePartitions();
        QCOMPARE(p.partitions.size(), size_t(1));
        QCOMPARE(p.partitions[0].size(), size_t(3)); // norm, getitem, mul
        QCOMPARE(p.find("getitem")->kind, NodePlacement::Kind::InPartition);
        QCOMPARE(p.find("getitem_1")->kind, NodePlacement::Kind::GetitemOfOutside);
    }

    void fuseKeepsLintClean_data()
    {
        QTest::addColumn<bool>("singleAllowed");
        QTest::newRow("default") << false;
        QTest::newRow("single-node partitions") << true;
    }
    void fuseKeepsLintClean()
    {
        QFETCH(bool, singleAllowed);
        Session s(llama(), std::make_shared<PatternRegistry>());
        std::string before = printCanonical(s.graph());
        PassContext context;
        context.support = npu();
        context.partitioner.allowsSingleNodePartition = singleAllowed;
        ProposedPartitions proposed
            = CapabilityBasedPartitioner(s.graph(), *context.support, context.partitioner).proposePartitions();
        QVERIFY(proposed.partitions.size() >= 2);
        NamedPass pass = makePass("partition", context).value();
        auto r = s.applyPass(pass.name, pass.fn);
        QVERIFY2(r && r.value(), r ? "" : r.error().message.c_str());
        auto problems = lint(s.graph());
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        QCOMPARE(s.graph().subgraphs().size(), proposed.partitions.size());
        for (size_t i = 0; i < proposed.partitions.size(); ++i) {
            std::string name = "fused_" + std::to_string(i);
            const Node *call = s.graph().find(name);
            QVERIFY2(call, name.c_str());
            QCOMPARE(call->op(), OpKind::CallModule);
            QCOMPARE(call->target(), name);
            QVERIFY(s.graph().subgraph(name));
        }
        std::string fused = printCanonical(s.graph());
        // Inlining the fused calls gives back every original node, and a clean graph.
        auto in = s.applyPass("inline", [](GraphEditor &e) { return inlineCalls(e); });
        QVERIFY(in && in.value());
        QVERIFY(lint(s.graph()).empty());
        QVERIFY(s.graph().subgraphs().empty());
        size_t calls = 0;
        for (const auto &n : s.graph().nodes())
            calls += n->op() == OpKind::CallModule;
        QCOMPARE(calls, size_t(0));
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), fused);
        QVERIFY(s.undo());
        QCOMPARE(printCanonical(s.graph()), before);
        QVERIFY(s.redo());
        QCOMPARE(printCanonical(s.graph()), fused);
    }

    void invalidPartitionIsRefused()
    {
        auto g = diamond();
        GraphEditor e(*g);
        auto r = fusePartitions(e, {{"a", "c"}});
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("Invalid partition, found dependency cycles") != std::string::npos,
            r.error().message.c_str());
    }

    // 100k nodes: a chain where every 10th op is unsupported, and a ladder whose rungs close cycles.
    void largeGraphs_data()
    {
        QTest::addColumn<bool>("ladder");
        QTest::newRow("chain") << false;
        QTest::newRow("ladder") << true;
    }
    void largeGraphs()
    {
        QFETCH(bool, ladder);
        auto g = std::make_unique<Graph>();
        Node *prev = g->append(OpKind::Placeholder, "x", "x");
        const size_t n = 100000;
        for (size_t i = 0; i < n; ++i) {
            bool unsupported = i % 10 == 9;
            std::vector<Argument> args{ref(prev)};
            // Ladder: the op after an unsupported one also reads the op before it (a -> u -> c, a -> c).
            if (ladder && i % 10 == 0 && i > 0)
                args.push_back(ref(g->nodes()[g->size() - 2].get()));
            prev = g->append(OpKind::CallFunction, "n" + std::to_string(i),
                unsupported ? "aten.sort.default" : "aten.add.Tensor", std::move(args));
        }
        g->append(OpKind::Output, "output", "output", {ref(prev)});
        QElapsedTimer timer;
        timer.start();
        ProposedPartitions p = CapabilityBasedPartitioner(*g, npu()).proposePartitions();
        qint64 proposeMs = timer.elapsed();
        QCOMPARE(p.partitions.size(), n / 10);
        timer.restart();
        // Every partition: fusing one costs its own size (Graph's edits are O(1); its node vector is rebuilt once,
        // by the lint below).
        std::vector<std::vector<std::string>> names;
        for (const auto &part : p.partitions) {
            names.emplace_back();
            for (const Node *node : part)
                names.back().push_back(node->name());
        }
        GraphEditor e(*g);
        auto fused = fusePartitions(e, names);
        QVERIFY(fused);
        qint64 fuseMs = timer.elapsed();
        QCOMPARE(fused->size(), p.partitions.size());
        QCOMPARE(g->subgraphs().size(), p.partitions.size());
        QVERIFY(lint(*g).empty());
        // Each partition of 9 ops became one call: 100k ops, 10k calls in place of 90k of them.
        QCOMPARE(g->size(), n + 2 - p.partitions.size() * 8);
        qInfo("%s: propose %lld ms, fuse all of them %lld ms, %zu partitions, %zu merges refused",
            ladder ? "ladder" : "chain", proposeMs, fuseMs, p.partitions.size(), p.mergesRefused);
    }
};

QTEST_GUILESS_MAIN(TestPartitioner)
#include "tst_partitioner.moc"
