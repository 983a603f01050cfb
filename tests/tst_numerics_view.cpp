// Numerics per fusion in the window (issue 25): the Patterns dock's Numerics button runs each accepted candidate's
// fusion against the nodes it replaces off the UI thread; the Numerics column says which differ, the details say
// where, and a differing candidate's region is coloured as a disagreement on the canvas; near-miss hints show in the
// details of the pattern and of the candidate they would make match. With FXSCOPE_SCREENSHOTS
// set, the picture for docs/ is taken.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "match/match_report.h"

#include <QDir>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

namespace {

QString data(const char *name)
{
    return QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/numerics/") + QLatin1String(name);
}

int candidateOf(const MatchReport &report, const std::string &anchor)
{
    for (const auto &c : report.patterns.front().candidates)
        if (c.anchor == anchor)
            return int(&c - report.patterns.front().candidates.data());
    return -1;
}

// The window as the screenshots show it, with room in the Patterns dock for the Numerics column.
void showWindow(MainWindow &window)
{
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    window.resizeDocks({window.patternsDock()}, {720}, Qt::Horizontal);
}

} // namespace

class TestNumericsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        useTemporarySettings(m_dir, QStringLiteral("tst_numerics_view"));
    }

    void numericsColumnAndRegion()
    {
        Document doc;
        MainWindow window(&doc);
        showWindow(window);
        QSignalSpy torchChecked(&doc, &Document::torchCheckFinished);
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        doc.open(data("silu_and_gate.json"));
        QVERIFY(matched.wait(kTimeoutMs));
        QSignalSpy patternsFailed(&doc, &Document::patternsFailed);
        matched.clear();
        doc.openPatterns(data("silu_too_wide.py"));
        QTRY_VERIFY_WITH_TIMEOUT(!patternsFailed.isEmpty()
                || (doc.matchReport() && doc.matchReport()->patterns.size() == 1
                    && doc.matchReport()->patterns.front().name == "silu_too_wide.silu"),
            300000);
        QVERIFY(patternsFailed.isEmpty());
        PatternsWidget *patterns = window.patternsView();
        QVERIFY(patterns->treeView()->isColumnHidden(PatternTreeModel::NumericsColumn)); // until asked for

        QSignalSpy finished(&doc, &Document::numericsFinished);
        QElapsedTimer clock;
        clock.start();
        patterns->numericsButton()->click();
        QVERIFY(clock.elapsed() < 2000); // off the UI thread
        QVERIFY(!patterns->treeView()->isColumnHidden(PatternTreeModel::NumericsColumn));
        QVERIFY(finished.wait(300000));

        const MatchReport &report = *doc.matchReport();
        PatternTreeModel *model = patterns->model();
        const int gate = candidateOf(report, "mul_1"), silu = candidateOf(report, "mul");
        QVERIFY(gate >= 0 && silu >= 0);
        const QModelIndex gateNumerics = model->candidateIndex(0, gate).siblingAtColumn(PatternTreeModel::NumericsColumn);
        QCOMPARE(gateNumerics.data().toString(), QStringLiteral("≠ differs"));
        QCOMPARE(gateNumerics.data(PatternTreeModel::NumericsEqualRole).toBool(), false);
        QVERIFY(gateNumerics.data(Qt::ToolTipRole).toString().contains(QStringLiteral("mul_1 differs first at")));
        QCOMPARE(model->candidateIndex(0, silu).siblingAtColumn(PatternTreeModel::NumericsColumn).data().toString(),
            QStringLiteral("= equal"));

        // The differing candidate: details say where, the canvas colours its region as a disagreement.
        window.showCandidate(0, gate);
        QVERIFY(patterns->detailsView()->toPlainText().contains(QStringLiteral("numerics mul_1 differs first at")));
        QCOMPARE(window.canvas()->matchMark(QStringLiteral("mul_1")), CanvasMatchMark::Disagreeing);
        window.showCandidate(0, silu);
        QCOMPARE(window.canvas()->matchMark(QStringLiteral("mul")), CanvasMatchMark::Matched);

        // Stepping the differing fusion: its history entry says so.
        QSignalSpy revision(&doc, &Document::revisionChanged);
        doc.runToEnd();
        QVERIFY(revision.wait(300000));
        const QStringList history = doc.historyTexts();
        QCOMPARE(history.size(), 2);
        for (const QString &step : history)
            QCOMPARE(step.contains(QStringLiteral("≠ numerics differ")), step.contains(QStringLiteral("@ mul_1 ")));

        const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
        if (!folder.isEmpty()) {
            QTRY_VERIFY_WITH_TIMEOUT(!torchChecked.isEmpty(), 300000); // the Torch column filled in the picture
            window.showCandidate(0, gate);
            QTest::qWait(500);
            QVERIFY(saveScreenshot(&window, QDir(folder).filePath(QStringLiteral("fxscope-numerics.png"))));
        }
    }

    // A candidate its extra_check refused gets the numerics of its fusion as if the check had accepted ("if fused"):
    // the too-wide SiLU's check keeps out the gated unit, whose fusion would differ.
    void refusedCandidateIfFused()
    {
        Document doc;
        MainWindow window(&doc);
        showWindow(window);
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        doc.open(data("silu_and_gate.json"));
        QVERIFY(matched.wait(kTimeoutMs));
        doc.openPatterns(data("silu_too_wide_checked.py"));
        QTRY_VERIFY_WITH_TIMEOUT(doc.matchReport() && doc.matchReport()->patterns.size() == 1
                && doc.matchReport()->patterns.front().name == "silu_too_wide_checked.silu",
            300000);
        PatternsWidget *patterns = window.patternsView();
        QSignalSpy finished(&doc, &Document::numericsFinished);
        patterns->numericsButton()->click();
        QVERIFY(finished.wait(300000));
        const MatchReport &report = *doc.matchReport();
        const int gate = candidateOf(report, "mul_1"), silu = candidateOf(report, "mul");
        QVERIFY(gate >= 0 && silu >= 0);
        QVERIFY(!report.patterns.front().candidates[size_t(gate)].accepted);
        const QModelIndex gateNumerics
            = patterns->model()->candidateIndex(0, gate).siblingAtColumn(PatternTreeModel::NumericsColumn);
        QCOMPARE(gateNumerics.data().toString(), QStringLiteral("if fused: ≠ differs"));
        QVERIFY(gateNumerics.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Refused by its extra_check")));
        QCOMPARE(patterns->model()->candidateIndex(0, silu).siblingAtColumn(PatternTreeModel::NumericsColumn).data().toString(),
            QStringLiteral("= equal"));
        window.showCandidate(0, gate);
        QVERIFY(patterns->detailsView()->toPlainText().contains(
            QStringLiteral("numerics if extra_check accepted: mul_1 differs first at")));
        const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
        if (!folder.isEmpty()) {
            QTest::qWait(500);
            QVERIFY(saveScreenshot(&window, QDir(folder).filePath(QStringLiteral("fxscope-numerics-refused.png"))));
        }
    }

    // Near-miss hints (issue 25, item 2) in the details: the pattern's, and a candidate's own.
    void nearMissHintsInTheDetails()
    {
        Document doc;
        MainWindow window(&doc);
        showWindow(window);
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        const QString nearMiss = QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/near_miss/");
        doc.open(nearMiss + QStringLiteral("silu_gate_reused.json"));
        QVERIFY(matched.wait(kTimeoutMs));
        QSignalSpy patternsFailed(&doc, &Document::patternsFailed);
        doc.openPatterns(nearMiss + QStringLiteral("outside_near.py"));
        QTRY_VERIFY_WITH_TIMEOUT(!patternsFailed.isEmpty()
                || (doc.matchReport() && doc.matchReport()->patterns.size() == 1
                    && !doc.matchReport()->patterns.front().hints.empty()),
            300000);
        QVERIFY(patternsFailed.isEmpty());
        const MatchReport &report = *doc.matchReport();
        PatternsWidget *patterns = window.patternsView();
        // The pattern's row says a hint exists; its details say what it is.
        QVERIFY(patterns->model()->index(0, PatternTreeModel::DetailColumn).data().toString().startsWith(
            QStringLiteral("hint: would match 1 of 2 · ")));
        patterns->treeView()->setCurrentIndex(patterns->treeView()->model()->index(0, 0));
        QVERIFY(patterns->detailsView()->toPlainText().contains(QStringLiteral("would match 1 of 2 candidates")));
        window.showCandidate(0, candidateOf(report, "mul_1"));
        const QString details = patterns->detailsView()->toPlainText();
        QVERIFY2(details.contains(QStringLiteral("return it from search_fn and replace_fn as a further output"))
                && details.contains(QStringLiteral("outside_near.py:9")),
            qPrintable(details));
        const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
        if (!folder.isEmpty()) {
            window.resizeDocks({window.patternsDock()}, {900}, Qt::Horizontal);
            QTest::qWait(300);
            patterns->detailsView()->verticalScrollBar()->setValue(patterns->detailsView()->verticalScrollBar()->maximum());
            QTest::qWait(300);
            QVERIFY(saveScreenshot(&window, QDir(folder).filePath(QStringLiteral("fxscope-near-miss.png"))));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestNumericsView)
#include "tst_numerics_view.moc"
