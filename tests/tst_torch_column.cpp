// The Patterns dock's Torch column: with Python pattern files and a Python with torch, Inductor's real
// PatternMatcherPass checks each report in the background (python -m fxscope_capture.inductor_check, as
// fxscope-cli match --check-with-torch runs it) and the tree says per candidate whether torch agrees.

#include "document.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "match/match_report.h"
#include "match/torch_check.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

class TestTorchColumn : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rmsNormAgrees();
    void failureIsOneLine();

private:
    QTemporaryDir m_dir;
};

void TestTorchColumn::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_torch_column"));
    if (Document::torchPython().isEmpty())
        QSKIP("no Python with torch known (FXSCOPE_PYTHON, or the one fxscope was built with)");
}

void TestTorchColumn::rmsNormAgrees()
{
    Document doc;
    MainWindow window(&doc);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy matched(&doc, &Document::matchReportChanged);
    doc.open(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"));
    QVERIFY(matched.wait(kTimeoutMs));
    PatternsWidget *patterns = window.patternsView();
    // The built-ins alone: no Python pattern file, no check, no column.
    QVERIFY(!doc.isCheckingWithTorch());
    QVERIFY(patterns->treeView()->isColumnHidden(PatternTreeModel::TorchColumn));

    QSignalSpy started(&doc, &Document::torchCheckStarted);
    QSignalSpy finished(&doc, &Document::torchCheckFinished);
    QSignalSpy failed(&doc, &Document::torchCheckFailed);
    // The built-ins chosen too (they stay only when chosen): fxscope matches both, torch registers the file alone.
    doc.openPatterns(QStringLiteral("builtin"));
    doc.openPatterns(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/patterns/rms_norm.py"));
    QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), kTimeoutMs);
    PatternTreeModel *model = patterns->model();
    QCOMPARE(model->report(), doc.matchReport().get());
    // Running: the column shows, each candidate reads "…", and the UI goes on.
    QVERIFY(!patterns->treeView()->isColumnHidden(PatternTreeModel::TorchColumn));
    QCOMPARE(model->headerData(PatternTreeModel::TorchColumn, Qt::Horizontal).toString(), QStringLiteral("Torch"));
    // The file's first pattern (rms_norm.py's rms_norm; the built-in rms_norm keeps the name, so it shows renamed).
    int rms = -1;
    for (int p = 0; p < int(model->report()->patterns.size()) && rms < 0; ++p)
        if (model->report()->patterns[size_t(p)].source.find("rms_norm.py") != std::string::npos)
            rms = p;
    QVERIFY(rms >= 0);
    if (finished.isEmpty())
        QCOMPARE(model->candidateIndex(rms, 0).siblingAtColumn(PatternTreeModel::TorchColumn).data().toString(),
            QStringLiteral("…"));

    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), kTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(model->torchState(), PatternTreeModel::TorchState::Done);
    QVERIFY(!patterns->treeView()->isColumnHidden(PatternTreeModel::TorchColumn));

    // torch's pass registers the pattern files alone, so its comparison is with fxscope's verdicts for them alone.
    const TorchComparison *comparison = model->torchComparison();
    QVERIFY(comparison);
    QVERIFY2(comparison->disagreements.empty(),
        comparison->disagreements.empty() ? "" : comparison->disagreements.front().c_str());
    // Every candidate row of the file's patterns reads "agrees", whatever its verdict.
    int rows = 0;
    for (int q = rms; q < int(model->report()->patterns.size()); ++q) {
        const PatternReport &p = model->report()->patterns[size_t(q)];
        QVERIFY(p.source.find("rms_norm.py") != std::string::npos);
        for (int c = 0; c < int(p.candidates.size()); ++c, ++rows) {
            const QModelIndex torch = model->candidateIndex(q, c).siblingAtColumn(PatternTreeModel::TorchColumn);
            QCOMPARE(torch.data(PatternTreeModel::TorchAgreesRole).toBool(), true);
            QCOMPARE(torch.data().toString(), QStringLiteral("agrees"));
        }
    }
    QVERIFY(rows > 0);
    // The accepted rms_norm candidates: alone, rms_norm accepts the sample's two RMSNorms and torch replaces both;
    // here the built-in rms_norm_cast takes them first, which the dock's line says.
    QStringList accepted;
    for (const std::string &a : comparison->acceptedAloneOnly)
        accepted << QString::fromStdString(a);
    accepted.sort();
    QCOMPARE(accepted, QStringList({QStringLiteral("rms_norm @ mul_1"), QStringLiteral("rms_norm @ mul_7")}));
    QVERIFY2(patterns->torchMessage()->isVisible() && patterns->torchMessage()->text().contains(QLatin1String("agrees"))
            && patterns->torchMessage()->text().contains(QLatin1String("rms_norm @ mul_7")),
        qPrintable(patterns->torchMessage()->text()));
    // The built-ins are fxscope's own: torch's check does not register them, so their column is empty.
    QVERIFY(rms > 0);
    if (!model->report()->patterns[0].candidates.empty())
        QVERIFY(model->candidateIndex(0, 0).siblingAtColumn(PatternTreeModel::TorchColumn).data().toString().isEmpty());
}

void TestTorchColumn::failureIsOneLine()
{
    // A Python without fxscope_capture's check (here: one that fails at once) says so in one line, no dialog.
    qputenv("FXSCOPE_PYTHON", "/bin/false");
    Document doc;
    MainWindow window(&doc);
    window.show();
    QSignalSpy matched(&doc, &Document::matchReportChanged);
    doc.open(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"));
    QVERIFY(matched.wait(kTimeoutMs));
    QSignalSpy failed(&doc, &Document::torchCheckFailed);
    doc.openPatterns(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/patterns/rms_norm.py"));
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), kTimeoutMs);
    qunsetenv("FXSCOPE_PYTHON");
    PatternsWidget *patterns = window.patternsView();
    QCOMPARE(patterns->model()->torchState(), PatternTreeModel::TorchState::Failed);
    QVERIFY(patterns->treeView()->isColumnHidden(PatternTreeModel::TorchColumn));
    QVERIFY(patterns->torchMessage()->isVisible());
    QVERIFY(!patterns->torchMessage()->text().contains(QLatin1Char('\n')));
    QVERIFY2(patterns->torchMessage()->text().contains(QLatin1String("exit status 1")),
        qPrintable(patterns->torchMessage()->text()));
    QVERIFY(QApplication::topLevelWidgets().size() >= 1);
    for (QWidget *w : QApplication::topLevelWidgets())
        QVERIFY2(!(w->isVisible() && w->inherits("QMessageBox")), "a dialog opened");
}

QTEST_MAIN(TestTorchColumn)
#include "tst_torch_column.moc"
