// The GUI on the torch host: a module:callable source opened in the window loads through the user's torch in the
// background, the dock shows exactly the chosen pass (the built-ins leave), and torch's own check agrees on every
// candidate.

#include "document.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "match/match_report.h"
#include "match/torch_check.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

class TestTorchHostGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        useTemporarySettings(m_dir, QStringLiteral("tst_torch_host_gui"));
        qputenv("PYTHONPATH", QByteArrayLiteral(FXSCOPE_TEST_DATA_DIR "/host"));
    }

    void modulePassInTheWindow()
    {
        Document doc;
        MainWindow window(&doc);
        window.resize(1600, 1000);
        window.show();
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        doc.open(QStringLiteral(FXSCOPE_TEST_DATA_DIR "/host/mlp_block.json"));
        QVERIFY(matched.wait(kTimeoutMs));
        QVERIFY(doc.matchReport()->patterns.size() > 1); // the built-in library, while nothing else is loaded

        QSignalSpy finished(&doc, &Document::torchCheckFinished);
        QSignalSpy failed(&doc, &Document::torchCheckFailed);
        QSignalSpy patternsFailed(&doc, &Document::patternsFailed);
        QElapsedTimer open;
        open.start();
        doc.openPatterns(QStringLiteral("fxscope_test_passes.debug:register"));
        QVERIFY(open.elapsed() < 2000); // torch starts in the background: the window goes on
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty() || !patternsFailed.isEmpty(), 300000);
        QVERIFY2(patternsFailed.isEmpty(), patternsFailed.isEmpty() ? "" : qPrintable(patternsFailed.first().at(1).toString()));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        QVERIFY2(doc.patternEngine().startsWith(QLatin1String("torch 2.")), qPrintable(doc.patternEngine()));

        const MatchReport &report = *doc.matchReport();
        QCOMPARE(report.patterns.size(), size_t(4)); // exactly the pass the user chose: 2 fusions x 2 dtypes
        PatternTreeModel *model = window.patternsView()->model();
        const TorchComparison *comparison = model->torchComparison();
        QVERIFY(comparison);
        QVERIFY2(comparison->disagreements.empty(),
            comparison->disagreements.empty() ? "" : comparison->disagreements.front().c_str());
        int accepted = 0;
        for (const auto &p : report.patterns)
            for (const auto &c : p.candidates)
                accepted += c.accepted;
        QCOMPARE(accepted, 2);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTorchHostGui)
#include "tst_torch_host_gui.moc"
