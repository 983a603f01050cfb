// The Diff dock, under QT_QPA_PLATFORM=offscreen: after stepping the bundled LLaMA sample, any two revisions of the
// session compare off the UI thread, and the dock shows exactly what diffGraphs says differs between them (checked
// against graphs taken from the Document independently); GraphDiffModel passes QAbstractItemModelTester.

#include "canvas_node_item.h"
#include "diff_widget.h"
#include "document.h"
#include "graph_canvas.h"
#include "graph_diff_model.h"
#include "gui_test_support.h"
#include "mainwindow.h"

#include "ir/graph.h"
#include "ir/graph_file.h"
#include "rewrite/graph_diff.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QLabel>
#include <QLineF>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace fxs;
using namespace fxs::test;

namespace {

// Wide, and not waiting for the first layout: the dock compares revisions whether or not the canvas has drawn them.
constexpr SampleOptions kWideMatched{/*wide=*/true, /*waitForLayout=*/false};

// The rows of one section of the model, by node name.
QStringList sectionNames(const GraphDiffModel *model, GraphDiffModel::Section section)
{
    QStringList names;
    const QModelIndex parent = model->sectionIndex(section);
    for (int r = 0; r < model->rowCount(parent); ++r)
        names << model->index(r, GraphDiffModel::NameColumn, parent).data().toString();
    return names;
}

QStringList names(const std::vector<DiffNode> &nodes)
{
    QStringList out;
    for (const DiffNode &n : nodes)
        out << QString::fromStdString(n.name);
    return out;
}

} // namespace

class TestDiffView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelPassesTester();
    void comparesAnyTwoRevisions();
    void nodeRowSelectsNode();
    void unchangedNodesKeepTheirPlace();
    void screenshot();

private:
    QTemporaryDir m_dir;
};

void TestDiffView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_diff_view"));
}

void TestDiffView::modelPassesTester()
{
    Loaded l;
    QVERIFY(openSample(l, kWideMatched));
    l.doc->runToEnd();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(l.doc->revision() >= 2);
    const Graph &loaded = *l.doc->currentGraph()->graph;
    auto diff = std::make_shared<const GraphDiff>(diffGraphs(loaded, *l.doc->currentGraphShared()));

    GraphDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setDiff(diff);
    QCOMPARE(model.rowCount(), int(GraphDiffModel::SectionCount));
    QCOMPARE(sectionNames(&model, GraphDiffModel::Removed), names(diff->removed));
    QCOMPARE(sectionNames(&model, GraphDiffModel::Added), names(diff->added));
    QCOMPARE(model.rowCount(model.sectionIndex(GraphDiffModel::Changed)), int(diff->changed.size()));
    // Op counts: the changed ones, each with its before and after; listing every op adds the unchanged ones.
    int changedOps = 0;
    for (const auto &[op, counts] : diff->opCounts)
        changedOps += counts.first != counts.second;
    const QModelIndex ops = model.sectionIndex(GraphDiffModel::OpCounts);
    QCOMPARE(model.rowCount(ops), changedOps);
    for (int r = 0; r < model.rowCount(ops); ++r) {
        const auto &counts = diff->opCounts.at(model.index(r, 0, ops).data().toString().toStdString());
        QCOMPARE(model.index(r, GraphDiffModel::BeforeColumn, ops).data().toULongLong(), qulonglong(counts.first));
        QCOMPARE(model.index(r, GraphDiffModel::AfterColumn, ops).data().toULongLong(), qulonglong(counts.second));
    }
    model.setShowUnchangedOps(true);
    QCOMPARE(model.rowCount(model.sectionIndex(GraphDiffModel::OpCounts)), int(diff->opCounts.size()));
    QCOMPARE(
        model.index(0, 0, model.sectionIndex(GraphDiffModel::Removed)).data(GraphDiffModel::NodeNameRole).toString(),
        QString::fromStdString(diff->removed.front().name));
    model.setDiff(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestDiffView::comparesAnyTwoRevisions()
{
    Loaded l;
    QVERIFY(openSample(l, kWideMatched));
    DiffWidget *view = l.window->diffView();
    QCOMPARE(view->fromBox()->count(), 1);
    QCOMPARE(view->model()->rowCount(), 0);

    // Step twice, keeping each revision's graph as the Document shows it.
    std::vector<std::shared_ptr<const Graph>> revisions{l.doc->currentGraphShared()};
    for (int i = 0; i < 2; ++i) {
        l.doc->step();
        QVERIFY(settle(l.doc.get()));
        revisions.push_back(l.doc->currentGraphShared());
    }
    QCOMPARE(l.doc->revision(), 2);
    // The dock follows the history: the graph as loaded against the newest revision.
    QCOMPARE(view->fromBox()->count(), 3);
    QCOMPARE(view->fromRevision(), 0);
    QCOMPARE(view->toRevision(), 2);
    QTRY_VERIFY(view->model()->diff() != nullptr);
    GraphDiff expected = diffGraphs(*revisions[0], *revisions[2]);
    QCOMPARE(sectionNames(view->model(), GraphDiffModel::Removed), names(expected.removed));
    QCOMPARE(sectionNames(view->model(), GraphDiffModel::Added), names(expected.added));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("107 → %1 nodes").arg(revisions[2]->size())));

    // Any pair, the older one second too: revision 2 back to 1 is the last step undone.
    QSignalSpy ready(l.doc.get(), &Document::revisionDiffReady);
    view->compare(2, 1);
    QVERIFY(ready.wait(kTimeoutMs));
    expected = diffGraphs(*revisions[2], *revisions[1]);
    QCOMPARE(sectionNames(view->model(), GraphDiffModel::Removed), names(expected.removed));
    QCOMPARE(sectionNames(view->model(), GraphDiffModel::Added), names(expected.added));
    QCOMPARE(view->model()->diff()->nodesBefore, revisions[2]->size());
    // Comparing never moves the session.
    QCOMPARE(l.doc->revision(), 2);
    QCOMPARE(l.doc->currentGraphShared(), revisions[2]);

    // Undo keeps the history (redo is possible): the pair picked stays.
    l.doc->undo();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(view->fromBox()->count(), 3);
    QCOMPARE(view->fromRevision(), 2);
    QCOMPARE(view->toRevision(), 1);
}

void TestDiffView::nodeRowSelectsNode()
{
    Loaded l;
    QVERIFY(openSample(l, kWideMatched));
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    DiffWidget *view = l.window->diffView();
    QTRY_VERIFY(view->model()->diff() != nullptr);
    l.window->diffDock()->raise();
    const QModelIndex added = view->model()->index(0, 0, view->model()->sectionIndex(GraphDiffModel::Added));
    QVERIFY(added.isValid());
    const QString name = added.data(GraphDiffModel::NodeNameRole).toString();
    QVERIFY(l.doc->currentGraphShared()->find(name.toStdString()));
    QTreeView *tree = view->treeView();
    tree->scrollTo(added);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(added).center());
    QTRY_COMPARE(l.window->canvas()->selectedNode(), name);
}

// After a step the node the eye rested on (the one nearest the middle of the view) is where it was on screen, and
// the unchanged nodes around it stay put (laid out from scratch they moved 159 px median, 336 px max). Prints the
// displacement of every unchanged node in view.
void TestDiffView::unchangedNodesKeepTheirPlace()
{
    Loaded l;
    QVERIFY(openSample(l, kWideMatched));
    GraphCanvas *canvas = l.window->canvas();
    QVERIFY(laidOut(canvas));
    // Look at the first candidate the step will fuse.
    l.window->showCandidate(1, 1); // rms_norm_cast at mul_7, accepted
    QTest::qWait(50);
    auto viewPositions = [&] {
        std::map<QString, QPointF> at;
        const QRect viewport = canvas->viewport()->rect();
        for (QGraphicsItem *item : canvas->scene()->items()) {
            auto *node = dynamic_cast<CanvasNodeItem *>(item);
            if (!node)
                continue;
            const QPointF p = canvas->mapFromScene(node->sceneBoundingRect().center());
            if (viewport.contains(p.toPoint()))
                at[node->name()] = p;
        }
        return at;
    };
    const std::map<QString, QPointF> before = viewPositions();
    QVERIFY(before.size() > 5);
    QSignalSpy laidOut(canvas, &GraphCanvas::layoutFinished);
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(!laidOut.isEmpty() || laidOut.wait(kTimeoutMs));
    const Graph &after = *l.doc->currentGraphShared();
    // The anchor: nearest the middle among the nodes the step kept.
    const QPointF middle = QRectF(canvas->viewport()->rect()).center();
    QString anchor;
    qreal best = 1e18;
    for (const auto &[name, p] : before)
        if (after.find(name.toStdString()) && QLineF(p, middle).length() < best) {
            best = QLineF(p, middle).length();
            anchor = name;
        }
    QVERIFY(!anchor.isEmpty());
    const std::map<QString, QPointF> now = viewPositions();
    QVERIFY2(now.count(anchor), qPrintable(anchor));
    // Scrolling moves by whole pixels: within a pixel or two on each axis.
    QVERIFY2(QLineF(now.at(anchor), before.at(anchor)).length() < 3, qPrintable(anchor));
    std::vector<qreal> moved;
    for (const auto &[name, p] : before)
        if (now.count(name))
            moved.push_back(QLineF(now.at(name), p).length());
    std::sort(moved.begin(), moved.end());
    qInfo("unchanged nodes in view: %zu of %zu kept in view, displacement median %.1f px, max %.1f px", moved.size(),
        before.size(), moved.empty() ? 0.0 : moved[moved.size() / 2], moved.empty() ? 0.0 : moved.back());
    QVERIFY(moved.size() * 2 >= before.size()); // most of what was in view still is
    // Scrolling to the anchor rounds to whole pixels; nothing else moves.
    QVERIFY2(moved[moved.size() / 2] < 5, qPrintable(QString::number(moved[moved.size() / 2])));
    QVERIFY2(moved.back() < 5, qPrintable(QString::number(moved.back())));
}

// The picture for docs/, taken only when FXSCOPE_SCREENSHOTS names a folder: the sample after two steps, the Diff
// dock comparing the graph as loaded with revision 2, the nodes the last step added marked on the canvas.
void TestDiffView::screenshot()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
    Loaded l;
    QVERIFY(openSample(l, kWideMatched));
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    l.doc->step();
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    l.window->diffDock()->raise();
    l.window->resizeDocks({l.window->diffDock()}, {560}, Qt::Horizontal);
    l.window->resizeDocks({l.window->inspectorDock(), l.window->diffDock()}, {260, 720}, Qt::Vertical);
    QTRY_VERIFY(l.window->diffView()->model()->diff() != nullptr);
    QTest::qWait(1500);
    QVERIFY(saveScreenshot(l.window.get(), QDir(folder).filePath(QStringLiteral("fxscope-diff.png"))));
}

QTEST_MAIN(TestDiffView)
#include "tst_diff_view.moc"
