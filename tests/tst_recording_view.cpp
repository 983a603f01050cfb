// The Recording dock on tests/data/recording/two_ranks (a vLLM-style silu fusion that fires on rank 0 and is refused
// by its extra_check on rank 1): opening the folder raises the dock with every rank's passes; activating a step shows
// its graph; "Diff this pass" opens the graphs before and after the pass side by side; the fusion matrix marks the
// two cells where the ranks differ, and clicking one compares the two ranks' graphs.

#include "compare_widget.h"
#include "compare_window.h"
#include "gui_test_support.h"
#include "recording_widget.h"

#include "compare/graph_comparison.h"
#include "match/match_report.h"
#include "ir/graph_file.h"

#include <QDockWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

namespace {

const QString kTwoRanks = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/recording/two_ranks");

bool openRecording(Loaded &l)
{
    l.doc = std::make_unique<Document>();
    l.window = std::make_unique<MainWindow>(l.doc.get());
    l.window->setGeometry(0, 0, 1600, 1000);
    l.window->show();
    QSignalSpy loaded(l.doc.get(), &Document::fileLoaded);
    l.doc->open(kTwoRanks);
    return loaded.wait(kTimeoutMs) && l.doc->file() && l.doc->file()->recording;
}

// The row of step `index` of the stream titled `title` ("rank 0 · 0_0.inference").
QTreeWidgetItem *stepRow(QTreeWidget *tree, const QString &title, int index)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *top = tree->topLevelItem(i);
        if (top->text(0) == title && index < top->childCount())
            return top->child(index);
    }
    return nullptr;
}

CompareWindow *waitForComparison(Loaded &l)
{
    CompareWindow *w = l.window->compareWindow();
    if (!w)
        return nullptr;
    QSignalSpy ready(w, &CompareWindow::comparisonReady);
    if (w->isComparing() && !ready.wait(kTimeoutMs))
        return nullptr;
    return laidOut(w->view()->canvasA()) && laidOut(w->view()->canvasB()) ? w : nullptr;
}

} // namespace

class TestRecordingView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        useTemporarySettings(m_dir, QStringLiteral("tst_recording_view"));
    }

    void opensAsATimeline()
    {
        Loaded l;
        QVERIFY(openRecording(l));
        RecordingWidget *view = l.window->recordingView();
        QVERIFY(view->hasRecording());
        QTRY_VERIFY(view->isVisible()); // raised over the Patterns dock
        QTreeWidget *tree = view->passesView();
        QCOMPARE(tree->topLevelItemCount(), 4);
        QTreeWidgetItem *fused = stepRow(tree, QStringLiteral("rank 0 · 0_0.inference"), 3);
        QVERIFY(fused);
        QVERIFY(fused->text(0).contains(QStringLiteral("post_grad_custom_post_pass")));
        QCOMPARE(fused->text(2), QStringLiteral("1"));
        QCOMPARE(fused->child(0)->text(0), QStringLiteral("__main__.rank_main.silu_pattern"));
        // Activating a step shows the graph it left.
        QSignalSpy shown(l.doc.get(), &Document::currentGraphChanged);
        Q_EMIT tree->itemActivated(fused, 0);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(l.doc->currentGraph()->name, std::string("rank0/0_0.inference/003 post_grad_custom_post_pass"));
        // The refused anchor on rank 1 carries torch's reason.
        QTreeWidgetItem *refused = stepRow(tree, QStringLiteral("rank 1 · 0_0.inference"), 3);
        QVERIFY(refused);
        QVERIFY(refused->text(0).contains(QStringLiteral("(unchanged)")));
        QVERIFY(refused->child(0)->child(0)->text(0).contains(QStringLiteral("extra_check returned False")));
    }

    void diffThisPass()
    {
        Loaded l;
        QVERIFY(openRecording(l));
        RecordingWidget *view = l.window->recordingView();
        QTreeWidget *tree = view->passesView();
        QVERIFY(!view->diffButton()->isEnabled());
        tree->setCurrentItem(stepRow(tree, QStringLiteral("rank 1 · 0_0.inference"), 3));
        QVERIFY(!view->diffButton()->isEnabled()); // the pass changed nothing there
        tree->setCurrentItem(stepRow(tree, QStringLiteral("rank 0 · 0_0.inference"), 3));
        QVERIFY(view->diffButton()->isEnabled());
        QTest::mouseClick(view->diffButton(), Qt::LeftButton);
        CompareWindow *w = waitForComparison(l);
        QVERIFY(w);
        QCOMPARE(l.doc->currentGraph()->name, std::string("rank0/0_0.inference/000 as the first pass saw it"));
        // sigmoid went, silu's decomposition came.
        QVERIFY(w->view()->comparison());
        const auto &c = *w->view()->comparison();
        QVERIFY(!c.regions.empty());
        if (const QString dir = qEnvironmentVariable("FXSCOPE_SCREENSHOTS"); !dir.isEmpty())
            QVERIFY(saveScreenshot(w, dir + QStringLiteral("/fxscope-recording-diff.png")));
    }

    // "Re-run with torch": the graph the pass saw, matched by the same Inductor set loaded into the torch host.
    void rerunAPassOfInductors()
    {
        Loaded l;
        QVERIFY(openRecording(l));
        RecordingWidget *view = l.window->recordingView();
        QTreeWidget *tree = view->passesView();
        // The vLLM-style custom pass is the user's own: no Inductor set to load.
        tree->setCurrentItem(stepRow(tree, QStringLiteral("rank 0 · 0_0.inference"), 3));
        QVERIFY(!view->rerunButton()->isEnabled());
        // An inference graph runs the joint-graph passes too: its first pattern pass is joint_graph's `patterns`.
        tree->setCurrentItem(stepRow(tree, QStringLiteral("rank 0 · 0_0.inference"), 1));
        QVERIFY(view->rerunButton()->isEnabled());
        QVERIFY(view->rerunButton()->toolTip().contains(QStringLiteral("inductor:joint_graph")));
        QTest::mouseClick(view->rerunButton(), Qt::LeftButton);
        QCOMPARE(l.doc->currentGraph()->name, std::string("rank0/0_0.inference/000 as the first pass saw it"));
        QTRY_VERIFY_WITH_TIMEOUT(l.window->patternsDock()->isVisible(), kTimeoutMs);
        // The torch host loads Inductor's joint-graph set (its attention patterns too: far more than the six
        // built-ins the recording opened with), then the graph is matched with it.
        QTRY_VERIFY_WITH_TIMEOUT(l.doc->patternFiles().contains(QStringLiteral("inductor:joint_graph")), 300000);
        QTRY_VERIFY_WITH_TIMEOUT(l.doc->matchReport() && l.doc->matchReport()->patterns.size() > 50, 300000);
        if (const QString dir = qEnvironmentVariable("FXSCOPE_SCREENSHOTS"); !dir.isEmpty()) {
            QVERIFY(laidOut(l.window->canvas()));
            QTest::qWait(500);
            QVERIFY(saveScreenshot(l.window.get(), dir + QStringLiteral("/fxscope-recording-rerun.png")));
        }
    }

    void fusionMatrixComparesTheRanks()
    {
        Loaded l;
        QVERIFY(openRecording(l));
        RecordingWidget *view = l.window->recordingView();
        QTableWidget *matrix = view->matrixView();
        QCOMPARE(matrix->columnCount(), 2);
        int silu = -1;
        for (int r = 0; r < matrix->rowCount(); ++r)
            if (matrix->verticalHeaderItem(r)->data(Qt::UserRole).toString() == QStringLiteral("__main__.rank_main.silu_pattern"))
                silu = r;
        QVERIFY(silu >= 0);
        QCOMPARE(matrix->item(silu, 0)->text(), QStringLiteral("1 (1)"));
        QCOMPARE(matrix->item(silu, 1)->text(), QStringLiteral("0 (1)"));
        QVERIFY(matrix->item(silu, 0)->background() != matrix->item((silu + 1) % matrix->rowCount(), 0)->background());
        Q_EMIT matrix->cellClicked(silu, 1);
        CompareWindow *w = waitForComparison(l);
        QVERIFY(w);
        // Rank 1's lowered graph beside rank 0's.
        QCOMPARE(l.doc->currentGraph()->name, std::string("rank1/0_0.inference/000 as the first pass saw it"));
        if (const QString dir = qEnvironmentVariable("FXSCOPE_SCREENSHOTS"); !dir.isEmpty()) {
            w->hide();
            for (QTabWidget *tabs : view->findChildren<QTabWidget *>())
                tabs->setCurrentIndex(1);
            QTest::qWait(300);
            QVERIFY(saveScreenshot(l.window.get(), dir + QStringLiteral("/fxscope-fusion-matrix.png")));
            for (QTabWidget *tabs : view->findChildren<QTabWidget *>())
                tabs->setCurrentIndex(0);
            QTreeWidgetItem *fused = stepRow(view->passesView(), QStringLiteral("rank 0 · 0_0.inference"), 3);
            fused->setExpanded(true);
            fused->child(0)->setExpanded(true);
            stepRow(view->passesView(), QStringLiteral("rank 1 · 0_0.inference"), 3)->setExpanded(true);
            stepRow(view->passesView(), QStringLiteral("rank 1 · 0_0.inference"), 3)->child(0)->setExpanded(true);
            view->passesView()->setCurrentItem(fused);
            Q_EMIT view->passesView()->itemActivated(fused, 0);
            QVERIFY(laidOut(l.window->canvas()));
            QTest::qWait(300);
            QVERIFY(saveScreenshot(l.window.get(), dir + QStringLiteral("/fxscope-recording.png")));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestRecordingView)
#include "tst_recording_view.moc"
