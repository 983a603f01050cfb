// The Qt-free layout engine: Graphviz layouts copied into plain structs, grouping rules, composing
// expanded groups, cancellation, and the group-level layout of the 23k-node HRNet joint graph.

#include "flat_layout.h"
#include "node_grouping.h"
#include "node_label.h"
#include "scene_layout.h"
#include "scene_node_index.h"

#include "io/loader.h"
#include "ir/graph.h"
#include "ir/graph_file.h"
#include "util/progress.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <set>

#include <csignal>
#include <sys/wait.h>

using namespace fxs;

namespace {

// A diamond with a tail: x -> a, b -> c -> output.
std::unique_ptr<Graph> smallGraph()
{
    auto g = std::make_unique<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    Node *a = g->append(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default", {Argument::ofNode(x)});
    Node *b = g->append(OpKind::CallFunction, "sigmoid", "torch.ops.aten.sigmoid.default", {Argument::ofNode(x)});
    Node *c = g->append(
        OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor", {Argument::ofNode(a), Argument::ofNode(b)});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(c)})});
    return g;
}

// A chain of `count` ops after one input; `decorate(node, i)` sets meta per op.
template <typename Decorate>
std::unique_ptr<Graph> chain(size_t count, Decorate decorate)
{
    auto g = std::make_unique<Graph>();
    Node *previous = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < count; ++i) {
        Node *weight = nullptr;
        if (i % 10 == 0)
            weight = g->append(OpKind::Placeholder, "w" + std::to_string(i), "w");
        std::vector<Argument> args{Argument::ofNode(previous)};
        if (weight)
            args.push_back(Argument::ofNode(weight));
        previous = g->append(OpKind::CallFunction, "op" + std::to_string(i), "torch.ops.aten.mul.Tensor", args);
        decorate(*previous, i);
    }
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(previous)})});
    return g;
}

void checkScene(const SceneLayout &scene)
{
    for (const SceneItem &item : scene.items) {
        QVERIFY(item.rect.width > 0 && item.rect.height > 0);
        QVERIFY2(scene.bounds.contains(item.rect, 1.0), "an item lies outside the bounding box");
        if (item.frame >= 0)
            QVERIFY(scene.items[size_t(item.frame)].rect.contains(item.rect, SceneMetrics::kPortSize));
    }
    for (const SceneEdge &edge : scene.edges) {
        QVERIFY(edge.path.points.size() >= 2);
        QCOMPARE((edge.path.points.size() - 1) % 3, size_t(0));
        for (const LayoutPoint &p : edge.path.points)
            QVERIFY2(scene.bounds.contains(p, 1.0), "an edge point lies outside the bounding box");
        QVERIFY(edge.path.from >= 0 && size_t(edge.path.from) < scene.items.size());
        QVERIFY(edge.path.to >= 0 && size_t(edge.path.to) < scene.items.size());
    }
}

} // namespace

// A chain with side branches: big enough to be laid out in a child process.
FlatLayoutInput isolatedInput()
{
    FlatLayoutInput input;
    for (int i = 0; i < 40; ++i)
        input.items.push_back({60.0 + i % 3 * 10, 24});
    for (int i = 1; i < 40; ++i)
        input.edges.push_back({i - 1, i, 1});
    for (int i = 3; i < 40; i += 4)
        input.edges.push_back({i - 3, i, 1});
    return input;
}

class TestLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The child process answers exactly what the same layout gives in this process.
    void isolatedLayoutEqualsInProcess()
    {
        const FlatLayoutInput input = isolatedInput();
        QVERIFY(input.items.size() >= kIsolateFromItems);
        auto isolated = layoutFlat(input);
        QVERIFY2(isolated.ok(), isolated.ok() ? "" : isolated.error().toString().c_str());
        qputenv("FXSCOPE_LAYOUT_IN_PROCESS", "1");
        auto local = layoutFlat(input);
        qunsetenv("FXSCOPE_LAYOUT_IN_PROCESS");
        QVERIFY(local.ok());
        QCOMPARE(isolated->items.size(), local->items.size());
        for (size_t i = 0; i < local->items.size(); ++i) {
            QCOMPARE(isolated->items[i].x, local->items[i].x);
            QCOMPARE(isolated->items[i].y, local->items[i].y);
            QCOMPARE(isolated->items[i].width, local->items[i].width);
        }
        QCOMPARE(isolated->edges.size(), local->edges.size());
        for (size_t i = 0; i < local->edges.size(); ++i) {
            QCOMPARE(isolated->edges[i].points.size(), local->edges[i].points.size());
            QCOMPARE(isolated->edges[i].hasArrow, local->edges[i].hasArrow);
        }
        QCOMPARE(isolated->bounds.width, local->bounds.width);
        QCOMPARE(isolated->bounds.height, local->bounds.height);
    }

    // A crash inside the layout (simulated in the child) is an error for that layout; this process goes on.
    void crashInLayoutIsAnError()
    {
        qputenv("FXSCOPE_TEST_CRASH_LAYOUT", "1");
        auto crashed = layoutFlat(isolatedInput());
        qunsetenv("FXSCOPE_TEST_CRASH_LAYOUT");
        QVERIFY(!crashed.ok());
        QVERIFY2(
            crashed.error().message.find("Graphviz crashed") != std::string::npos, crashed.error().toString().c_str());
        QVERIFY(crashed.error().message.find("40 boxes") != std::string::npos);
        // And the next layout works.
        QVERIFY(layoutFlat(isolatedInput()).ok());
    }

    // One server answers layout after layout (no fork per layout); killed from outside, it is forked again and
    // the next layout still works.
    void layoutServerIsReusedAndRestarted()
    {
        QVERIFY(layoutFlat(isolatedInput()).ok());
        const int first = layoutServerProcess();
        QVERIFY(first > 0);
        QVERIFY(layoutFlat(isolatedInput()).ok());
        QCOMPARE(layoutServerProcess(), first);
        QCOMPARE(::kill(first, SIGKILL), 0);
        siginfo_t info{};
        QCOMPARE(waitid(P_PID, id_t(first), &info, WEXITED | WNOWAIT), 0); // dead, not yet reaped
        auto again = layoutFlat(isolatedInput());
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
        QVERIFY(layoutServerProcess() > 0);
        QVERIFY(layoutServerProcess() != first);
    }

    void flatLayoutOfSmallGraph()
    {
        auto graph = smallGraph();
        const Grouping grouping = groupNodes(*graph);
        QVERIFY(grouping.groups.empty()); // too small to group
        InteriorCache cache;
        auto scene = layoutScene(*graph, grouping, {}, cache);
        QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().toString().c_str());
        QCOMPARE(scene->items.size(), size_t(5));
        QCOMPARE(scene->edges.size(), size_t(5));
        std::set<std::pair<long, long>> positions;
        for (const SceneItem &item : scene->items) {
            QCOMPARE(item.kind, SceneItemKind::Node);
            positions.insert({std::lround(item.rect.x), std::lround(item.rect.y)});
        }
        QCOMPARE(positions.size(), size_t(5));
        checkScene(scene.value());
        // Top to bottom: the input above its users, the output last.
        const auto &items = scene->items;
        QVERIFY(items[size_t(scene->nodeItem[0])].rect.y < items[size_t(scene->nodeItem[1])].rect.y);
        QVERIFY(items[size_t(scene->nodeItem[3])].rect.y < items[size_t(scene->nodeItem[4])].rect.y);
        for (const SceneEdge &edge : scene->edges)
            QVERIFY(edge.path.hasArrow);
    }

    void flatLayoutRejectsBadEdges()
    {
        FlatLayoutInput input;
        input.items = {{50, 20}, {50, 20}};
        input.edges = {{0, 5, 1}};
        QVERIFY(!layoutFlat(input).ok());
        input.edges = {{0, 1, 1}};
        auto layout = layoutFlat(input);
        QVERIFY(layout.ok());
        QCOMPARE(layout->items.size(), size_t(2));
        QVERIFY(layout->bounds.contains(layout->items[0]) && layout->bounds.contains(layout->items[1]));
    }

    void labels_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("expected");
        QTest::newRow("aten") << "torch.ops.aten.mm.default"
                              << "aten.mm";
        QTest::newRow("overload") << "torch.ops.aten.add.Tensor"
                                  << "aten.add";
        QTest::newRow("schema") << "aten::add.Tensor"
                                << "aten.add";
        QTest::newRow("prims") << "torch.ops.prims.convert_element_type.default"
                               << "prims.convert_element_type";
        QTest::newRow("npu") << "torch.ops.npu.npu_rms_norm.default"
                             << "npu.npu_rms_norm";
        QTest::newRow("operator") << "operator.getitem"
                                  << "operator.getitem";
        QTest::newRow("hop") << "torch.ops.higher_order.flex_attention"
                             << "higher_order.flex_attention";
    }
    void labels()
    {
        QFETCH(QString, target);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(shortTarget(target.toStdString())), expected);
    }

    void categories()
    {
        auto g = std::make_unique<Graph>();
        Node *x = g->append(OpKind::Placeholder, "x", "x");
        Node *a = g->append(OpKind::CallFunction, "a", "torch.ops.aten.relu.default", {Argument::ofNode(x)});
        Node *p = g->append(
            OpKind::CallFunction, "p", "torch.ops.prims.convert_element_type.default", {Argument::ofNode(a)});
        Node *n = g->append(OpKind::CallFunction, "n", "torch.ops.npu.npu_rms_norm.default", {Argument::ofNode(p)});
        Node *o = g->append(OpKind::CallFunction, "o", "operator.getitem", {Argument::ofNode(n), Argument::ofInt(0)});
        TensorMeta t;
        t.dtype = "torch.float16";
        t.shape = {SymInt::parse("1"), SymInt::parse("s0")};
        o->meta().val = ValueMeta::ofTensor(t);
        QCOMPARE(nodeCategory(*x), NodeCategory::Placeholder);
        QCOMPARE(nodeCategory(*a), NodeCategory::Aten);
        QCOMPARE(nodeCategory(*p), NodeCategory::Prims);
        QCOMPARE(nodeCategory(*n), NodeCategory::Npu);
        QCOMPARE(nodeCategory(*o), NodeCategory::Operator);
        QCOMPARE(nodeLabel(*o).shape, std::string("f16[1, s0]"));
        const NodeBoxSize withShape = nodeBoxSize(nodeLabel(*o));
        const NodeBoxSize without = nodeBoxSize(nodeLabel(*a));
        QVERIFY(withShape.height > without.height);
    }

    void groupingByModuleStack()
    {
        // Three modules of 20 ops each, every op two levels deep (model.blockN.linear): the level
        // chosen is the one with useful group sizes, the blocks.
        auto graph = chain(60, [](Node &node, size_t i) {
            const std::string block = "blocks." + std::to_string(i / 20);
            node.meta().nnModuleStack = {{"L__self___blocks", block, "my.Block"},
                {"L__self___lin", block + ".lin" + std::to_string(i % 2), "torch.nn.Linear"}};
        });
        const Grouping grouping = groupNodes(*graph);
        QCOMPARE(grouping.rule, GroupingRule::ModuleStack);
        QCOMPARE(grouping.groups.size(), size_t(3));
        QCOMPARE(QString::fromStdString(grouping.groups[0].label), QStringLiteral("blocks.0"));
        QCOMPARE(QString::fromStdString(grouping.groups[0].detail), QStringLiteral("Block"));
        QCOMPARE(QString::fromStdString(grouping.groups[2].label), QStringLiteral("blocks.2"));
        // Weights joined the group of the op reading them; x joined the first block; output alone.
        QCOMPARE(grouping.groupOf[graph->find("w20")->index()], 1);
        QCOMPARE(grouping.groupOf[graph->find("x")->index()], 0);
        QCOMPARE(grouping.groupOf[graph->outputNode()->index()], -1);
        QCOMPARE(grouping.groups[1].nodes.size(), size_t(22)); // 20 ops + 2 weights
    }

    void groupingBySource()
    {
        auto graph = chain(50, [](Node &node, size_t i) {
            node.meta().source = SourceLocation{"/src/model.py", int(i), i < 30 ? "attention" : "mlp", ""};
        });
        const Grouping grouping = groupNodes(*graph);
        QCOMPARE(grouping.rule, GroupingRule::Source);
        QCOMPARE(grouping.groups.size(), size_t(2));
        QCOMPARE(QString::fromStdString(grouping.groups[0].label), QStringLiteral("model.py:attention"));
        QCOMPARE(QString::fromStdString(grouping.groups[1].label), QStringLiteral("model.py:mlp"));
        QCOMPARE(grouping.groupOf[graph->find("op29")->index()], 0);
        QCOMPARE(grouping.groupOf[graph->find("op30")->index()], 1);
    }

    void groupingShortRunsMerge()
    {
        // Alternating two-node runs merge into groups instead of becoming 2-node boxes.
        auto graph = chain(60, [](Node &node, size_t i) {
            node.meta().source = SourceLocation{"/src/m.py", int(i), (i / 2) % 2 ? "f" : "g", ""};
        });
        const Grouping grouping = groupNodes(*graph);
        QVERIFY(!grouping.groups.empty());
        for (const NodeGroup &group : grouping.groups)
            QVERIFY(group.nodes.size() >= 6);
    }

    void groupingByChunks_data()
    {
        QTest::addColumn<int>("ops");
        QTest::addColumn<int>("maxGroup");
        QTest::newRow("1000 by 150") << 1000 << 150;
        QTest::newRow("301 by 150") << 301 << 150;
        QTest::newRow("5000 by 100") << 5000 << 100;
    }
    void groupingByChunks()
    {
        QFETCH(int, ops);
        QFETCH(int, maxGroup);
        auto graph = chain(size_t(ops), [](Node &, size_t) {});
        GroupingOptions options;
        options.maxGroupSize = size_t(maxGroup);
        const Grouping grouping = groupNodes(*graph, options);
        QCOMPARE(grouping.rule, GroupingRule::Chunks);
        size_t grouped = 0;
        for (size_t g = 0; g < grouping.groups.size(); ++g) {
            QVERIFY(grouping.groups[g].nodes.size() <= size_t(maxGroup));
            QVERIFY(grouping.groups[g].nodes.size() >= 2);
            for (size_t node : grouping.groups[g].nodes)
                QCOMPARE(grouping.groupOf[node], int(g));
            grouped += grouping.groups[g].nodes.size();
        }
        QVERIFY(grouping.groups.size() >= size_t((ops + maxGroup - 1) / maxGroup));
        // Every op is in a group; only the output stays on its own.
        QCOMPARE(grouped, graph->size() - 1);
        QVERIFY(QString::fromStdString(grouping.groups[0].label).startsWith(QString::fromUtf8("op0 … op")));
    }

    void expandCollapseChangesItems()
    {
        auto graph = chain(400, [](Node &, size_t) {});
        const Grouping grouping = groupNodes(*graph);
        QVERIFY(grouping.groups.size() >= 3);
        InteriorCache cache;
        std::vector<bool> expanded(grouping.groups.size(), false);
        auto collapsed = layoutScene(*graph, grouping, expanded, cache);
        QVERIFY(collapsed.ok());
        QCOMPARE(collapsed->items.size(), grouping.groups.size() + 1);
        QVERIFY(cache.empty());
        checkScene(collapsed.value());

        expanded[1] = true;
        auto open = layoutScene(*graph, grouping, expanded, cache);
        QVERIFY(open.ok());
        QCOMPARE(cache.size(), size_t(1));
        const size_t ports = cache.at(1)->portUnit.size();
        QCOMPARE(ports, size_t(2)); // from group 0, to group 2
        QCOMPARE(open->items.size(), collapsed->items.size() + grouping.groups[1].nodes.size() + ports);
        QCOMPARE(open->items[size_t(open->groupItem[1])].kind, SceneItemKind::GroupFrame);
        QVERIFY(open->nodeItem[grouping.groups[1].nodes.front()] >= 0);
        QCOMPARE(open->nodeItem[grouping.groups[0].nodes.front()], -1);
        checkScene(open.value());
        // The group-level edges now end on the frame's ports.
        int portEdges = 0;
        for (const SceneEdge &e : open->edges)
            portEdges += open->items[size_t(e.path.to)].kind == SceneItemKind::Port;
        QVERIFY(portEdges >= 2);

        expanded[1] = false;
        auto closed = layoutScene(*graph, grouping, expanded, cache);
        QVERIFY(closed.ok());
        QCOMPARE(closed->items.size(), collapsed->items.size());
    }

    void cancellationStopsLayout()
    {
        auto graph = chain(400, [](Node &, size_t) {});
        const Grouping grouping = groupNodes(*graph);
        InteriorCache cache;
        std::vector<bool> expanded(grouping.groups.size(), true);
        int calls = 0;
        ProgressScope scope([&calls](double) { return ++calls < 2; }); // cancel after the first step
        auto scene = layoutScene(*graph, grouping, expanded, cache);
        QVERIFY(!scene.ok());
        QVERIFY(isCanceled(scene.error()));
        QVERIFY(cache.size() < grouping.groups.size());
    }

    void hrnetGroupLevel()
    {
        const std::string path = std::string(FXSCOPE_CORPUS_DIR)
            + "/readable/learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py";
        auto file = loadGraphFile(path);
        if (!file.ok())
            QSKIP("the HRNet corpus graph is not available");
        const Graph &graph = *file->graphs.front().graph;
        QVERIFY(graph.size() > 20000);
        QElapsedTimer timer;
        timer.start();
        const Grouping grouping = groupNodes(graph);
        const qint64 groupMs = timer.elapsed();
        size_t loose = 0, largest = 0;
        for (int g : grouping.groupOf)
            loose += g < 0;
        for (const NodeGroup &group : grouping.groups)
            largest = std::max(largest, group.nodes.size());
        QVERIFY(largest <= 150);
        qInfo("HRNet: %zu nodes, %zu groups (largest %zu), %zu single nodes; grouping %lld ms", graph.size(),
            grouping.groups.size(), largest, loose, groupMs);
        InteriorCache cache;
        auto scene = layoutScene(graph, grouping, std::vector<bool>(grouping.groups.size(), false), cache);
        QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().toString().c_str());
        QCOMPARE(scene->items.size(), grouping.groups.size() + loose);
        checkScene(scene.value());
        qInfo("HRNet: grouping and group-level layout %lld ms", timer.elapsed());

        // Expanding one group lays out that group only.
        timer.restart();
        std::vector<bool> expanded(grouping.groups.size(), false);
        expanded[grouping.groups.size() / 2] = true;
        auto open = layoutScene(graph, grouping, expanded, cache);
        QVERIFY(open.ok());
        QCOMPARE(cache.size(), size_t(1));
        checkScene(open.value());
        qInfo("HRNet: expanding one group: %lld ms", timer.elapsed());
    }

    // Pinned boxes stay where they are and the edges are routed around the boxes between their ends: a → c passes
    // b, which sits on the straight line between them. Same answer in this process and in the layout server.
    void pinnedBoxesGetRoutedEdges()
    {
        FlatLayoutInput input;
        input.pinnedCentres = {{100, 20}, {100, 120}, {100, 220}};
        for (int i = 0; i < 3; ++i)
            input.items.push_back({80, 30});
        // Enough boxes to go to the layout server.
        for (int i = 0; i < int(kIsolateFromItems); ++i) {
            input.items.push_back({20, 20});
            input.pinnedCentres.push_back({400 + 40.0 * i, 300});
        }
        input.edges = {{0, 2, 1}, {0, 1, 1}};
        for (const bool inProcess : {false, true}) {
            if (inProcess)
                qputenv("FXSCOPE_LAYOUT_IN_PROCESS", "1");
            auto routed = layoutFlat(input);
            qunsetenv("FXSCOPE_LAYOUT_IN_PROCESS");
            QVERIFY2(routed.ok(), routed.ok() ? "" : routed.error().toString().c_str());
            for (size_t i = 0; i < input.items.size(); ++i) {
                QCOMPARE(routed->items[i].center().x, input.pinnedCentres[i].x);
                QCOMPARE(routed->items[i].center().y, input.pinnedCentres[i].y);
            }
            const LayoutEdge &around = routed->edges[0];
            QVERIFY(around.points.size() >= 4);
            QCOMPARE((around.points.size() - 1) % 3, size_t(0));
            // Starts at a, ends at c (its arrow's tip on c's box), and bends past b: no control point inside b.
            QVERIFY(routed->items[0].contains(around.points.front(), 2));
            QVERIFY(routed->items[2].contains(around.hasArrow ? around.arrowTip : around.points.back(), 2));
            const LayoutRect &b = routed->items[1];
            double farthest = 0;
            for (const LayoutPoint &p : around.points) {
                QVERIFY2(!b.contains(p, -1), qPrintable(QStringLiteral("%1,%2").arg(p.x).arg(p.y)));
                farthest = std::max(farthest, std::abs(p.x - 100));
            }
            QVERIFY(farthest > 40); // it went round b, half of whose width is 40
            for (size_t k = 0; k + 3 < around.points.size(); k += 3)
                for (double t = 0.05; t < 1; t += 0.05) {
                    const LayoutPoint *q = &around.points[k];
                    const double u = 1 - t;
                    const LayoutPoint p{
                        u * u * u * q[0].x + 3 * u * u * t * q[1].x + 3 * u * t * t * q[2].x + t * t * t * q[3].x,
                        u * u * u * q[0].y + 3 * u * u * t * q[1].y + 3 * u * t * t * q[2].y + t * t * t * q[3].y};
                    QVERIFY2(!b.contains(p, -1), qPrintable(QStringLiteral("%1,%2").arg(p.x).arg(p.y)));
                }
        }
    }

    // The overview's hit test: the grid answers what a scan of every box answers, on and between boxes, across
    // frames and outside the scene.
    void nodeIndexAgreesWithAScan()
    {
        auto graph = chain(400, [](Node &, size_t) {});
        const Grouping grouping = groupNodes(*graph);
        InteriorCache cache;
        auto scene = layoutScene(*graph, grouping, std::vector<bool>(grouping.groups.size(), true), cache);
        QVERIFY(scene.ok());
        const SceneNodeIndex index(scene.value());
        QCOMPARE(index.size(), graph->size());
        const auto scan = [&](LayoutPoint p) {
            for (size_t i = 0; i < scene->items.size(); ++i)
                if (scene->items[i].kind == SceneItemKind::Node && scene->items[i].rect.contains(p, 0))
                    return int(i);
            return -1;
        };
        size_t hits = 0, misses = 0;
        const LayoutRect &b = scene->bounds;
        for (double y = b.y - 50; y <= b.bottom() + 50; y += 7.3)
            for (double x = b.x - 50; x <= b.right() + 50; x += 11.1) {
                const int expected = scan({x, y});
                QCOMPARE(index.nodeItemAt({x, y}), expected);
                (expected >= 0 ? hits : misses) += 1;
            }
        QVERIFY(hits > 1000 && misses > 1000);
        // Every box's centre and corners find it.
        for (size_t n = 0; n < graph->size(); ++n) {
            const LayoutRect &r = scene->items[size_t(scene->nodeItem[n])].rect;
            QCOMPARE(index.nodeItemAt(r.center()), scene->nodeItem[n]);
            QCOMPARE(index.nodeItemAt({r.x, r.y}), scan({r.x, r.y}));
            QCOMPARE(index.nodeItemAt({r.right(), r.bottom()}), scan({r.right(), r.bottom()}));
        }
        QCOMPARE(index.nodeItemAt({std::nan(""), 0}), -1);
        QCOMPARE(SceneNodeIndex().nodeItemAt({0, 0}), -1);
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
