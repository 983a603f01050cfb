// Stepping in the main window, under QT_QPA_PLATFORM=offscreen: the Document's session steps the bundled LLaMA
// sample off the UI thread (built-in patterns accept 2 rms_norm_cast + 1 swiglu: 107 → 95 nodes in 3 steps), the
// undo stack mirrors the session, undo restores the exact previous graph, and the canvas marks what a step added.

#include "canvas_node_item.h"
#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "node_list_widget.h"
#include "timeline_widget.h"

#include "ir/canonical_printer.h"
#include "ir/graph.h"
#include "match/match_report.h"
#include "rewrite/graph_diff.h"

#include <QAction>
#include <QDir>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

namespace {

constexpr size_t kSampleNodes = 107;
constexpr size_t kFusedNodes = 95;

size_t shownNodes(const Loaded &l)
{
    return l.doc->currentGraphShared() ? l.doc->currentGraphShared()->size() : 0;
}

std::string canonical(const Loaded &l)
{
    return printCanonical(*l.doc->currentGraphShared());
}

} // namespace

class TestStepping : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void stepUndoRedo();
    void runToEndResetBisect();
    void stackDrivesSession();
    void stepAfterUndoDropsRedoTail();
    void addedNodesAreMarked();
    void shortcutsAndDock();
    void screenshots();

private:
    QTemporaryDir m_dir;
};

void TestStepping::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_stepping"));
}

void TestStepping::init()
{
    QSettings().clear();
}

void TestStepping::stepUndoRedo()
{
    Loaded l;
    QVERIFY(openSample(l));
    QCOMPARE(shownNodes(l), kSampleNodes);
    const std::string before = canonical(l);

    QSignalSpy revision(l.doc.get(), &Document::revisionChanged);
    QSignalSpy report(l.doc.get(), &Document::matchReportChanged);
    QVERIFY(l.doc->step() > 0);
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(revision.count(), 1);
    QCOMPARE(l.doc->revision(), 1);
    // The first step in Inductor's order is swiglu, which leaves the node count as it is.
    const size_t afterOne = shownNodes(l);
    QVERIFY2(afterOne <= kSampleNodes, qPrintable(QString::number(afterOne)));
    const std::string stepped = canonical(l);
    QVERIFY(stepped != before);
    // The views show the new revision, and the report is the session's for it.
    QCOMPARE(l.window->canvas()->graph(), l.doc->currentGraphShared().get());
    QVERIFY(!report.isEmpty());
    QCOMPARE(l.doc->matchGraph(), l.doc->currentGraphShared());
    const auto diff = l.doc->lastDiff();
    QVERIFY(diff);
    QVERIFY(!diff->removed.empty());
    QVERIFY(!diff->added.empty());
    QCOMPARE(diff->nodesBefore, kSampleNodes);
    QCOMPARE(diff->nodesAfter, afterOne);

    QUndoStack *stack = l.doc->undoStack();
    QCOMPARE(stack->count(), 1);
    QCOMPARE(stack->index(), 1);
    QVERIFY2(stack->text(0).startsWith(QLatin1String("1. ")) && stack->text(0).contains(QLatin1String(" @ ")),
        qPrintable(stack->text(0)));

    l.doc->undo();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 0);
    QCOMPARE(shownNodes(l), kSampleNodes);
    QCOMPARE(canonical(l), before); // exactly the graph as loaded
    QCOMPARE(stack->index(), 0);
    QCOMPARE(stack->count(), 1);

    l.doc->redo();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 1);
    QCOMPARE(canonical(l), stepped);
    QCOMPARE(stack->index(), 1);
}

void TestStepping::runToEndResetBisect()
{
    Loaded l;
    QVERIFY(openSample(l));
    const std::string original = canonical(l);
    l.doc->runToEnd();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(shownNodes(l), kFusedNodes);
    QCOMPARE(l.doc->revision(), 3);
    QUndoStack *stack = l.doc->undoStack();
    QCOMPARE(stack->count(), 3);
    int rms = 0, swiglu = 0;
    for (int i = 0; i < stack->count(); ++i) {
        QVERIFY2(stack->text(i).startsWith(QStringLiteral("%1. ").arg(i + 1)), qPrintable(stack->text(i)));
        rms += stack->text(i).contains(QLatin1String("rms_norm_cast @ "));
        swiglu += stack->text(i).contains(QLatin1String("swiglu @ "));
    }
    QCOMPARE(rms, 2);
    QCOMPARE(swiglu, 1);
    // Nothing is accepted at the fixed point.
    QVERIFY(l.doc->matchReport());
    for (const PatternReport &p : l.doc->matchReport()->patterns)
        QCOMPARE(p.acceptedCount(), size_t(0));
    const std::string fused = canonical(l);

    // A step at the fixed point changes nothing and says so.
    QSignalSpy failed(l.doc.get(), &Document::stepFailed);
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(stack->count(), 3);

    l.doc->reset();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 0);
    QCOMPARE(canonical(l), original);
    QCOMPARE(stack->count(), 3); // reset is undo: the steps stay redoable
    QCOMPARE(stack->index(), 0);

    l.doc->bisect(2);
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 2);
    QCOMPARE(stack->index(), 2);
    QVERIFY(shownNodes(l) > kFusedNodes && shownNodes(l) < kSampleNodes);

    l.doc->bisect(3);
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(canonical(l), fused);

    // Beyond the history after a reset to nothing recorded: bisect matches afresh.
    l.doc->bisect(0);
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(canonical(l), original);
}

void TestStepping::stackDrivesSession()
{
    Loaded l;
    QVERIFY(openSample(l));
    l.doc->runToEnd();
    QVERIFY(settle(l.doc.get()));
    // Clicking a history row is QUndoStack::setIndex: the session follows.
    l.doc->undoStack()->setIndex(1);
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 1);
    auto graphAt1 = canonical(l);
    l.doc->undoStack()->setIndex(3);
    l.doc->undoStack()->setIndex(1); // bursts collapse to where the last one goes
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 1);
    QCOMPARE(canonical(l), graphAt1);
    QCOMPARE(l.doc->undoStack()->index(), 1);
}

void TestStepping::stepAfterUndoDropsRedoTail()
{
    Loaded l;
    QVERIFY(openSample(l));
    l.doc->runToEnd();
    QVERIFY(settle(l.doc.get()));
    l.doc->undoStack()->setIndex(1);
    QVERIFY(settle(l.doc.get()));
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    QCOMPARE(l.doc->revision(), 2);
    QCOMPARE(l.doc->undoStack()->count(), 2);
    QCOMPARE(l.doc->undoStack()->index(), 2);
    QVERIFY(!l.doc->undoStack()->canRedo());
}

void TestStepping::addedNodesAreMarked()
{
    Loaded l;
    QVERIFY(openSample(l));
    GraphCanvas *canvas = l.window->canvas();
    QSignalSpy laidOut(canvas, &GraphCanvas::layoutFinished);
    l.doc->step();
    QVERIFY(settle(l.doc.get())); // the step, then the Diff dock's comparison queued behind it
    QVERIFY(!laidOut.isEmpty() || laidOut.wait(kTimeoutMs));
    const auto diff = l.doc->lastDiff();
    QVERIFY(diff && !diff->added.empty());
    for (const DiffNode &n : diff->added) {
        const QString name = QString::fromStdString(n.name);
        QCOMPARE(canvas->matchMark(name), CanvasMatchMark::Added);
        CanvasNodeItem *item = canvas->nodeItem(name);
        QVERIFY2(item, qPrintable(name));
        QCOMPARE(item->matchMark(), CanvasMatchMark::Added);
    }
    // The marks survive the report that follows the step.
    QTest::qWait(100);
    QCOMPARE(canvas->matchMark(QString::fromStdString(diff->added.front().name)), CanvasMatchMark::Added);

    // The Timeline lists what was removed; clicking one selects the node that replaced it.
    TimelineWidget *timeline = l.window->timeline();
    QCOMPARE(timeline->removedList()->count(), int(diff->removed.size()));
    QCOMPARE(timeline->addedList()->count(), int(diff->added.size()));
    QVERIFY(timeline->opTable()->rowCount() >= 2); // changed ops and the total
    QListWidgetItem *removed = timeline->removedList()->item(0);
    QVERIFY(removed->text().contains(QStringLiteral("→")));
    QCOMPARE(timeline->bisectBox()->value(), 1);
    Q_EMIT timeline->removedList()->itemClicked(removed);
    QTRY_VERIFY(!canvas->selectedNode().isEmpty());
    QVERIFY(removed->text().endsWith(canvas->selectedNode()));
}

void TestStepping::shortcutsAndDock()
{
    Loaded l;
    QVERIFY(openSample(l));
    auto action = [&](const char *name) { return l.window->findChild<QAction *>(QLatin1String(name)); };
    QVERIFY(action("stepAction"));
    QCOMPARE(action("stepAction")->shortcut(), QKeySequence(Qt::Key_F10));
    QCOMPARE(action("stepOverAction")->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F10));
    QCOMPARE(action("runToEndAction")->shortcut(), QKeySequence(Qt::Key_F5));
    QCOMPARE(action("undoAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Z));
    QCOMPARE(action("redoAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    QCOMPARE(action("resetAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    QVERIFY(l.window->steppingToolBar()->actions().contains(action("stepAction")));
    QCOMPARE(l.window->timeline()->historyView()->stack(), l.doc->undoStack());

    // Step over the pattern of the first accepted candidate: rms_norm_cast, twice.
    QCOMPARE(l.window->stepOverPattern(), QStringLiteral("rms_norm_cast"));
    action("stepOverAction")->trigger();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(laidOut(l.window->canvas()));
    QCOMPARE(l.doc->revision(), 2);
    action("undoAction")->trigger();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(laidOut(l.window->canvas()));
    QCOMPARE(l.doc->revision(), 1);

    // Bisect from the dock.
    l.window->timeline()->bisectBox()->setValue(2);
    Q_EMIT l.window->timeline()->bisectRequested(2);
    QVERIFY(settle(l.doc.get()));
    QVERIFY(laidOut(l.window->canvas()));
    QCOMPARE(l.doc->revision(), 2);
    action("resetAction")->trigger();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(laidOut(l.window->canvas()));
    QCOMPARE(shownNodes(l), kSampleNodes);

    // A new file starts a new session.
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->openBundledSample();
    QVERIFY(matched.wait(kTimeoutMs));
    QCOMPARE(l.doc->undoStack()->count(), 0);
    QCOMPARE(l.doc->revision(), 0);
}

// The picture for docs/, taken only when FXSCOPE_SCREENSHOTS names a folder.
void TestStepping::screenshots()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
    Loaded l;
    QVERIFY(openSample(l));
    l.window->setGeometry(0, 0, 1600, 1000);
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    QSignalSpy laidOut(l.window->canvas(), &GraphCanvas::layoutFinished);
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(!laidOut.isEmpty() || laidOut.wait(kTimeoutMs));
    laidOut.clear();
    l.doc->step();
    QVERIFY(settle(l.doc.get()));
    QVERIFY(!laidOut.isEmpty() || laidOut.wait(kTimeoutMs));
    QTest::qWait(800);
    QVERIFY(saveScreenshot(l.window.get(), QDir(folder).filePath(QStringLiteral("fxscope-stepping.png"))));
}

QTEST_MAIN(TestStepping)
#include "tst_stepping.moc"
