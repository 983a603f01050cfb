// Sessions, under QT_QPA_PLATFORM=offscreen: a session file round-trips and bad ones fail with FILE:LINE:COL; a saved
// session (graph, a user's pattern file, two steps, a candidate, a selected node, the view) comes back whole in a new
// window; and the session autosaved by the real fxscope binary survives a kill -9.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"
#include "session_state.h"

#include "ir/canonical_printer.h"
#include "ir/graph.h"
#include "match/match_report.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

class TestSessionRestore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void roundTrip();
    void badFiles_data();
    void badFiles();
    void savedSessionComesBack();
    void autosaveSurvivesKill();
    void patternsFromCommandLine();

private:
    QTemporaryDir m_dir;
};

void TestSessionRestore::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_session_restore"));
}

void TestSessionRestore::roundTrip()
{
    SessionState s;
    s.graphPath = QStringLiteral("/data/graph dumps/gpt2.py");
    s.graph = QStringLiteral("[0/1] inductor_post_grad_graph");
    s.patternFiles = {QStringLiteral("/p/a.py"), QStringLiteral("/p/b.json")};
    s.revision = 7;
    s.candidatePattern = QStringLiteral("rms_norm");
    s.candidateAnchor = QStringLiteral("mul_7");
    s.selectedNode = QStringLiteral("add_3");
    s.zoom = 0.75;
    s.centreX = 120.5;
    s.centreY = -40;
    s.expandedGroups = {QStringLiteral("model.layers.0"), QStringLiteral("héad")};
    s.profileDevice = QStringLiteral("npu:1");
    s.profileIters = 250;
    s.profileWarmup = 0;
    s.profileSymbols = {{"s0", 4096}, {"s10", 0}, {"u2", 3}};
    const QString path = m_dir.filePath(QStringLiteral("round.fxsession"));
    QVERIFY(saveSessionFile(path, s));
    auto back = loadSessionFile(path);
    QVERIFY2(back, back ? "" : back.error().toString().c_str());
    QCOMPARE(back->graphPath, s.graphPath);
    QCOMPARE(back->graph, s.graph);
    QCOMPARE(back->patternFiles, s.patternFiles);
    QCOMPARE(back->revision, 7);
    QCOMPARE(back->candidatePattern, s.candidatePattern);
    QCOMPARE(back->candidateAnchor, s.candidateAnchor);
    QCOMPARE(back->selectedNode, s.selectedNode);
    QCOMPARE(back->zoom, 0.75);
    QCOMPARE(back->centreX, 120.5);
    QCOMPARE(back->centreY, -40.0);
    QCOMPARE(back->expandedGroups, s.expandedGroups);
    QCOMPARE(back->profileDevice, s.profileDevice);
    QCOMPARE(back->profileIters, 250);
    QCOMPARE(back->profileWarmup, 0);
    QCOMPARE(back->profileSymbols, s.profileSymbols);
    // A session from before the dock's settings were saved: none, so the dock keeps its own.
    auto older = SessionState::fromJson(R"({"fxscope_session": 1, "graph_path": "a.py"})", "old.fxsession");
    QVERIFY(older);
    QVERIFY(older->profileDevice.isEmpty());
    QVERIFY(!QFile::exists(path + QLatin1String(".tmp"))); // nothing left over from the atomic write
}

void TestSessionRestore::badFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << QByteArray("{\"fxscope_session\": 1,\n  \"graph_path\": }") << "s.fxsession:2:17:";
    QTest::newRow("no version") << QByteArray("{\"graph_path\": \"a.py\"}")
                                << "s.fxsession:1:1: expected \"fxscope_session\"";
    QTest::newRow("future version") << QByteArray("{\"fxscope_session\": 9, \"graph_path\": \"a.py\"}")
                                    << "s.fxsession:1:21: expected session version 1, found 9";
    QTest::newRow("no graph") << QByteArray("{\"fxscope_session\": 1}") << "s.fxsession:1:1: expected a \"graph_path\"";
    QTest::newRow("revision") << QByteArray("{\"fxscope_session\": 1, \"graph_path\": \"a.py\",\n\"revision\": -2}")
                              << "s.fxsession:2:13: expected \"revision\" to be a step count";
    QTest::newRow("centre") << QByteArray(
        "{\"fxscope_session\": 1, \"graph_path\": \"a.py\", \"view\": {\"centre\": [1]}}")
                            << "s.fxsession:1:65: expected \"centre\" to be [x, y]";
    const QByteArray head = "{\"fxscope_session\": 1, \"graph_path\": \"a.py\",\n\"profile\": ";
    QTest::newRow("profile") << head + "[]}"
                             << "s.fxsession:2:12: expected \"profile\" to be an object";
    QTest::newRow("profile device") << head + "{\"iterations\": 3}}"
                                    << "s.fxsession:2:12: expected a \"device\" string, found none";
    QTest::newRow("profile iterations") << head + "{\"device\": \"cpu\", \"iterations\": 0}}"
                                        << "s.fxsession:2:44: expected \"iterations\" to be a whole number from 1";
    QTest::newRow("profile warmup") << head + "{\"device\": \"cpu\", \"warmup\": 2.5}}"
                                    << "s.fxsession:2:40: expected \"warmup\" to be a whole number from 0";
    QTest::newRow("profile symbol") << head + "{\"device\": \"cpu\", \"symbols\": {\"s0\": -4}}}"
                                    << "s.fxsession:2:48: expected a symbol's value";
    QTest::newRow("profile symbol name") << head + "{\"device\": \"cpu\", \"symbols\": {\"2x\": 4}}}"
                                         << "s.fxsession:2:48: expected a symbol's value";
}

void TestSessionRestore::badFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    auto state = SessionState::fromJson(std::string_view(text.constData(), size_t(text.size())), "s.fxsession");
    QVERIFY(!state);
    const QString message = QString::fromStdString(state.error().toString());
    QVERIFY2(message.startsWith(expected), qPrintable(message));
}

void TestSessionRestore::savedSessionComesBack()
{
    const QString patternPath = m_dir.filePath(QStringLiteral("rotary_mul.py"));
    {
        QFile f(patternPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kRotaryPatternFile);
    }
    const QString sessionPath = m_dir.filePath(QStringLiteral("saved.fxsession"));
    std::string savedGraph;
    QPointF savedCentre;
    qreal savedZoom = 0;
    QString savedAnchor;
    {
        Document doc;
        MainWindow window(&doc);
        window.setAutosavePath({});
        window.setGeometry(0, 0, 1600, 1000);
        window.show();
        QVERIFY(openSampleAndMatch(&doc));
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        doc.openPatterns(QStringLiteral("builtin")); // chosen: they stay beside the file, and the session says so
        doc.openPatterns(patternPath);
        QVERIFY(matched.wait(kTimeoutMs));
        QTRY_COMPARE_WITH_TIMEOUT(doc.patternFiles().size(), 2, kTimeoutMs);
        QVERIFY(settle(&doc));
        doc.step();
        doc.step();
        QVERIFY(settle(&doc));
        QCOMPARE(doc.revision(), 2);
        QVERIFY(laidOut(window.canvas()));
        // The rotary candidate the extra_check rejected, on the revision shown.
        const MatchReport &report = *doc.matchReport();
        int pattern = -1, candidate = -1;
        for (size_t p = 0; p < report.patterns.size(); ++p)
            for (size_t c = 0; c < report.patterns[p].candidates.size(); ++c)
                if (report.patterns[p].candidates[c].stage == MatchStage::ExtraCheck && pattern < 0) {
                    pattern = int(p);
                    candidate = int(c);
                }
        QVERIFY(pattern >= 0);
        window.showCandidate(pattern, candidate);
        savedAnchor = QString::fromStdString(report.patterns[size_t(pattern)].candidates[size_t(candidate)].anchor);
        QVERIFY(laidOut(window.canvas()));
        window.canvas()->zoomOut();
        QVERIFY(window.saveSession(sessionPath));
        savedGraph = printCanonical(*doc.currentGraphShared());
        savedCentre = window.canvas()->viewCentre();
        savedZoom = window.canvas()->zoom();
    }

    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QSignalSpy restored(&window, &MainWindow::sessionRestored);
    QVERIFY(window.openSession(sessionPath));
    QVERIFY(restored.wait(kTimeoutMs));
    QCOMPARE(restored.first().first().toBool(), true);
    // Both sources, in the order their loads finished; the built-ins stand first in the registry either way.
    QStringList files = doc.patternFiles();
    files.sort();
    QCOMPARE(files, QStringList({patternPath, QStringLiteral("builtin")}));
    QCOMPARE(doc.revision(), 2);
    QCOMPARE(printCanonical(*doc.currentGraphShared()), savedGraph);
    const auto [pattern, candidate] = window.patternsView()->currentCandidate();
    QVERIFY(pattern >= 0);
    const Verdict &v = doc.matchReport()->patterns[size_t(pattern)].candidates[size_t(candidate)];
    QCOMPARE(QString::fromStdString(v.anchor), savedAnchor);
    QCOMPARE(v.stage, MatchStage::ExtraCheck);
    QVERIFY(laidOut(window.canvas()));
    QTRY_COMPARE(window.canvas()->selectedNode(), savedAnchor);
    QCOMPARE(window.canvas()->zoom(), savedZoom);
    QVERIFY2(QLineF(window.canvas()->viewCentre(), savedCentre).length() < 2 / savedZoom,
        qPrintable(QStringLiteral("%1,%2 vs %3,%4")
                       .arg(window.canvas()->viewCentre().x())
                       .arg(window.canvas()->viewCentre().y())
                       .arg(savedCentre.x())
                       .arg(savedCentre.y())));
}

// The real fxscope binary with these arguments, offscreen, its data and settings in `home`; where it autosaves.
QString startFxscope(QProcess &fxscope, const QTemporaryDir &home, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    fxscope.setProcessEnvironment(env);
    fxscope.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope"), args);
    return home.filePath(QStringLiteral("data/fxscope/fxscope/last-session.fxsession"));
}

void TestSessionRestore::autosaveSurvivesKill()
{
    // The real binary, its data folder in a temporary one; killed without a chance to save anything at exit.
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString graph = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
    QProcess fxscope;
    const QString autosave = startFxscope(fxscope, home, {graph});
    QVERIFY(fxscope.waitForStarted(kTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), kTimeoutMs);
    fxscope.kill(); // SIGKILL
    QVERIFY(fxscope.waitForFinished(kTimeoutMs));
    QCOMPARE(fxscope.exitStatus(), QProcess::CrashExit);
    auto state = loadSessionFile(autosave);
    QVERIFY2(state, state ? "" : state.error().toString().c_str());
    QCOMPARE(state->graphPath, graph);
    QVERIFY(state->zoom > 0);

    // And it restores.
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy restored(&window, &MainWindow::sessionRestored);
    QVERIFY(window.openSession(autosave));
    QVERIFY(restored.wait(kTimeoutMs));
    QCOMPARE(doc.path(), graph);
}

// `fxscope GRAPH --patterns FILE --patterns builtin` (issue 17): the file loads as from File > Open Patterns, and the
// session autosaved by the real binary lists it.
void TestSessionRestore::patternsFromCommandLine()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString patterns = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/patterns/rms_norm.py");
    QProcess fxscope;
    const QString autosave = startFxscope(fxscope, home,
        {QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"), QStringLiteral("--patterns"), patterns,
            QStringLiteral("--patterns"), QStringLiteral("builtin")});
    QVERIFY(fxscope.waitForStarted(kTimeoutMs));
    auto listed = [&] {
        auto state = QFile::exists(autosave) ? loadSessionFile(autosave) : decltype(loadSessionFile(autosave))(Error{});
        // Both chosen sources, as they finished loading.
        return state && state->patternFiles.size() == 2 && state->patternFiles.contains(patterns)
            && state->patternFiles.contains(QStringLiteral("builtin"));
    };
    QTRY_VERIFY_WITH_TIMEOUT(listed(), kTimeoutMs);
    fxscope.kill();
    QVERIFY(fxscope.waitForFinished(kTimeoutMs));
}

QTEST_MAIN(TestSessionRestore)
#include "tst_session_restore.moc"
