// The Profile dock, under QT_QPA_PLATFORM=offscreen: ProfileModel passes QAbstractItemModelTester in both modes and
// pairs node times and fused regions as the report and the diff say; a real profile through the LibTorch runtime
// (a tiny SwiGLU graph, fused by the built-in swiglu pattern) fills the table, the chart and the canvas overlay;
// Cancel stops a long run inside LibTorch, as do opening another file and closing the window.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_graph_widget.h"
#include "profile_model.h"
#include "profile_widget.h"
#include "session_state.h"

#include "ir/graph.h"
#include "runtime/runtime_library.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QToolButton>
#include <QtTest>

#include <map>

using namespace fxs;

namespace {
constexpr int kTimeoutMs = 120000;

constexpr char kSwiglu[] = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 16]", arg1_1: "f32[2, 16]"):
        silu: "f32[2, 16]" = torch.ops.aten.silu.default(arg0_1);  arg0_1 = None
        mul: "f32[2, 16]" = torch.ops.aten.mul.Tensor(silu, arg1_1);  silu = arg1_1 = None
        add: "f32[2, 16]" = torch.ops.aten.add.Tensor(mul, mul);  mul = None
        return (add,)
)";

// A chain of `length` adds: a run that takes minutes at 100,000 iterations unless it is stopped.
QByteArray chainGraph(int length)
{
    QByteArray text = "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[64]\"):\n";
    QByteArray previous = "x";
    for (int i = 0; i < length; ++i) {
        const QByteArray name = "add_" + QByteArray::number(i);
        text += "        " + name + ": \"f32[64]\" = torch.ops.aten.add.Tensor(" + previous + ", 1)\n";
        previous = name;
    }
    return text + "        return (" + previous + ",)\n";
}

// Waits for the next signal of the profile run just started: empty when it finished, else why not. Either spy
// may hold signals of earlier runs.
QString profileOutcome(QSignalSpy &finished, QSignalSpy &failed, int timeoutMs = kTimeoutMs)
{
    const qsizetype finishedBefore = finished.size();
    const qsizetype failedBefore = failed.size();
    if (!QTest::qWaitFor([&] { return finished.size() > finishedBefore || failed.size() > failedBefore; }, timeoutMs))
        return QStringLiteral("no result after %1 ms").arg(timeoutMs);
    return failed.size() > failedBefore ? failed.last().first().toString() : QString();
}
} // namespace

class TestProfileView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelPairsNodesAndRegions();
    void profilesUnfusedAndFused();
    void exportsTraceAndCsv();
    void settingsSurviveTheSession();
    void symbolsReachTheRun();
    void symbolHintsPrefillTheField();
    void failureShowsWhatRan();
    void olderTorchGraphShowsStandIns();
    void cancelStopsTheRun();
    void openingAnotherFileCancels();
    void closingTheWindowCancels();
    void destroyingTheDocumentStopsTheRun();
    // Last: the emulated NPU stays registered in this process.
    void devicePluginAddsTheNpu();
    void screenshot();

private:
    QString writeGraph();
    QString writeChain();
    QString writeFile(const QString &name, const QByteArray &text);
    bool openFused(Document &doc);
    QTemporaryDir m_dir;
};

void TestProfileView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    test::useTemporarySettings(m_dir, QStringLiteral("tst_profile_view"));
}

// Opens the SwiGLU graph in `doc` and fuses it (one step), waiting for the match report and the step.
bool TestProfileView::openFused(Document &doc)
{
    QSignalSpy matched(&doc, &Document::matchReportChanged);
    doc.open(writeGraph());
    if (!matched.wait(kTimeoutMs))
        return false;
    doc.step();
    return test::settle(&doc);
}

// Writes `text` to `name` in the test's folder; its path, or an empty one when it could not be written.
QString TestProfileView::writeFile(const QString &name, const QByteArray &text)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() ? path : QString();
}

QString TestProfileView::writeGraph()
{
    return writeFile(QStringLiteral("swiglu.py"), kSwiglu);
}

QString TestProfileView::writeChain()
{
    return writeFile(QStringLiteral("chain.py"), chainGraph(5000));
}

void TestProfileView::modelPairsNodesAndRegions()
{
    auto report = std::make_shared<ProfileReport>();
    report->device = "cpu";
    report->unfused.nodes = {{"silu", "torch.ops.aten.silu.default", 3.0}, {"mul", "torch.ops.aten.mul.Tensor", 2.0},
        {"add", "torch.ops.aten.add.Tensor", 1.5}};
    report->fused = GraphProfile{};
    report->fused->nodes
        = {{"npu_swiglu", "torch.ops.npu.npu_swiglu.default", 4.0}, {"add", "torch.ops.aten.add.Tensor", 1.0}};
    report->fused->nodes.push_back({"cat", "torch.ops.aten.cat.default", 0.5});
    // The runtime's regions: one fusion added two nodes; another stands for a node the unfused graph lacks.
    report->regions.push_back({"swiglu", "mul", {"silu", "mul"}, {"cat", "npu_swiglu"}, 5.0, 4.5, 5.0 / 4.5, true});
    report->regions.push_back({"again", "npu_swiglu", {"npu_swiglu"}, {"add", "getitem"}, 0.0, 1.0, 0.0, false});
    report->fused->nodes.push_back({"getitem", "operator.getitem", 0.1});
    ProfileModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setProfile(report);
    // Nodes: the unfused ones with their fused time where the fused graph has them, then the fused graph's own.
    QCOMPARE(model.rowCount(), 6); // silu, mul, add; npu_swiglu, cat, getitem
    QCOMPARE(model.index(2, ProfileModel::NameColumn).data().toString(), QStringLiteral("add"));
    QCOMPARE(model.index(2, ProfileModel::UnfusedColumn).data(ProfileModel::SortRole).toDouble(), 1.5);
    QCOMPARE(model.index(2, ProfileModel::FusedColumn).data(ProfileModel::SortRole).toDouble(), 1.0);
    QCOMPARE(model.index(2, ProfileModel::SpeedupColumn).data().toString(), QStringLiteral("1.50×"));
    QCOMPARE(model.index(0, ProfileModel::FusedColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(model.index(3, ProfileModel::NameColumn).data().toString(), QStringLiteral("npu_swiglu"));
    QCOMPARE(model.index(3, ProfileModel::UnfusedColumn).data(ProfileModel::SortRole).toDouble(), -1.0);
    // Targets without the "torch.ops." they all share; the tooltip has the whole target.
    QCOMPARE(model.index(3, ProfileModel::WhatColumn).data().toString(), QStringLiteral("npu.npu_swiglu.default"));
    QCOMPARE(model.index(3, ProfileModel::WhatColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("torch.ops.npu.npu_swiglu.default"));
    QCOMPARE(model.index(5, ProfileModel::WhatColumn).data().toString(), QStringLiteral("operator.getitem"));
    // Regions, as the runtime timed them: the fused nodes against the sum of what they replaced.
    model.setMode(ProfileModel::Mode::Regions);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, ProfileModel::NameColumn).data().toString(), QStringLiteral("cat + npu_swiglu"));
    QCOMPARE(model.index(0, 0).data(ProfileModel::NodeNameRole).toString(), QStringLiteral("npu_swiglu"));
    QCOMPARE(model.index(0, ProfileModel::UnfusedColumn).data(ProfileModel::SortRole).toDouble(), 5.0);
    QCOMPARE(model.index(0, ProfileModel::FusedColumn).data(ProfileModel::SortRole).toDouble(), 4.5);
    QCOMPARE(model.index(0, ProfileModel::SpeedupColumn).data().toString(), QStringLiteral("1.11×"));
    QVERIFY(model.index(0, ProfileModel::WhatColumn).data().toString().startsWith(QStringLiteral("swiglu")));
    // A getitem unpacking the fused op's result is not what the row selects.
    QCOMPARE(model.index(1, 0).data(ProfileModel::NodeNameRole).toString(), QStringLiteral("add"));
    // An incomplete region claims no speedup and says why.
    QCOMPARE(model.index(1, ProfileModel::SpeedupColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(model.index(1, ProfileModel::SpeedupColumn).data(ProfileModel::SortRole).toDouble(), -1.0);
    QVERIFY(model.index(1, ProfileModel::WhatColumn)
                .data()
                .toString()
                .contains(QStringLiteral("not in the unfused graph")));
    model.setProfile(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestProfileView::profilesUnfusedAndFused()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QVERIFY(openFused(doc));
    QCOMPARE(doc.revision(), 1);
    QVERIFY(doc.currentGraphShared()->find("npu_swiglu"));

    ProfileWidget *view = window.profileView();
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->itersBox()->setValue(3);
    view->runButton()->click(); // the dock may be a hidden tab: no geometry to click at
    QVERIFY(doc.isProfiling());
    QVERIFY(!view->runButton()->isEnabled());
    QVERIFY(view->cancelButton()->isEnabled());
    QCOMPARE(profileOutcome(finished, failed), QString());
    QVERIFY(view->runButton()->isEnabled());
    const ProfileReport *report = view->model()->report();
    QVERIFY(report && report->fused);
    QVERIFY(report->outputsMatch);
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("outputs match")));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("speedup")));
    // Every node of both graphs has a row; the chart shows them, the slowest first.
    QCOMPARE(view->model()->rowCount(), 5); // silu, mul, add of the unfused graph; cat and npu_swiglu of the fused
    QCOMPARE(view->chartCategories().size(), view->model()->rowCount());
    view->modeBox()->setCurrentIndex(1);
    QCOMPARE(view->model()->rowCount(), 1);
    // The region row is the runtime's: its times are the sums of the graphs' node medians.
    QCOMPARE(report->regions.size(), size_t(1));
    const RegionProfile &region = report->regions.front();
    QCOMPARE(region.pattern, std::string("swiglu"));
    const ProfileModel::Row &row = view->model()->rows().front();
    QCOMPARE(row.nodeName, QStringLiteral("npu_swiglu"));
    QCOMPARE(row.replaced.size(), int(region.origin.size()));
    QVERIFY(row.unfusedUs > 0);
    QVERIFY(row.fusedUs > 0);
    QCOMPARE(row.unfusedUs, region.unfusedUs);
    QCOMPARE(row.fusedUs, region.fusedUs);
    double replacedUs = 0;
    for (const NodeProfile &n : report->unfused.nodes)
        if (std::count(region.origin.begin(), region.origin.end(), n.name))
            replacedUs += n.medianUs;
    QCOMPARE(row.unfusedUs, replacedUs);

    // The overlay colours the fused graph shown, with its legend.
    GraphCanvas *canvas = window.canvas();
    QVERIFY(!canvas->hasNodeTimes());
    view->overlayBox()->setChecked(true);
    QVERIFY(canvas->hasNodeTimes());
    QVERIFY(canvas->nodeHeat(QStringLiteral("npu_swiglu")) >= 0);
    QVERIFY(canvas->nodeHeat(QStringLiteral("add")) >= 0);
    QCOMPARE(canvas->nodeHeat(QStringLiteral("arg0_1")), -1.0); // placeholders take no time
    QVERIFY(canvas->timeLegend()->isVisible());
    view->overlayBox()->setChecked(false);
    QVERIFY(!canvas->hasNodeTimes());
    QVERIFY(!canvas->timeLegend()->isVisible());
}

// "Export trace…" and "Export CSV…" write the profile shown: a Chrome trace with one process per graph and a span per
// timed node (the fused region on its own track), and CSV rows of the same nodes and the region; a folder that does
// not exist is a clear error, not a crash, and leaves nothing behind.
void TestProfileView::exportsTraceAndCsv()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    ProfileWidget *view = window.profileView();
    QVERIFY(!view->exportButton()->isEnabled()); // nothing to export yet
    QVERIFY(openFused(doc));
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->itersBox()->setValue(3);
    view->runButton()->click();
    QVERIFY(!view->exportButton()->isEnabled()); // not while it runs
    QCOMPARE(profileOutcome(finished, failed), QString());
    QVERIFY(view->exportButton()->isEnabled());
    const ProfileReport *report = view->model()->report();
    QVERIFY(report && report->fused && report->regions.size() == 1);

    QTemporaryDir out;
    const QString tracePath = out.filePath(QStringLiteral("swiglu-profile.json"));
    QVERIFY(window.exportProfile(tracePath, ProfileWidget::ExportFormat::ChromeTrace));
    QFile traceFile(tracePath);
    QVERIFY(traceFile.open(QIODevice::ReadOnly));
    QJsonParseError parseError;
    const QJsonDocument trace = QJsonDocument::fromJson(traceFile.readAll(), &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
    // Spans per process (1 unfused, 2 fused) and track (2: fused regions), in graph order.
    std::map<std::pair<int, int>, QStringList> spans;
    for (const QJsonValue &e : trace.object().value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject event = e.toObject();
        if (event.value(QStringLiteral("ph")).toString() == QLatin1String("X")) {
            QVERIFY(event.value(QStringLiteral("dur")).toDouble() >= 0);
            spans[{event.value(QStringLiteral("pid")).toInt(), event.value(QStringLiteral("tid")).toInt()}]
                << event.value(QStringLiteral("name")).toString();
        }
    }
    QCOMPARE(spans[std::make_pair(1, 1)], (QStringList{"silu", "mul", "add"}));
    QStringList fusedNodes;
    for (const NodeProfile &n : report->fused->nodes)
        fusedNodes << QString::fromStdString(n.name);
    QCOMPARE(spans[std::make_pair(2, 1)], fusedNodes);
    QVERIFY(fusedNodes.contains(QStringLiteral("npu_swiglu")));
    QCOMPARE(spans[std::make_pair(2, 2)], QStringList{QStringLiteral("swiglu")});

    const QString csvPath = out.filePath(QStringLiteral("swiglu-profile.csv"));
    QVERIFY(window.exportProfile(csvPath, ProfileWidget::ExportFormat::Csv));
    QFile csvFile(csvPath);
    QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'));
    QCOMPARE(lines.value(0), QStringLiteral("graph,node,target,median_us,min_us,max_us,reference_kernel"));
    QStringList unfusedRows;
    for (const QString &line : lines) {
        const QStringList fields = line.split(QLatin1Char(','));
        if (fields.value(0) != QLatin1String("unfused"))
            continue;
        QCOMPARE(fields.size(), 7);
        QCOMPARE(fields[6], QStringLiteral("0")); // unfused nodes run on LibTorch's own kernels
        unfusedRows << fields[1];
        // The median as the table shows it, to the CSV's three decimals.
        for (const NodeProfile &n : report->unfused.nodes)
            if (QString::fromStdString(n.name) == fields[1])
                QCOMPARE(fields[3], QString::number(n.medianUs, 'f', 3));
        QVERIFY(fields[4].toDouble() <= fields[3].toDouble() && fields[3].toDouble() <= fields[5].toDouble());
    }
    QCOMPARE(unfusedRows, (QStringList{"silu", "mul", "add"}));
    QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^fused,"))).size(), fusedNodes.size());
    QVERIFY(lines.contains(QStringLiteral("region,pattern,anchor,unfused_us,fused_us,speedup,reference_kernel")));
    // The region's npu_swiglu ran on fxscope's CPU reference kernel: reference_kernel 1.
    QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^region,swiglu,.*,1$"))).size(), 1);

    // A folder that does not exist: the error names the file, and the box shows it.
    const QString bad = out.filePath(QStringLiteral("no/such/folder/p.csv"));
    QVERIFY(!window.exportProfile(bad, ProfileWidget::ExportFormat::Csv));
    QVERIFY(window.errorBox());
    QVERIFY2(window.errorBox()->informativeText().contains(bad), qPrintable(window.errorBox()->informativeText()));
    QCOMPARE(QDir(out.path()).entryList(QDir::Files), (QStringList{"swiglu-profile.csv", "swiglu-profile.json"}));
}

// The dock's device, iterations, warm-up and symbol values go into the session (autosaved as the user changes them)
// and come back when it is opened in a new window, as --open-session and --restore do.
void TestProfileView::settingsSurviveTheSession()
{
    const QString graph = QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py");
    const QString autosave = m_dir.filePath(QStringLiteral("autosave.fxsession"));
    QFile::remove(autosave);
    {
        Document doc;
        MainWindow window(&doc);
        window.setAutosavePath(autosave);
        QSignalSpy loaded(&doc, &Document::fileLoaded);
        doc.open(graph);
        QVERIFY(loaded.wait(kTimeoutMs));
        ProfileWidget *view = window.profileView();
        QCOMPARE(view->warmupBox()->value(), 2);
        view->deviceBox()->setCurrentText(QStringLiteral("cuda:1"));
        view->itersBox()->setValue(7);
        view->warmupBox()->setValue(0);
        view->symbolsEdit()->clear();
        QTest::keyClicks(view->symbolsEdit(), QStringLiteral("s52=96"));
        // Autosaved shortly after the last change, without Save.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), kTimeoutMs);
        auto saved = loadSessionFile(autosave);
        QVERIFY2(saved, saved ? "" : saved.error().toString().c_str());
        QTRY_COMPARE_WITH_TIMEOUT(loadSessionFile(autosave)->profileIters, 7, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(loadSessionFile(autosave)->profileSymbols, (SymbolValues{{"s52", 96}}), kTimeoutMs);
        // The iterations asked for reach the run, and the symbol value sizes its inputs.
        QSignalSpy finished(&doc, &Document::profileFinished);
        QSignalSpy failed(&doc, &Document::profileFailed);
        view->deviceBox()->setCurrentText(QStringLiteral("cpu"));
        view->runButton()->click();
        QCOMPARE(profileOutcome(finished, failed), QString());
        QCOMPARE(view->model()->report()->json["unfused"]["iterations"].toInt(), int64_t(7));
        QCOMPARE(view->model()->report()->unfused.outputs.front().shape, std::vector<int64_t>{96});
        view->deviceBox()->setCurrentText(QStringLiteral("cuda:1"));
        window.autosaveNow();
    }
    auto saved = loadSessionFile(autosave);
    QVERIFY(saved);
    QCOMPARE(saved->profileDevice, QStringLiteral("cuda:1"));
    QCOMPARE(saved->profileWarmup, 0);

    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    ProfileWidget *view = window.profileView();
    QSignalSpy restored(&window, &MainWindow::sessionRestored);
    QVERIFY(window.openSession(autosave));
    QVERIFY(restored.wait(kTimeoutMs));
    QCOMPARE(doc.path(), graph);
    QCOMPARE(view->device(), QStringLiteral("cuda:1"));
    QCOMPARE(view->itersBox()->value(), 7);
    QCOMPARE(view->warmupBox()->value(), 0);
    QCOMPARE(view->symbolsEdit()->text(), QStringLiteral("s52=96"));
}

// A dynamic-shape graph from the corpus (inputs f32[s52] and Sym(s52)): the Symbols field names s52, Run asks for a
// value, a bad one is explained, and the value given sizes the generated inputs.
void TestProfileView::symbolsReachTheRun()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QCOMPARE(doc.profileSymbols(), QStringList{QStringLiteral("s52")});
    // Symbols inside expressions, in natural order; numbers and FloorDiv are none.
    {
        const QString exprs = writeFile(QStringLiteral("exprs.py"),
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, n: \"Sym(s2)\", x: \"f32[s10, 2*s2 + 1][FloorDiv(s10, 2), 1]cpu\"):\n"
            "        add: \"f32[s10, 2*s2 + 1]\" = torch.ops.aten.add.Tensor(x, 1)\n"
            "        return (add,)\n");
        QVERIFY(!exprs.isEmpty());
        Document exprDoc;
        QSignalSpy exprLoaded(&exprDoc, &Document::fileLoaded);
        exprDoc.open(exprs);
        QVERIFY(exprLoaded.wait(kTimeoutMs));
        QCOMPARE(exprDoc.profileSymbols(), (QStringList{QStringLiteral("s2"), QStringLiteral("s10")}));
    }
    ProfileWidget *view = window.profileView();
    QVERIFY(!view->symbolsEdit()->isHidden());
    QCOMPARE(view->symbolsEdit()->text(), QStringLiteral("s52="));

    QSignalSpy started(&doc, &Document::profileStarted);
    view->runButton()->click();
    QCOMPARE(started.count(), 0);
    QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("give s52 a value")),
        qPrintable(view->summaryLabel()->text()));
    view->symbolsEdit()->setText(QStringLiteral("s52=x7"));
    view->runButton()->click();
    QCOMPARE(started.count(), 0);
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("found 's52=x7'")));

    view->symbolsEdit()->setText(QStringLiteral(" s52 = 7 "));
    view->itersBox()->setValue(2);
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->runButton()->click();
    QCOMPARE(started.count(), 1);
    QCOMPARE(profileOutcome(finished, failed), QString());
    const ProfileReport *report = view->model()->report();
    QVERIFY(report && !report->unfused.outputs.empty());
    QCOMPARE(report->unfused.outputs.front().shape, std::vector<int64_t>{7}); // mul_6: f32[s52]

    // The value stays for the next graph using s52; a graph without symbols hides the field. The profile shown
    // was the last graph's: it goes.
    doc.open(writeGraph());
    QVERIFY(loaded.wait(kTimeoutMs));
    QVERIFY(view->symbolsEdit()->isHidden());
    QVERIFY(!view->model()->report());
    QCOMPARE(view->model()->rowCount(), 0);
    doc.open(QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_backward_graph.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QVERIFY(doc.profileSymbols().contains(QStringLiteral("s52")));
    QVERIFY(view->symbolsEdit()->text().contains(QStringLiteral("s52=7")));
}

// A torch.export program whose sizes carry hints (s0 = 8, the SymInt input n = s1 = 3): the Symbols field starts
// from them, Run needs nothing typed, and the outputs take the hinted sizes. A value the user gives instead wins and
// is what the session keeps; a hint left as it is is not.
void TestProfileView::symbolHintsPrefillTheField()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    const QString program = QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/export/symbolic.pt2");
    doc.open(program);
    QVERIFY(loaded.wait(kTimeoutMs));
    ProfileWidget *view = window.profileView();
    QCOMPARE(doc.profileSymbols(), (QStringList{QStringLiteral("s0"), QStringLiteral("s1")}));
    QCOMPARE(view->symbolsEdit()->text(), QStringLiteral("s0=8, s1=3"));
    QVERIFY(view->symbolValues().empty());

    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->itersBox()->setValue(2);
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed), QString());
    const ProfileReport *report = view->model()->report();
    QVERIFY(report && !report->unfused.outputs.empty());
    QCOMPARE(report->unfused.outputs.front().shape, (std::vector<int64_t>{16, 2})); // relu: f32[2*s0, 2]

    view->symbolsEdit()->setText(QStringLiteral("s0=5, s1=3"));
    QCOMPARE(view->symbolValues(), (SymbolValues{{"s0", 5}}));
    doc.open(writeGraph());
    QVERIFY(loaded.wait(kTimeoutMs));
    doc.open(program);
    QVERIFY(loaded.wait(kTimeoutMs));
    QCOMPARE(view->symbolsEdit()->text(), QStringLiteral("s0=5, s1=3"));
    // Back to the hint: no value of the user's any more.
    view->symbolsEdit()->setText(QStringLiteral("s0=8, s1=3"));
    QVERIFY(view->symbolValues().empty());
}

// A node that fails at run time (mm of [4, 8] by [4, 8]): the error names it, the table keeps the nodes that ran
// before it with their times, and the canvas selects it.
// A graph torch 2.2 wrote on CPU (tests/data/old_torch): its flash attention, CUDA-only in this torch, runs through a
// stand-in; the dock says so in its summary and marks exactly those rows, with the reason in their tooltip.
void TestProfileView::olderTorchGraphShowsStandIns()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/old_torch/bert_tiny_sdpa.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    ProfileWidget *view = window.profileView();
    view->itersBox()->setValue(2);
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed), QString());
    const QString summary = view->summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("2 nodes ran on stand-ins")), qPrintable(summary));
    int marked = 0;
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex what = view->model()->index(row, ProfileModel::WhatColumn);
        const bool flash = what.data().toString().startsWith(QLatin1String("aten._scaled_dot_product_flash_attention"));
        QCOMPARE(what.data().toString().endsWith(QStringLiteral("· stand-in")), flash);
        if (flash) {
            QVERIFY(what.data(Qt::ToolTipRole).toString().contains(QLatin1String("flash_attention_for_cpu")));
            ++marked;
        }
    }
    QCOMPARE(marked, 2);
}

void TestProfileView::failureShowsWhatRan()
{
    const QString path = writeFile(QStringLiteral("fails.py"),
        "class GraphModule(torch.nn.Module):\n"
        "    def forward(self, x: \"f32[4, 8][8, 1]cpu\", w: \"f32[4, 8][8, 1]cpu\"):\n"
        "        a: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default(x)\n"
        "        b: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.mul.Tensor(a, 2.0)\n"
        "        m: \"f32[4, 4][4, 1]cpu\" = torch.ops.aten.mm.default(b, w)\n"
        "        return (m,)\n");
    QVERIFY(!path.isEmpty());
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(path);
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy failed(&doc, &Document::profileFailed);
    ProfileWidget *view = window.profileView();
    view->itersBox()->setValue(2);
    view->runButton()->click();
    QVERIFY(failed.wait(kTimeoutMs));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("fails.py:5:")) && message.contains(QStringLiteral("'m'")),
        qPrintable(message));
    QVERIFY(view->runButton()->isEnabled());
    const QString summary = view->summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("ran 2 nodes before <b>m</b>")), qPrintable(summary));
    QCOMPARE(view->model()->rowCount(), 2);
    QCOMPARE(view->model()->rows()[0].name, QStringLiteral("a"));
    QCOMPARE(view->model()->rows()[1].name, QStringLiteral("b"));
    QVERIFY(view->model()->rows()[1].unfusedUs > 0);
    QCOMPARE(window.canvas()->selectedNode(), QStringLiteral("m"));
    // What ran can be exported: the CSV has the two nodes' rows.
    QVERIFY(view->exportButton()->isEnabled());
    const QString csv = m_dir.filePath(QStringLiteral("fails.csv"));
    QVERIFY(window.exportProfile(csv, ProfileWidget::ExportFormat::Csv));
    QFile written(csv);
    QVERIFY(written.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList rows = QString::fromUtf8(written.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 3);
    QVERIFY(rows[1].startsWith(QLatin1String("unfused,a,torch.ops.aten.relu.default,")));
    QVERIFY(rows[2].startsWith(QLatin1String("unfused,b,torch.ops.aten.mul.Tensor,")));
}

void TestProfileView::cancelStopsTheRun()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(writeChain());
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    QSignalSpy canceled(&doc, &Document::profileCanceled);
    QSignalSpy progress(&doc, &Document::profileProgress);
    ProfileWidget *view = window.profileView();
    // Run to the end, 100,000 runs of 5,000 nodes take many minutes; cancelled, it ends in a second or two.
    doc.profile(QStringLiteral("cpu"), 100000, 0);
    QVERIFY(doc.isProfiling());
    QVERIFY(!view->progressBar()->isHidden());
    QVERIFY(view->cancelButton()->isEnabled());
    // LibTorch is running it: the bar moves (0.1 % is 100 runs).
    QTRY_VERIFY_WITH_TIMEOUT(view->progressBar()->value() > 0, kTimeoutMs);
    const int done = view->progressBar()->value();
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    view->cancelButton()->click();
    QVERIFY(doc.isCancelingProfile());
    QVERIFY(!view->cancelButton()->isEnabled());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("Cancelling")));
    QVERIFY(!view->runButton()->isEnabled()); // until LibTorch has stopped
    QVERIFY(canceled.wait(30000));
    qInfo("stopped %lld ms after Cancel, %d‰ into the run", qint64(sinceCancel.elapsed()), done);
    QCOMPARE(canceled.count(), 1);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(failed.count(), 0);
    QVERIFY(!doc.isProfiling());
    QVERIFY(view->progressBar()->isHidden());
    QVERIFY(view->runButton()->isEnabled());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("cancelled")));
    QVERIFY(!view->model()->report());
    for (const QList<QVariant> &p : progress)
        QVERIFY(p.first().toInt() < 1000);
}

void TestProfileView::openingAnotherFileCancels()
{
    Document doc;
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(writeChain());
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy canceled(&doc, &Document::profileCanceled);
    QSignalSpy finished(&doc, &Document::profileFinished);
    doc.profile(QStringLiteral("cpu"), 100000, 0);
    doc.open(writeGraph());
    QVERIFY(canceled.wait(30000));
    QCOMPARE(finished.count(), 0);
    QVERIFY(!doc.isProfiling());
}

void TestProfileView::closingTheWindowCancels()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.show();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(writeChain());
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy canceled(&doc, &Document::profileCanceled);
    doc.profile(QStringLiteral("cpu"), 100000, 0);
    QVERIFY(window.close());
    QVERIFY(canceled.wait(30000));
    QVERIFY(!doc.isProfiling());
}

void TestProfileView::destroyingTheDocumentStopsTheRun()
{
    QThreadPool::globalInstance()->waitForDone();
    {
        Document doc;
        QSignalSpy loaded(&doc, &Document::fileLoaded);
        doc.open(writeChain());
        QVERIFY(loaded.wait(kTimeoutMs));
        QSignalSpy progress(&doc, &Document::profileProgress);
        doc.profile(QStringLiteral("cpu"), 100000, 0);
        QVERIFY(progress.wait(kTimeoutMs)); // the run is under way
    }
    // The worker does not run on for minutes behind a closed window.
    QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
}

// "Load device plugin…" with fxscope's emulated PrivateUse1 device: the device list gains npu:0, selected, and the
// SwiGLU graph and its fusion run on it with outputs matching.
void TestProfileView::devicePluginAddsTheNpu()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    ProfileWidget *view = window.profileView();
    QSignalSpy listed(&doc, &Document::devicesListed);
    QSignalSpy listFailed(&doc, &Document::devicesFailed);
    doc.listDevices();
    QVERIFY(listed.wait(kTimeoutMs));
    QVERIFY(view->deviceBox()->findText(QStringLiteral("cpu")) >= 0);
    QCOMPARE(view->deviceBox()->findText(QStringLiteral("npu:0")), -1);
    QCOMPARE(view->deviceBox()->currentText(), QStringLiteral("cpu"));

    // A library that is no plugin: the message names it.
    doc.listDevices({m_dir.filePath(QStringLiteral("swiglu.py"))});
    QVERIFY(listFailed.wait(kTimeoutMs));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("swiglu.py")));

    doc.listDevices({QStringLiteral(FXSCOPE_BIN_DIR "/libfxscope_emulated_npu.so")});
    QVERIFY(listed.wait(kTimeoutMs));
    QVERIFY(view->deviceBox()->findText(QStringLiteral("npu:0")) >= 0);
    QCOMPARE(view->deviceBox()->currentText(), QStringLiteral("npu:0"));
    QVERIFY(doc.devices() && doc.devices()->plugins.size() == 1);

    QVERIFY(openFused(doc));
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->itersBox()->setValue(2);
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed), QString());
    const ProfileReport *report = view->model()->report();
    QVERIFY(report && report->fused);
    QCOMPARE(report->device, std::string("privateuseone:0"));
    QVERIFY(report->outputsMatch);
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("privateuseone:0")));
}

namespace {
// The window with the pattern graph hidden, so the canvas gets the room.
bool saveScreenshot(MainWindow &window, const QString &path)
{
    window.patternGraph()->hide();
    QTest::qWait(500);
    return test::saveScreenshot(&window, path);
}
} // namespace

// The pictures for docs/, taken only when FXSCOPE_SCREENSHOTS names a folder: the bundled LLaMA block fused by every
// built-in pattern and profiled per fused region with the canvas coloured by time; the corpus's dynamic-shape graph
// with its symbol given; a ResNet-50 profile under way with its progress bar.
void TestProfileView::screenshot()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ProfileWidget *view = window.profileView();
    window.profileDock()->raise();
    // Room for the table and the chart in the picture.
    window.resizeDocks({window.profileDock()}, {640}, Qt::Horizontal);
    window.resizeDocks({window.inspectorDock(), window.profileDock()}, {200, 780}, Qt::Vertical);

    QSignalSpy matched(&doc, &Document::matchReportChanged);
    doc.openBundledSample();
    QVERIFY(matched.wait(kTimeoutMs));
    doc.runToEnd();
    QVERIFY(test::settle(&doc));
    QVERIFY(doc.revision() > 0);
    view->itersBox()->setValue(5);
    view->overlayBox()->setChecked(true);
    QSignalSpy finished(&doc, &Document::profileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed, 600000), QString());
    view->modeBox()->setCurrentIndex(1);
    QTest::mouseClick(view->tableView()->viewport(), Qt::LeftButton, {},
        view->tableView()->visualRect(view->tableView()->model()->index(0, 0)).center());
    QTest::qWait(2000);
    QVERIFY(saveScreenshot(window, QDir(folder).filePath(QStringLiteral("fxscope-profile.png"))));

    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    view->modeBox()->setCurrentIndex(0);
    view->symbolsEdit()->setText(QStringLiteral("s52=4096"));
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed, 600000), QString());
    QTest::qWait(2000);
    QVERIFY(saveScreenshot(window, QDir(folder).filePath(QStringLiteral("fxscope-profile-symbols.png"))));

    // A graph torch 2.2 wrote: its CPU flash attention runs on a stand-in here, marked in the table.
    doc.open(QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/old_torch/bert_tiny_sdpa.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    view->symbolsEdit()->clear();
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed, 600000), QString());
    window.resizeDocks({window.profileDock()}, {900}, Qt::Horizontal);
    view->tableView()->sortByColumn(ProfileModel::UnfusedColumn, Qt::DescendingOrder);
    QAbstractItemModel *rows = view->tableView()->model();
    for (int row = 0; row < rows->rowCount(); ++row) // the first stand-in row, selected: its node on the canvas
        if (rows->index(row, ProfileModel::WhatColumn).data().toString().endsWith(QStringLiteral("· stand-in"))) {
            view->tableView()->scrollTo(rows->index(row, 0));
            QTest::mouseClick(view->tableView()->viewport(), Qt::LeftButton, {},
                view->tableView()->visualRect(rows->index(row, 0)).center());
            break;
        }
    QTest::qWait(2000);
    QVERIFY(saveScreenshot(window, QDir(folder).filePath(QStringLiteral("fxscope-profile-stand-ins.png"))));
    window.resizeDocks({window.profileDock()}, {640}, Qt::Horizontal);

    doc.open(QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/learn_torch_compile__tb_resnet50_inference_cpu__aot_forward_graph.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QTest::qWait(2000);
    view->itersBox()->setValue(50);
    view->runButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(view->progressBar()->value() > 150, 600000);
    QVERIFY(saveScreenshot(window, QDir(folder).filePath(QStringLiteral("fxscope-profile-progress.png"))));
    QSignalSpy canceled(&doc, &Document::profileCanceled);
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    view->cancelButton()->click();
    QVERIFY(canceled.wait(60000));
    qInfo("ResNet-50: stopped %lld ms after Cancel", qint64(sinceCancel.elapsed()));

    // The sample again, fused, on the emulated NPU loaded as a plugin.
    QSignalSpy listed(&doc, &Document::devicesListed);
    doc.listDevices({QStringLiteral(FXSCOPE_BIN_DIR "/libfxscope_emulated_npu.so")});
    QVERIFY(listed.wait(kTimeoutMs));
    QCOMPARE(view->deviceBox()->currentText(), QStringLiteral("npu:0"));
    doc.openBundledSample();
    QVERIFY(loaded.wait(kTimeoutMs));
    doc.runToEnd();
    QVERIFY(test::settle(&doc));
    view->itersBox()->setValue(3);
    view->runButton()->click();
    QCOMPARE(profileOutcome(finished, failed, 600000), QString());
    QVERIFY(view->model()->report()->outputsMatch);
    QTest::qWait(2000);
    QVERIFY(saveScreenshot(window, QDir(folder).filePath(QStringLiteral("fxscope-profile-npu.png"))));
}

QTEST_MAIN(TestProfileView)
#include "tst_profile_view.moc"
