// After a fusion step the canvas lays the new revision out again and puts it back where the previous one was
// (keepPreviousPositions): unchanged nodes keep their place in their frame, the step's new nodes land in free space
// (no box overlaps another), and the edges whose ends changed are routed by Graphviz around the boxes. Checked on
// every step of the bundled sample and on GPT-2 (corpus) with all built-in patterns applied.

#include "flat_layout.h"
#include "node_grouping.h"
#include "scene_layout.h"
#include "stable_positions.h"

#include "io/loader.h"
#include "ir/graph.h"
#include "ir/graph_file.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/session.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <map>

using namespace fxs;

namespace {

const std::string kLlama = std::string(FXSCOPE_SOURCE_DIR) + "/resources/samples/llama_block.py";
const std::string kGpt2
    = std::string(FXSCOPE_CORPUS_DIR) + "/readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py";

struct Laid {
    Grouping grouping;
    SceneLayout scene;
};

// Every group expanded, as the canvas shows a graph of this size.
Laid layOut(const Graph &graph)
{
    Laid out{groupNodes(graph), {}};
    InteriorCache cache;
    auto scene = layoutScene(graph, out.grouping, std::vector<bool>(out.grouping.groups.size(), true), cache);
    if (!scene.ok())
        qFatal("%s", scene.error().toString().c_str());
    out.scene = std::move(scene).value();
    return out;
}

// The point of a cubic Bézier segment at t.
LayoutPoint bezier(const LayoutPoint *p, double t)
{
    const double u = 1 - t;
    return {u * u * u * p[0].x + 3 * u * u * t * p[1].x + 3 * u * t * t * p[2].x + t * t * t * p[3].x,
        u * u * u * p[0].y + 3 * u * u * t * p[1].y + 3 * u * t * t * p[2].y + t * t * t * p[3].y};
}

// Whether the drawn edge passes through a node box of its frame other than its two ends (2 points inside allowed
// for the clipping at the ends).
bool crossesABox(const SceneLayout &scene, const SceneEdge &edge)
{
    const int frame = scene.items[size_t(edge.path.to)].frame;
    for (size_t i = 0; i < scene.items.size(); ++i) {
        const SceneItem &item = scene.items[i];
        if (item.kind != SceneItemKind::Node || item.frame != frame || int(i) == edge.path.from
            || int(i) == edge.path.to)
            continue;
        LayoutRect inner{item.rect.x + 2, item.rect.y + 2, item.rect.width - 4, item.rect.height - 4};
        for (size_t s = 0; s + 3 < edge.path.points.size(); s += 3)
            for (int k = 1; k < 16; ++k)
                if (inner.contains(bezier(&edge.path.points[s], k / 16.0), 0))
                    return true;
    }
    return false;
}

struct StepCheck {
    size_t overlaps = 0;
    size_t scratchOverlaps = 0;
    size_t changedEdges = 0; // edges with an end that is not an unchanged node
    size_t crossingChangedEdges = 0;
    double keptSpread = 0; // the largest difference between the moves of two unchanged nodes of one frame
    StablePositionsStats stats;
    double milliseconds = 0; // keepPreviousPositions alone (routing included)
};

StepCheck checkStep(const Graph &before, const Graph &after)
{
    StepCheck check;
    const Laid previous = layOut(before);
    Laid next = layOut(after);
    check.scratchOverlaps = countOverlappingBoxes(next.scene);
    QElapsedTimer timer;
    timer.start();
    check.stats = keepPreviousPositions(next.scene, after, next.grouping, previous.scene, before, previous.grouping);
    check.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    check.overlaps = countOverlappingBoxes(next.scene);
    // Unchanged nodes (same name, same inputs): in each frame, those that came from the group most of them came from
    // move together with the frame.
    std::map<std::string, LayoutPoint> was;
    for (size_t n = 0; n < previous.scene.nodeItem.size(); ++n)
        was[before.nodes()[n]->name()] = previous.scene.items[size_t(previous.scene.nodeItem[n])].rect.center();
    std::vector<bool> unchanged(after.size(), false);
    std::map<int, std::map<int, std::vector<size_t>>> byFrame; // next frame -> previous group -> unchanged nodes
    for (size_t n = 0; n < after.size(); ++n) {
        const Node &node = *after.nodes()[n];
        const Node *old = before.find(node.name());
        if (!old || old->inputNodes().size() != node.inputNodes().size())
            continue;
        bool same = true;
        for (size_t i = 0; i < node.inputNodes().size(); ++i)
            same = same && node.inputNodes()[i]->name() == old->inputNodes()[i]->name();
        const int oldGroup = previous.grouping.groupOf[old->index()];
        if (!same || next.grouping.groupOf[n] < 0 || oldGroup < 0)
            continue;
        unchanged[n] = true;
        byFrame[next.scene.items[size_t(next.scene.nodeItem[n])].frame][oldGroup].push_back(n);
    }
    for (const auto &[frame, groups] : byFrame) {
        const std::vector<size_t> *most = nullptr;
        for (const auto &[group, nodes] : groups)
            if (!most || nodes.size() > most->size())
                most = &nodes;
        const auto moveOf = [&](size_t n) {
            const LayoutPoint c = next.scene.items[size_t(next.scene.nodeItem[n])].rect.center();
            const LayoutPoint p = was.at(after.nodes()[n]->name());
            return LayoutPoint{c.x - p.x, c.y - p.y};
        };
        const LayoutPoint first = moveOf(most->front());
        for (size_t n : *most) {
            const LayoutPoint m = moveOf(n);
            check.keptSpread = std::max(check.keptSpread, std::hypot(m.x - first.x, m.y - first.y));
        }
    }
    for (const SceneEdge &edge : next.scene.edges) {
        const SceneItem &from = next.scene.items[size_t(edge.path.from)];
        const SceneItem &to = next.scene.items[size_t(edge.path.to)];
        if (from.kind != SceneItemKind::Node || to.kind != SceneItemKind::Node || from.frame != to.frame
            || (unchanged[from.index] && unchanged[to.index]))
            continue;
        ++check.changedEdges;
        check.crossingChangedEdges += crossesABox(next.scene, edge);
    }
    return check;
}

std::shared_ptr<PatternRegistry> builtins()
{
    auto registry = std::make_shared<PatternRegistry>();
    if (auto st = registerBuiltinPatterns(*registry); !st)
        qFatal("%s", st.error().toString().c_str());
    return registry;
}

} // namespace

class TestStablePositions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each step of the session on `graph` with the built-in patterns (`steps` of them checked one by one, then the
    // first revision against the last as one big change).
    void stepsLandWithoutOverlaps_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("steps");
        QTest::newRow("llama sample") << QString::fromStdString(kLlama) << 3;
        QTest::newRow("GPT-2 post-grad (corpus)") << QString::fromStdString(kGpt2) << 3;
    }
    void stepsLandWithoutOverlaps()
    {
        QFETCH(QString, path);
        QFETCH(int, steps);
        auto file = loadGraphFile(path.toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        Session session(std::move(file->graphs.front().graph), builtins());
        std::vector<std::unique_ptr<Graph>> revisions;
        revisions.push_back(session.graph().clone());
        auto applied = session.runToEnd();
        QVERIFY2(applied, applied ? "" : applied.error().toString().c_str());
        QVERIFY(applied.value() >= size_t(steps));
        for (int k = 1; k <= steps; ++k) {
            auto graph = session.graphAt(size_t(k));
            QVERIFY(graph);
            revisions.push_back(std::move(graph).value());
        }
        revisions.push_back(session.graph().clone());
        StepCheck total;
        for (size_t k = 0; k < revisions.size(); ++k) {
            // Step k -> k + 1, and finally the first revision against the last.
            const bool whole = k + 1 == revisions.size();
            const Graph &before = whole ? *revisions.front() : *revisions[k];
            const Graph &after = *revisions[whole ? k : k + 1];
            if (!whole && k + 2 == revisions.size())
                continue; // the last single step is not among those checked
            const StepCheck c = checkStep(before, after);
            qInfo("%s: %zu kept, %zu placed, %zu edges rerouted (%zu reused, %zu routed); %zu overlaps (%zu laid out "
                  "from scratch); %zu of %zu changed edges cross a box; unchanged nodes spread %.1f pt; %.1f ms",
                whole ? "all steps" : qPrintable(QStringLiteral("step %1").arg(k + 1)), c.stats.kept, c.stats.placed,
                c.stats.rerouted, c.stats.reused, c.stats.routed, c.overlaps, c.scratchOverlaps, c.crossingChangedEdges,
                c.changedEdges, c.keptSpread, c.milliseconds);
            QCOMPARE(c.scratchOverlaps, size_t(0));
            QVERIFY(c.stats.kept > 0);
            QCOMPARE(c.overlaps, size_t(0));
            QVERIFY2(c.keptSpread < 0.5, qPrintable(QString::number(c.keptSpread)));
            total.changedEdges += c.changedEdges;
            total.crossingChangedEdges += c.crossingChangedEdges;
            total.stats.routed += c.stats.routed;
        }
        QVERIFY(total.changedEdges > 0);
        QVERIFY(total.stats.routed > 0); // by Graphviz, not plain curves
        QCOMPARE(total.crossingChangedEdges, size_t(0));
    }
};

QTEST_MAIN(TestStablePositions)
#include "tst_stable_positions.moc"
