// The GUI end to end under QT_QPA_PLATFORM=offscreen: files open through the Document off the UI
// thread, and the main window shows what it loaded, or why it could not.

#include "document.h"
#include "gui_test_paths.h"
#include "mainwindow.h"
#include "node_filter_proxy_model.h"
#include "node_list_widget.h"
#include "node_table_model.h"
#include "recent_files.h"

#include "io/fxscope_json.h"
#include "io/loader.h"

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using namespace fxs;

namespace {

constexpr int kLoadTimeoutMs = 30000;

// A chain graph: `inputs` placeholders, `ops` call_function nodes, one output.
std::unique_ptr<Graph> chainGraph(int inputs, int ops)
{
    auto g = std::make_unique<Graph>();
    std::vector<Node *> in;
    for (int i = 0; i < inputs; ++i)
        in.push_back(g->append(OpKind::Placeholder, "arg" + std::to_string(i), "arg" + std::to_string(i)));
    Node *last = in.front();
    for (int i = 0; i < ops; ++i)
        last = g->append(OpKind::CallFunction, g->uniqueName("mul"), "torch.ops.aten.mul.Tensor",
            {Argument::ofNode(last), Argument::ofNode(in.back())});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(last)})});
    return g;
}

QString writeGraphs(
    const QTemporaryDir &dir, const QString &name, const std::vector<std::pair<std::string, int>> &graphs)
{
    GraphFile file;
    for (const auto &[graphName, ops] : graphs)
        file.graphs.push_back(NamedGraph{graphName, "test", chainGraph(2, ops), 0});
    const QString path = dir.filePath(name);
    auto status = writeFileAtomically(path.toStdString(), writeFxscopeJson(file));
    if (!status)
        qFatal("cannot write test file: %s", status.error().toString().c_str());
    return path;
}

QString writeText(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        qFatal("cannot write test file");
    return path;
}

int tableRows(const MainWindow &w)
{
    return w.nodeList()->tableView()->model()->rowCount();
}

QString labelText(const MainWindow &w, const char *name)
{
    auto *label = w.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

// Lets every load job still running finish and deliver, so a test can check what was dropped.
void drainJobs()
{
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void opensFileAndListsEveryNode();
    void graphPickerForMultiGraphFile();
    void graphOption_data();
    void graphOption();
    void unknownGraphOption();
    void errorFileShowsError_data();
    void errorFileShowsError();
    void staleAndCancelledLoadsAreDropped();
    void bundledSampleLoads();
    void failedSessionErrorOutlivesTheSample();
    void recentFiles();
    void dropOpensFile();
    void windowStateIsRestored();
    void filterNarrowsTable();
    void autosaveStaysOutOfUserData();

private:
    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Keep the user's settings out of the tests, and the tests' out of the user's.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("fxscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::autosaveStaysOutOfUserData()
{
    // The session a test window autosaves lands in Qt's test location, not the user's own last session.
    QVERIFY(QStandardPaths::isTestModeEnabled());
    const QString autosave = MainWindow::autosavePath();
    QVERIFY(!autosave.isEmpty());
    QVERIFY2(autosave.contains(QStringLiteral("/.qttest/")), qPrintable(autosave));
    const QString home = QDir::homePath();
    QVERIFY2(!autosave.startsWith(home + QStringLiteral("/.local/share/")), qPrintable(autosave));
}

void TestMainWindow::init()
{
    QSettings().clear();
}

void TestMainWindow::opensFileAndListsEveryNode()
{
    const QString path = writeGraphs(m_dir, QStringLiteral("single.json"), {{"forward", 40}});
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy loading(&doc, &Document::loadingChanged);
    doc.open(path);
    QVERIFY(doc.isLoading());
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(loaded.first().first().toString(), path);
    QVERIFY(!doc.isLoading());
    QCOMPARE(loading.count(), 2);
    QCOMPARE(loading.at(0).first().toBool(), true);
    QCOMPARE(loading.at(1).first().toBool(), false);

    QCOMPARE(doc.graphCount(), 1);
    const int nodes = int(doc.currentGraph()->graph->size());
    QCOMPARE(nodes, 2 + 40 + 1);
    QCOMPARE(tableRows(w), nodes);
    QVERIFY(!w.isGraphPickerShown());
    QCOMPARE(labelText(w, "formatLabel"), QStringLiteral("Format: fxscope_json"));
    QCOMPARE(labelText(w, "graphLabel"), QStringLiteral("Graph: forward"));
    QCOMPARE(labelText(w, "countsLabel"), QStringLiteral("43 nodes: 2 placeholder · 40 call_function · 1 output"));
    QVERIFY(w.windowTitle().startsWith(QLatin1String("single.json")));
    QVERIFY(!w.errorBox());
}

void TestMainWindow::graphPickerForMultiGraphFile()
{
    const QString path
        = writeGraphs(m_dir, QStringLiteral("multi.json"), {{"dynamo", 3}, {"aot_forward", 7}, {"post_grad", 5}});
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(path);
    QVERIFY(loaded.wait(kLoadTimeoutMs));

    QVERIFY(w.isGraphPickerShown());
    QComboBox *picker = w.graphPicker();
    QCOMPARE(picker->count(), 3);
    QCOMPARE(picker->currentIndex(), 0);
    QCOMPARE(picker->itemText(1), QStringLiteral("1  aot_forward"));
    QCOMPARE(tableRows(w), 2 + 3 + 1);

    QSignalSpy changed(&doc, &Document::currentGraphChanged);
    picker->setCurrentIndex(1);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(doc.currentGraphIndex(), 1);
    QCOMPARE(tableRows(w), 2 + 7 + 1);
    QCOMPARE(labelText(w, "graphLabel"), QStringLiteral("Graph: aot_forward"));

    // The Document drives the picker too.
    doc.setCurrentGraphIndex(2);
    QCOMPARE(picker->currentIndex(), 2);
    QCOMPARE(tableRows(w), 2 + 5 + 1);

    // A single-graph file hides the picker again.
    doc.open(writeGraphs(m_dir, QStringLiteral("one.json"), {{"only", 1}}));
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QVERIFY(!w.isGraphPickerShown());
}

void TestMainWindow::graphOption_data()
{
    QTest::addColumn<QString>("choice");
    QTest::addColumn<int>("expectedIndex");
    QTest::newRow("by name") << "post_grad" << 2;
    QTest::newRow("by index") << "1" << 1;
    QTest::newRow("none") << "" << 0;
}

void TestMainWindow::graphOption()
{
    QFETCH(QString, choice);
    QFETCH(int, expectedIndex);
    const QString path
        = writeGraphs(m_dir, QStringLiteral("multi.json"), {{"dynamo", 3}, {"aot_forward", 7}, {"post_grad", 5}});
    Document doc;
    MainWindow w(&doc);
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy notFound(&doc, &Document::graphNotFound);
    doc.open(path, choice);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(doc.currentGraphIndex(), expectedIndex);
    QCOMPARE(w.graphPicker()->currentIndex(), expectedIndex);
    QCOMPARE(tableRows(w), int(doc.currentGraph()->graph->size()));
    QCOMPARE(notFound.count(), 0);
}

void TestMainWindow::unknownGraphOption()
{
    const QString path = writeGraphs(m_dir, QStringLiteral("multi.json"), {{"dynamo", 3}, {"aot_forward", 7}});
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy notFound(&doc, &Document::graphNotFound);
    doc.open(path, QStringLiteral("backward"));
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(notFound.count(), 1);
    const QString message = notFound.first().first().toString();
    QVERIFY2(message.contains(QLatin1String("'backward'")) && message.contains(QLatin1String("1 aot_forward")),
        qPrintable(message));
    QCOMPARE(doc.currentGraphIndex(), 0);
    QVERIFY(w.errorBox());
    QCOMPARE(w.errorBox()->informativeText(), message);
}

void TestMainWindow::errorFileShowsError_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("where"); // the FILE:LINE:COL prefix the message must start with
    QTest::newRow("truncated fxscope json") << QByteArray("{\"fxscope\": 1,\n  \"graphs\": [\n") << ":3:1: ";
    QTest::newRow("empty file") << QByteArray() << ":1:1: ";
    QTest::newRow("not a graph dump") << QByteArray("hello\nworld\n") << ":1:1: ";
}

void TestMainWindow::errorFileShowsError()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, where);
    const QString good = writeGraphs(m_dir, QStringLiteral("good.json"), {{"forward", 4}});
    const QString bad = writeText(m_dir, QStringLiteral("bad.json"), content);
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy failed(&doc, &Document::loadFailed);
    doc.open(good);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    const int rowsBefore = tableRows(w);

    doc.open(bad);
    QVERIFY(failed.wait(kLoadTimeoutMs));
    QCOMPARE(failed.first().at(0).toString(), bad);
    const QString message = failed.first().at(1).toString();
    QVERIFY2(message.startsWith(bad + where), qPrintable(message));

    QVERIFY(w.errorBox());
    QVERIFY(w.errorBox()->isVisible());
    QCOMPARE(w.errorBox()->informativeText(), message);
    QVERIFY(w.errorBox()->text().contains(QLatin1String("bad.json")));
    // The file shown before stays shown.
    QCOMPARE(doc.path(), good);
    QCOMPARE(tableRows(w), rowsBefore);
    QVERIFY(!doc.isLoading());
}

void TestMainWindow::staleAndCancelledLoadsAreDropped()
{
    const QString big = writeGraphs(m_dir, QStringLiteral("big.json"), {{"big", 20000}});
    const QString small = writeGraphs(m_dir, QStringLiteral("small.json"), {{"small", 2}});
    Document doc;
    MainWindow w(&doc);
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy canceled(&doc, &Document::loadCanceled);

    // A second request supersedes the first, whichever job finishes first.
    const quint64 first = doc.open(big);
    const quint64 second = doc.open(small);
    QVERIFY(second > first);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    drainJobs();
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(doc.path(), small);
    QCOMPARE(tableRows(w), 2 + 2 + 1);

    // A cancelled load leaves the shown file alone and never reports.
    doc.open(big);
    QVERIFY(doc.isLoading());
    doc.cancelLoad();
    QCOMPARE(canceled.count(), 1);
    QCOMPARE(canceled.first().first().toString(), big);
    QVERIFY(!doc.isLoading());
    drainJobs();
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(doc.path(), small);
    QCOMPARE(tableRows(w), 2 + 2 + 1);
}

void TestMainWindow::bundledSampleLoads()
{
    // Count the sample's nodes independently of the parser: parameters in the def line, one
    // annotated assignment per node, and the output.
    QFile sample(Document::bundledSamplePath());
    {
        Document initResources; // the resources are registered by the first Document
    }
    QVERIFY(sample.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(sample.readAll());
    const int params = int(text.count(QRegularExpression(QStringLiteral("\\barg\\d+_1: \""))));
    const int ops = int(text.count(
        QRegularExpression(QStringLiteral("(?m)^        \\w+: \"[^\"]+\" = torch\\.ops\\.\\w+\\.\\w+\\.\\w+\\("))));
    QCOMPARE(params, 14);
    QVERIFY(ops > 50);

    Document doc;
    MainWindow w(&doc);
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy failed(&doc, &Document::loadFailed);
    doc.openBundledSample();
    QVERIFY(loaded.wait(kLoadTimeoutMs) || !failed.isEmpty());
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QVERIFY(doc.isBundledSample());
    QCOMPARE(QString::fromStdString(doc.file()->format), QStringLiteral("readable"));
    QCOMPARE(doc.graphCount(), 1);
    QCOMPARE(int(doc.currentGraph()->graph->size()), params + ops + 1);
    QCOMPARE(tableRows(w), params + ops + 1);
    QVERIFY(w.windowTitle().contains(QLatin1String("bundled sample")));

    // The residual add feeds both the first RMSNorm and the second residual add (the add + rms_norm
    // fusion's shape), and the table says so.
    const NodeTableModel *model = w.nodeList()->model();
    const int addRow = model->rowOfNode(QStringLiteral("add"));
    QVERIFY(addRow >= 0);
    QCOMPARE(model->index(addRow, NodeTableModel::UsersColumn).data().toInt(), 2);
    QCOMPARE(model->index(addRow, NodeTableModel::ValueColumn).data().toString(), QStringLiteral("f16[1, 128, 4096]"));
    QCOMPARE(model->index(addRow, NodeTableModel::SourceColumn).data().toString(), QStringLiteral("model.py:112"));
    // The bundled sample is not a recent file.
    QVERIFY(RecentFiles::list().isEmpty());
}

// `fxscope --open-session broken.fxsession` opens the sample after the error: the error stays in sight.
void TestMainWindow::failedSessionErrorOutlivesTheSample()
{
    const QString broken = writeText(m_dir, QStringLiteral("broken.fxsession"), "{\"fxscope_session\": 1, \"graph_pa");
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QVERIFY(!w.openSession(broken));
    doc.openBundledSample();
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QVERIFY(w.errorBox());
    QVERIFY(w.errorBox()->isVisible());
    QVERIFY2(w.errorBox()->informativeText().startsWith(broken + QLatin1String(":1:")),
        qPrintable(w.errorBox()->informativeText()));
}

void TestMainWindow::recentFiles()
{
    const QString a = writeGraphs(m_dir, QStringLiteral("a.json"), {{"a", 1}});
    const QString b = writeGraphs(m_dir, QStringLiteral("b.json"), {{"b", 1}});
    Document doc;
    MainWindow w(&doc);
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    for (const QString &path : {a, b, a}) {
        doc.open(path);
        QVERIFY(loaded.wait(kLoadTimeoutMs));
    }
    QCOMPARE(RecentFiles::list(), (QStringList{a, b}));
    for (int i = 0; i < RecentFiles::kMaxEntries + 3; ++i)
        RecentFiles::add(m_dir.filePath(QStringLiteral("f%1.json").arg(i)));
    QCOMPARE(RecentFiles::list().size(), RecentFiles::kMaxEntries);
    RecentFiles::clear();
    QVERIFY(RecentFiles::list().isEmpty());
}

void TestMainWindow::dropOpensFile()
{
    const QString path = writeGraphs(m_dir, QStringLiteral("dropped.json"), {{"forward", 6}});
    Document doc;
    MainWindow w(&doc);
    w.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.ignore();
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(doc.path(), path);
    QCOMPARE(tableRows(w), 2 + 6 + 1);

    QMimeData text;
    text.setText(QStringLiteral("not a file"));
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.ignore();
    QApplication::sendEvent(&w, &refused);
    QVERIFY(!refused.isAccepted());
}

void TestMainWindow::windowStateIsRestored()
{
    Document doc;
    {
        MainWindow w(&doc);
        w.resize(980, 720); // above the docks' minimum size
        w.show();
        w.nodeList()->tableView()->setColumnWidth(NodeTableModel::TargetColumn, 333);
        w.close();
    }
    MainWindow restored(&doc);
    restored.show();
    QCOMPARE(restored.size(), QSize(980, 720));
    QCOMPARE(restored.nodeList()->tableView()->columnWidth(NodeTableModel::TargetColumn), 333);
}

void TestMainWindow::filterNarrowsTable()
{
    const QString path = writeGraphs(m_dir, QStringLiteral("filter.json"), {{"forward", 12}});
    Document doc;
    MainWindow w(&doc);
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(path);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    w.nodeList()->filterEdit()->setText(QStringLiteral("mul_1"));
    // mul_1, mul_10, mul_11
    QCOMPARE(tableRows(w), 3);
    QCOMPARE(labelText(w, "nodeCount"), QStringLiteral("3 of 15 nodes"));
    w.nodeList()->filterEdit()->clear();
    QCOMPARE(tableRows(w), 15);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
