// The graph canvas under the offscreen platform: background layout with stale results dropped,
// expand/collapse changing what is on screen, selection by click and by name, hover highlights.

#include "canvas_edge_item.h"
#include "canvas_group_item.h"
#include "canvas_minimap.h"
#include "canvas_node_item.h"
#include "canvas_style.h"
#include "graph_canvas.h"
#include "gui_test_paths.h"
#include "node_grouping.h"
#include "scene_layout.h"

#include "io/loader.h"
#include "ir/graph.h"
#include "ir/graph_file.h"
#include "patterns/builtin_patterns.h"
#include "rewrite/graph_editor.h"
#include "rewrite/session.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

using namespace fxs;

namespace {

// x -> op0 -> op1 -> ... -> output, a weight every 10 ops.
std::shared_ptr<const Graph> chain(size_t count)
{
    auto g = std::make_shared<Graph>();
    Node *previous = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < count; ++i) {
        std::vector<Argument> args{Argument::ofNode(previous)};
        if (i % 10 == 0)
            args.push_back(Argument::ofNode(g->append(OpKind::Placeholder, "w" + std::to_string(i), "w")));
        previous = g->append(OpKind::CallFunction, "op" + std::to_string(i), "torch.ops.aten.mul.Tensor", args);
    }
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(previous)})});
    return g;
}

// chain(count) after a fusion step: op10 and op11 replaced by one node "fused" (inputs op9 and w10), with the
// provenance a replacement records.
std::shared_ptr<const Graph> fusedChain(size_t count)
{
    auto g = std::make_shared<Graph>();
    Node *previous = g->append(OpKind::Placeholder, "x", "x");
    for (size_t i = 0; i < count; ++i) {
        if (i == 11)
            continue;
        std::vector<Argument> args{Argument::ofNode(previous)};
        if (i % 10 == 0)
            args.push_back(Argument::ofNode(g->append(OpKind::Placeholder, "w" + std::to_string(i), "w")));
        const std::string name = i == 10 ? "fused" : "op" + std::to_string(i);
        previous = g->append(OpKind::CallFunction, name, "torch.ops.aten.mul.Tensor", args);
        if (i == 10)
            previous->meta().extra = Json::object(
                {{kProvenanceKey, Json::object({{"pattern", "p"}, {"replaced", Json::array({"op10", "op11"})}})}});
    }
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(previous)})});
    return g;
}

// Per node name: the centre of its box in `layout`.
std::map<std::string, LayoutPoint> centres(const SceneLayout &layout, const Graph &graph)
{
    std::map<std::string, LayoutPoint> out;
    for (size_t n = 0; n < layout.nodeItem.size(); ++n)
        if (layout.nodeItem[n] >= 0)
            out[graph.nodes()[n]->name()] = layout.items[size_t(layout.nodeItem[n])].rect.center();
    return out;
}

// The largest distance an unchanged node moved between `before` and `after`.
double largestMove(const std::map<std::string, LayoutPoint> &before, const std::map<std::string, LayoutPoint> &after)
{
    double largest = 0;
    for (const auto &[name, p] : after)
        if (auto it = before.find(name); it != before.end())
            largest = std::max(largest, std::hypot(p.x - it->second.x, p.y - it->second.y));
    return largest;
}

bool waitForLayout(GraphCanvas &canvas)
{
    if (!canvas.isLayoutRunning())
        return true;
    QSignalSpy finished(&canvas, &GraphCanvas::layoutFinished);
    return finished.wait(20000) || !canvas.isLayoutRunning();
}

// Shows `canvas` at 900x700 on `graph` and waits until it is exposed and laid out.
bool showLaidOut(GraphCanvas &canvas, std::shared_ptr<const Graph> graph)
{
    canvas.resize(900, 700);
    canvas.show();
    if (!QTest::qWaitForWindowExposed(&canvas))
        return false;
    canvas.setGraph(std::move(graph));
    return waitForLayout(canvas);
}

// GPT-2's post-grad graph (corpus) in a session with the built-in patterns, or null (with a warning).
std::unique_ptr<Session> gpt2Session()
{
    auto file = loadGraphFile(
        FXSCOPE_CORPUS_DIR "/readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py");
    auto registry = std::make_shared<PatternRegistry>();
    if (!file || !registerBuiltinPatterns(*registry)) {
        qWarning("GPT-2 or the built-in patterns did not load");
        return nullptr;
    }
    return std::make_unique<Session>(std::move(file->graphs.front().graph), registry);
}

} // namespace

class TestGraphCanvas : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Graphviz crashing inside a layout (simulated in the layout's child process) reports a failed layout; the
    // canvas, and the program, go on and lay out the next graph.
    void graphvizCrashDoesNotTakeTheCanvasDown()
    {
        GraphCanvas canvas;
        canvas.resize(900, 700);
        canvas.show();
        QSignalSpy failed(&canvas, &GraphCanvas::layoutFailed);
        qputenv("FXSCOPE_TEST_CRASH_LAYOUT", "1");
        canvas.setGraph(chain(40));
        QVERIFY(failed.wait(20000));
        qunsetenv("FXSCOPE_TEST_CRASH_LAYOUT");
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("Graphviz crashed")),
            qPrintable(failed.first().first().toString()));
        QVERIFY(!canvas.isLayoutRunning());
        canvas.setGraph(chain(40));
        QVERIFY(waitForLayout(canvas));
        QVERIFY(canvas.sceneLayout());
        QVERIFY(canvas.nodeItem(QStringLiteral("op39")));
    }

    void smallGraphOpensExpanded()
    {
        GraphCanvas canvas;
        canvas.resize(900, 700);
        canvas.show();
        auto graph = chain(20);
        QSignalSpy started(&canvas, &GraphCanvas::layoutStarted);
        canvas.setGraph(graph);
        QCOMPARE(started.count(), 1);
        QVERIFY(canvas.isLayoutRunning());
        QVERIFY(waitForLayout(canvas));
        QVERIFY(canvas.sceneLayout());
        QCOMPARE(canvas.visibleNodeCount(), int(graph->size()));
        QCOMPARE(canvas.groupCount(), 0);
        QVERIFY(canvas.nodeItem(QStringLiteral("op7")));
        QVERIFY(canvas.minimap()->isVisible());
    }

    void staleLayoutsAreDropped()
    {
        GraphCanvas canvas;
        canvas.resize(900, 700);
        QSignalSpy finished(&canvas, &GraphCanvas::layoutFinished);
        canvas.setGraph(chain(500));
        auto second = chain(30);
        canvas.setGraph(second); // supersedes the first request before it finishes
        QVERIFY(waitForLayout(canvas));
        QTest::qWait(200); // let the first job's result arrive too, if it was still running
        QCOMPARE(finished.count(), 1);
        QCOMPARE(canvas.graph(), second.get());
        QCOMPARE(canvas.visibleNodeCount(), int(second->size()));
    }

    // A fusion step lays the new revision out again; the nodes the step did not touch stay where they were and
    // the fused node takes the place of the nodes it replaced.
    void unchangedNodesKeepTheirPlaceAfterAStep()
    {
        GraphCanvas canvas;
        auto before = chain(30);
        QVERIFY(showLaidOut(canvas, before));
        const auto was = centres(*canvas.sceneLayout(), *before);

        auto after = fusedChain(30);
        // Laid out from scratch, the nodes below the fusion move up a rank: the movement this test guards against.
        Grouping grouping = groupNodes(*after);
        InteriorCache cache;
        auto scratch = layoutScene(*after, grouping, std::vector<bool>(grouping.groups.size(), true), cache);
        QVERIFY(scratch.ok());
        const double scratchMove = largestMove(was, centres(scratch.value(), *after));
        QVERIFY2(scratchMove > 10, qPrintable(QString::number(scratchMove)));

        canvas.setGraphRevision(after);
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.graph(), after.get());
        const auto now = centres(*canvas.sceneLayout(), *after);
        QCOMPARE(now.size(), after->size());
        const double kept = largestMove(was, now);
        qInfo("unchanged nodes moved at most %.1f pt (%.1f pt laid out from scratch)", kept, scratchMove);
        QVERIFY2(kept < 0.5, qPrintable(QString::number(kept)));
        // The fused node takes the place of one of the nodes it replaced (its provenance).
        const LayoutPoint fused = now.at("fused");
        const auto at = [&](const LayoutPoint &p) { return std::hypot(fused.x - p.x, fused.y - p.y) < 0.5; };
        QVERIFY(at(was.at("op10")) || at(was.at("op11")));
        QVERIFY(fused.y > now.at("op9").y && fused.y < now.at("op12").y);
        QVERIFY(canvas.nodeItem(QStringLiteral("fused")));
        QVERIFY(!canvas.nodeItem(QStringLiteral("op11")));
        QCOMPARE(countOverlappingBoxes(*canvas.sceneLayout()), size_t(0));
    }

    void expandAndCollapseChangeItems()
    {
        GraphCanvas canvas;
        auto graph = chain(600); // large: opens collapsed
        QVERIFY(showLaidOut(canvas, graph));
        const int groups = canvas.groupCount();
        QVERIFY(groups >= 4);
        QVERIFY(!canvas.isGroupExpanded(0));
        const int collapsedBoxes = canvas.boxCount();
        QCOMPARE(collapsedBoxes, groups + 1); // the groups and the output node
        QVERIFY(!canvas.nodeItem(QStringLiteral("op0")));

        canvas.setGroupExpanded(1, true);
        QVERIFY(waitForLayout(canvas));
        QVERIFY(canvas.isGroupExpanded(1));
        const int inGroup = int(canvas.grouping()->groups[1].nodes.size());
        QCOMPARE(canvas.boxCount(), collapsedBoxes + inGroup);
        QVERIFY(canvas.groupItem(1)->isExpanded());

        canvas.collapseAll();
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.boxCount(), collapsedBoxes);

        canvas.expandAll();
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.visibleNodeCount(), int(graph->size()));
    }

    // Zoomed far out an expanded group is drawn as its overview, not node by node (its nodes are skipped);
    // zoomed in again its nodes are back and answer clicks; exporting the whole graph while zoomed out still
    // draws every node.
    void zoomedOutShowsOverviewsAndExportsEveryNode()
    {
        GraphCanvas canvas;
        auto graph = chain(600);
        QVERIFY(showLaidOut(canvas, graph));
        canvas.setGroupExpanded(1, true);
        QVERIFY(waitForLayout(canvas));
        const Node *inGroup = graph->nodes()[canvas.grouping()->groups[1].nodes[3]].get();
        const QString name = QString::fromStdString(inGroup->name());
        CanvasNodeItem *item = canvas.nodeItem(name);
        QVERIFY(item);

        canvas.setTransform(QTransform::fromScale(0.02, 0.02));
        canvas.viewport()->repaint();
        QCOMPARE(item->effectiveOpacity(), 0.0);
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("whole.svg"));
        QCOMPARE(canvas.exportImage(svg, true), QString());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains(name.toUtf8()));
        QCOMPARE(item->effectiveOpacity(), 0.0); // the view is as it was

        canvas.setTransform(QTransform());
        canvas.centerOn(item);
        canvas.viewport()->repaint();
        QCOMPARE(item->effectiveOpacity(), 1.0);
        QSignalSpy selected(&canvas, &GraphCanvas::nodeSelected);
        QTest::mouseClick(
            canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(item->sceneBoundingRect().center()));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toString(), name);
    }

    // Zoomed far out the node items are skipped; the candidate's nodes, the selected node and the times are drawn
    // over the overview instead, and a click on a box there still selects its node.
    void overviewShowsMarksAndTakesClicks()
    {
        GraphCanvas canvas;
        auto graph = chain(600);
        QVERIFY(showLaidOut(canvas, graph));
        canvas.expandAll();
        QVERIFY(waitForLayout(canvas));
        canvas.fitToView();
        canvas.viewport()->repaint();
        QVERIFY(canvas.zoom() < 0.08);
        QVERIFY(canvas.isOverviewShown());
        QCOMPARE(canvas.overviewMarkCount(), 0);
        CanvasNodeItem *marked = canvas.nodeItem(QStringLiteral("op300"));
        QVERIFY(marked);
        QCOMPARE(marked->effectiveOpacity(), 0.0); // drawn by the overview, not by itself

        // The colour at a box's centre in a grab of the view, and how far it is from `expected` (largest channel).
        auto distance = [&canvas](const QString &node, const QColor &expected) {
            const QPoint at = canvas.mapFromScene(canvas.nodeItem(node)->sceneBoundingRect().center());
            const QColor c = canvas.viewport()->grab().toImage().pixelColor(at);
            return std::max({std::abs(c.red() - expected.red()), std::abs(c.green() - expected.green()),
                std::abs(c.blue() - expected.blue())});
        };
        const QColor accepted = canvas::matchAccepted();
        QVERIFY(distance(QStringLiteral("op300"), accepted) > 60);
        // Far enough apart not to share a pixel at this zoom (neighbours do: the one drawn last shows).
        const qreal zoom = canvas.zoom();
        canvas.setMatchMarks(
            {{QStringLiteral("op300"), CanvasMatchMark::Matched}, {QStringLiteral("op350"), CanvasMatchMark::Tried}},
            QStringLiteral("op300"), true);
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.zoom(), zoom); // in sight already: the view stays fitted
        QVERIFY(canvas.isOverviewShown());
        QCOMPARE(canvas.overviewMarkCount(), 2);
        QVERIFY(distance(QStringLiteral("op300"), accepted) < 40);
        QVERIFY(distance(QStringLiteral("op350"), canvas::matchTried()) < 40);

        // A click on op100's box, zoomed in a little but still in the overview.
        canvas.setTransform(QTransform::fromScale(0.06, 0.06));
        CanvasNodeItem *target = canvas.nodeItem(QStringLiteral("op100"));
        canvas.centerOn(target);
        canvas.viewport()->repaint();
        QVERIFY(canvas.isOverviewShown());
        QCOMPARE(target->effectiveOpacity(), 0.0);
        QSignalSpy selected(&canvas, &GraphCanvas::nodeSelected);
        QTest::mouseClick(
            canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(target->sceneBoundingRect().center()));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toString(), QStringLiteral("op100"));
        QCOMPARE(canvas.selectedNode(), QStringLiteral("op100"));
        QCOMPARE(canvas.overviewMarkCount(), 3);
        QVERIFY(distance(QStringLiteral("op100"), canvas::selection()) < 40);
        // Between two boxes there is nothing to select.
        const QRectF box = target->sceneBoundingRect();
        QTest::mouseClick(
            canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(box.right() + 200, box.center().y()));
        QCOMPARE(selected.count(), 1);

        // The time colours, for the timed nodes only.
        canvas.setNodeTimes({{"op5", 1.0}, {"op6", 100.0}});
        QCOMPARE(canvas.overviewMarkCount(), 5);
    }

    // Zoomed far out the node items are hidden; hovering a box there still tells which node it is (the tooltip a
    // node shows at any zoom: name, op and target, shape), and between boxes there is none.
    void overviewHoverShowsTheNode()
    {
        GraphCanvas canvas;
        QVERIFY(showLaidOut(canvas, chain(600)));
        canvas.expandAll();
        QVERIFY(waitForLayout(canvas));
        canvas.setTransform(QTransform::fromScale(0.06, 0.06));
        CanvasNodeItem *target = canvas.nodeItem(QStringLiteral("op100"));
        canvas.centerOn(target);
        canvas.viewport()->repaint();
        QVERIFY(canvas.isOverviewShown());
        QCOMPARE(target->effectiveOpacity(), 0.0);
        const auto tipAt = [&canvas](QPointF scenePos) {
            QToolTip::hideText();
            (void)QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000); // a tip from before may linger
            const QPoint at = canvas.mapFromScene(scenePos);
            QHelpEvent help(QEvent::ToolTip, at, canvas.viewport()->mapToGlobal(at));
            QApplication::sendEvent(canvas.viewport(), &help);
            return QToolTip::isVisible() ? QToolTip::text() : QString();
        };
        const QString tip = tipAt(target->sceneBoundingRect().center());
        // Under Xvfb (QT_QPA_PLATFORM=xcb) with FXSCOPE_SCREENSHOTS: the screen with the tip, which is a window of
        // its own.
        if (const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
            !folder.isEmpty() && QGuiApplication::platformName() == QLatin1String("xcb")) {
            const QPoint at = canvas.mapFromScene(target->sceneBoundingRect().center());
            QMouseEvent move(
                QEvent::MouseMove, at, canvas.viewport()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(canvas.viewport(), &move);
            QHelpEvent help(QEvent::ToolTip, at, canvas.viewport()->mapToGlobal(at));
            QApplication::sendEvent(canvas.viewport(), &help);
            QTest::qWait(300);
            QProcess::execute(QStringLiteral("import"),
                {QStringLiteral("-window"), QStringLiteral("root"),
                    QDir(folder).filePath(QStringLiteral("overview-hover.png"))});
        }
        QCOMPARE(tip.split(QLatin1Char('\n')).value(0), QStringLiteral("op100"));
        QVERIFY2(tip.contains(QStringLiteral("call_function · torch.ops.aten.mul.Tensor")), qPrintable(tip));
        // Hovering outlines the node, its inputs (op99, w100) and its user (op101) over the overview; off it, none.
        const auto moveTo = [&canvas](QPointF scenePos) {
            const QPoint at = canvas.mapFromScene(scenePos);
            QMouseEvent move(
                QEvent::MouseMove, at, canvas.viewport()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(canvas.viewport(), &move);
        };
        moveTo(target->sceneBoundingRect().center());
        QCOMPARE(canvas.overviewHoverCount(), 4);
        const QRectF box = target->sceneBoundingRect();
        moveTo(QPointF(box.right() + 2000, box.center().y()));
        QCOMPARE(canvas.overviewHoverCount(), 0);
        // Between boxes: no node's tip (the group's frame may have its own).
        const QString between = tipAt(QPointF(box.right() + 200, box.center().y()));
        QVERIFY2(!between.contains(QStringLiteral("call_function")), qPrintable(between));
        // The same tip at normal zoom.
        canvas.setTransform(QTransform());
        canvas.centerOn(target);
        canvas.viewport()->repaint();
        QVERIFY(!canvas.isOverviewShown());
        QCOMPARE(tipAt(target->sceneBoundingRect().center()), tip);
    }

    void clickSelectsNode()
    {
        GraphCanvas canvas;
        QVERIFY(showLaidOut(canvas, chain(8)));
        CanvasNodeItem *item = canvas.nodeItem(QStringLiteral("op3"));
        QVERIFY(item);
        canvas.centerOn(item);
        QSignalSpy selected(&canvas, &GraphCanvas::nodeSelected);
        const QPoint at = canvas.mapFromScene(item->boundingRect().center());
        QTest::mouseMove(canvas.viewport(), at);
        QCOMPARE(item->isCurrent(), false);
        QTest::mouseClick(canvas.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toString(), QStringLiteral("op3"));
        QVERIFY(item->isCurrent());
        QCOMPARE(canvas.selectedNode(), QStringLiteral("op3"));
    }

    void hoverHighlightsNeighbours()
    {
        GraphCanvas canvas;
        QVERIFY(showLaidOut(canvas, chain(8)));
        CanvasNodeItem *item = canvas.nodeItem(QStringLiteral("op3"));
        canvas.centerOn(item);
        // A plain move event: QTest::mouseMove moves the cursor, which offscreen may not report.
        const QPointF at = canvas.mapFromScene(item->boundingRect().center());
        QMouseEvent move(
            QEvent::MouseMove, at, canvas.viewport()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas.viewport(), &move);
        int highlightedEdges = 0;
        for (QGraphicsItem *i : canvas.scene()->items())
            if (auto *edge = dynamic_cast<CanvasEdgeItem *>(i))
                highlightedEdges += edge->zValue() > 1; // highlighted edges are raised
        QCOMPARE(highlightedEdges, 2); // from op2, to op4
    }

    void selectByNameExpandsItsGroup()
    {
        GraphCanvas canvas;
        auto graph = chain(600);
        QVERIFY(showLaidOut(canvas, graph));
        QSignalSpy selected(&canvas, &GraphCanvas::nodeSelected);
        const int group = canvas.grouping()->groupOf[graph->find("op450")->index()];
        QVERIFY(group >= 0);
        QVERIFY(!canvas.isGroupExpanded(group));
        QVERIFY(canvas.selectNode(QStringLiteral("op450")));
        QVERIFY(waitForLayout(canvas));
        QVERIFY(canvas.isGroupExpanded(group));
        QCOMPARE(canvas.selectedNode(), QStringLiteral("op450"));
        QVERIFY(canvas.nodeItem(QStringLiteral("op450"))->isCurrent());
        QCOMPARE(selected.count(), 0); // programmatic selection does not echo
        QVERIFY(!canvas.selectNode(QStringLiteral("no_such_node")));
    }

    // After a step the groups open before are open again, found by their nodes: GPT-2's groups share labels
    // ("modeling_gpt2.py" a dozen times), and opening one of them must not open them all.
    void stepReopensTheSameGroupsOnly()
    {
        auto made = gpt2Session();
        QVERIFY(made);
        Session &session = *made;
        QVERIFY(session.run(1));
        std::shared_ptr<const Graph> before = session.graphAt(0).value();
        std::shared_ptr<const Graph> after = session.graph().clone();
        GraphCanvas canvas;
        QVERIFY(showLaidOut(canvas, before));
        const Grouping &grouping = *canvas.grouping();
        // The group holding the first node the step removed, whose label other groups have too.
        const Node *removed = before->find(session.history()[0].removed.front());
        QVERIFY(removed);
        const int group = grouping.groupOf[removed->index()];
        QVERIFY(group >= 0);
        const std::string label = grouping.groups[size_t(group)].label;
        QVERIFY(std::count_if(grouping.groups.begin(), grouping.groups.end(), [&](const NodeGroup &g) {
            return g.label == label;
        }) > 1);
        canvas.setGroupExpanded(group, true);
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.expandedGroupLabels(), QStringList{QString::fromStdString(label)});
        canvas.setGraphRevision(after);
        QVERIFY(waitForLayout(canvas));
        QCOMPARE(canvas.expandedGroupLabels(), QStringList{QString::fromStdString(label)});
        // The node the step added is shown, in the open group.
        QVERIFY(canvas.nodeItem(QString::fromStdString(session.history()[0].added.front())));
    }

    // Under FXSCOPE_SCREENSHOTS: GPT-2 (corpus) before and after its second built-in step, around the new node.
    void stepScreenshot()
    {
        const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
        if (folder.isEmpty())
            QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
        auto made = gpt2Session();
        QVERIFY(made);
        Session &session = *made;
        QVERIFY(session.run(2));
        std::shared_ptr<const Graph> before = session.graphAt(1).value();
        std::shared_ptr<const Graph> after = session.graph().clone();
        const QString added = QString::fromStdString(session.history()[1].added.front());
        GraphCanvas canvas;
        canvas.resize(1400, 900);
        canvas.show();
        canvas.setGraph(before);
        QVERIFY(waitForLayout(canvas));
        canvas.expandAll();
        QVERIFY(waitForLayout(canvas));
        canvas.selectNode(QString::fromStdString(session.history()[1].removed.front()));
        canvas.grab().save(QDir(folder).filePath(QStringLiteral("step-before.png")));
        canvas.setGraphRevision(after);
        QVERIFY(waitForLayout(canvas));
        canvas.selectNode(added);
        canvas.grab().save(QDir(folder).filePath(QStringLiteral("step-after.png")));
    }

    void cancelKeepsPicture()
    {
        GraphCanvas canvas;
        canvas.resize(900, 700);
        auto graph = chain(600);
        canvas.setGraph(graph);
        QVERIFY(waitForLayout(canvas));
        const int boxes = canvas.boxCount();
        canvas.expandAll();
        canvas.cancelLayout();
        QVERIFY(!canvas.isLayoutRunning());
        QTest::qWait(300);
        QCOMPARE(canvas.boxCount(), boxes);
        QVERIFY(!canvas.isGroupExpanded(0));
    }
};

QTEST_MAIN(TestGraphCanvas)
#include "tst_graph_canvas.moc"
