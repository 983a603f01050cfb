// The Profile dock on several ranks (docs/ranks.md), under QT_QPA_PLATFORM=offscreen: the tensor-parallel MLP sample
// (resources/samples/tp_mlp, 2 ranks) opened at rank 0 offers its per-rank files; fused with the mm + all_reduce
// pattern and profiled on 2 worker processes, the rank table has a row per rank and one over the ranks with outputs
// matching PyTorch's, and the canvas overlay follows the rank chosen; Cancel kills every rank while the window stays
// responsive; a rank killed or stopped mid-run is reported with its rank and cause; no worker process is ever left
// behind.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_graph_widget.h"
#include "profile_model.h"
#include "profile_widget.h"
#include "rank_table_model.h"
#include "ranks_profile.h"

#include "ir/graph.h"
#include "patterns/op_schema_table.h"
#include "runtime/rank_profile.h"
#include "runtime/runtime_library.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <fstream>
#include <iterator>
#include <map>
#include <unistd.h>

using namespace fxs;

namespace {
constexpr int kTimeoutMs = 120000;
const QString kSample = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/tp_mlp/");
const QString kPattern = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/patterns/mm_all_reduce.py");

QByteArray procFile(const QString &path)
{
    // /proc files report size 0: read them as streams.
    std::ifstream in(path.toStdString(), std::ios::binary);
    return QByteArray::fromStdString(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
}

// This process's rank workers (children running `fxscope-cli rank-worker REQUEST`), by rank; zombies count too.
QMap<int, qint64> rankWorkers()
{
    QMap<int, qint64> out;
    const qint64 self = getpid();
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QByteArray s = procFile(QStringLiteral("/proc/") + entry + QStringLiteral("/stat"));
        const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields[1].toLongLong() != self)
            continue;
        const QList<QByteArray> argv = procFile(QStringLiteral("/proc/") + entry + QStringLiteral("/cmdline")).split('\0');
        if (argv.size() >= 3 && argv[1] == "rank-worker") {
            const QByteArray request = argv[2].mid(argv[2].lastIndexOf('/') + 1); // rankN.request.json
            out[request.mid(4, request.indexOf('.') - 4).toInt()] = pid;
        }
    }
    return out;
}

bool alive(qint64 pid)
{
    return QFile::exists(QStringLiteral("/proc/") + QString::number(pid));
}

// The heat MainWindow gives each node for `report` on `graph` (the fused graph's times where it ran, else the
// unfused ones), on GraphCanvas's log scale: what the canvas must show for the rank chosen.
std::map<std::string, double> expectedHeat(const ProfileReport &report, const Graph &graph, bool fused)
{
    std::map<std::string, double> times;
    for (const NodeProfile &n : report.unfused.nodes)
        times[n.name] = n.medianUs;
    if (fused && report.fused)
        for (const NodeProfile &n : report.fused->nodes)
            times[n.name] = n.medianUs;
    double lo = 1e300, hi = 0;
    for (const auto &[name, us] : times)
        if (graph.find(name) && us > 0) {
            lo = std::min(lo, us);
            hi = std::max(hi, us);
        }
    std::map<std::string, double> heat;
    const double span = std::max(1e-9, std::log(hi) - std::log(lo));
    for (const auto &[name, us] : times)
        if (graph.find(name) && us > 0)
            heat[name] = hi == lo ? 1.0 : (std::log(us) - std::log(lo)) / span;
    return heat;
}

// One rank's runtime report, as a worker writes it, with the times given.
Json rankReport(double unfusedMm, double unfusedReduce, double fusedOp, bool match)
{
    auto node = [](const char *name, const char *target, double us) {
        return Json::object({{"name", name}, {"target", target}, {"median_us", us}});
    };
    Json unfused = Json::array();
    unfused.push(node("mm", "torch.ops.aten.mm.default", unfusedMm));
    unfused.push(node("all_reduce", "torch.ops._c10d_functional.all_reduce.default", unfusedReduce));
    Json fused = Json::array();
    fused.push(node("npu_mm_all_reduce_base", "torch.ops.npu.npu_mm_all_reduce_base.default", fusedOp));
    return Json::object({{"device", "cpu"}, {"backend", "gloo"},
        {"unfused", Json::object({{"median_ms", (unfusedMm + unfusedReduce) / 1000}, {"nodes", unfused}})},
        {"fused", Json::object({{"median_ms", fusedOp / 1000}, {"nodes", fused}})}, {"outputs_match", match},
        {"max_abs_diff", match ? 0.0 : 0.5}, {"regions", Json::array()}});
}
// The tensor-parallel sample profiled on 2 ranks from the Profile dock, with iterations enough that the run never
// ends on its own (~10 minutes): the tests below cancel it, kill a rank or stop one.
class LongRankRun {
public:
    LongRankRun() { window.setAutosavePath({}); }

    // Starts the run and waits until both ranks run their graphs; what went wrong, or empty.
    QString start(double rankTimeoutSeconds = -1)
    {
        QSignalSpy loaded(&doc, &Document::fileLoaded);
        doc.open(kSample + QStringLiteral("tp_mlp_rank0.json"));
        if (!loaded.wait(kTimeoutMs))
            return QStringLiteral("the sample did not load");
        view->ranksBox()->setValue(2);
        if (rankTimeoutSeconds >= 0)
            view->rankTimeoutBox()->setValue(rankTimeoutSeconds);
        view->itersBox()->setValue(1000000);
        view->runButton()->click();
        if (!QTest::qWaitFor([] { return rankWorkers().size() == 2; }, kTimeoutMs))
            return QStringLiteral("the 2 rank workers did not start");
        workers = rankWorkers();
        if (!QTest::qWaitFor([this] { return status(1).contains(QStringLiteral("running")); }, kTimeoutMs))
            return QStringLiteral("rank 1 never ran: ") + status(1);
        return {};
    }
    QString status(int rank) const
    {
        return view->rankModel()->index(rank, RankTableModel::StatusColumn).data().toString();
    }

    Document doc;
    MainWindow window{&doc};
    ProfileWidget *view = window.profileView();
    QMap<int, qint64> workers; // rank -> process, once both run
};

} // namespace

class TestProfileRanksView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rankTableModel();
    void offersPerRankFiles();
    void profilesTwoRanks();
    void badRankFileIsReported();
    void cancelKillsEveryRank();
    void rankFaultIsShown();
    void hungRankIsShown();
    void screenshot();

private:
    // Opens rank 0 of the sample in `window`'s document, adds the mm + all_reduce pattern and applies it.
    bool openFusedSample(Document &doc);
    QTemporaryDir m_dir;
};

void TestProfileRanksView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    test::useTemporarySettings(m_dir, QStringLiteral("tst_profile_ranks_view"));
    // LibTorch's schemas (the collectives' among them) before any window: a pattern file read while a match job
    // is still loading them would not find _c10d_functional.all_reduce.
    QVERIFY(OpSchemaTable::instance().addLibTorchSchemas().ok());
}

bool TestProfileRanksView::openFusedSample(Document &doc)
{
    QSignalSpy matched(&doc, &Document::matchReportChanged);
    QSignalSpy patterns(&doc, &Document::patternsChanged);
    doc.open(kSample + QStringLiteral("tp_mlp_rank0.json"));
    if (!matched.wait(kTimeoutMs))
        return false;
    doc.openPatterns(kPattern);
    if (!patterns.wait(kTimeoutMs))
        return false;
    doc.runToEnd();
    return test::settle(&doc) && doc.revision() > 0;
}

// The table from two ranks' reports: a row per rank and the row over the ranks (the slowest rank's times), with
// collectives against compute and outputs per rank; progress rows while the run goes, and where each stopped.
void TestProfileRanksView::rankTableModel()
{
    RankTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.startRun(2);
    QCOMPARE(model.rowCount(), 2);
    model.setProgress({{0.25, "running the unfused graph"}, {0.5, "running the fused graph"}});
    QCOMPARE(model.index(1, RankTableModel::StatusColumn).data().toString(),
        QStringLiteral("50 % · running the fused graph"));
    QCOMPARE(model.index(0, RankTableModel::StatusColumn).data(RankTableModel::ProgressRole).toInt(), 250);
    QVERIFY(model.stopRun());
    QVERIFY(model.index(0, RankTableModel::StatusColumn).data().toString().startsWith(QStringLiteral("stopped at 25 %")));

    auto profile = std::make_shared<RanksProfile>();
    profile->json = mergeRankReports({rankReport(100, 300, 350, true), rankReport(120, 280, 390, false)});
    model.setProfile(profile);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, RankTableModel::RankColumn).data().toString(), QStringLiteral("0"));
    QCOMPARE(model.index(2, RankTableModel::RankColumn).data().toString(), QStringLiteral("max"));
    QCOMPARE(model.index(2, 0).data(RankTableModel::RankRole).toInt(), -1);
    QCOMPARE(model.index(0, RankTableModel::UnfusedColumn).data(RankTableModel::SortRole).toDouble(), 0.4);
    QCOMPARE(model.index(1, RankTableModel::FusedColumn).data(RankTableModel::SortRole).toDouble(), 0.39);
    // Collectives against compute, unfused → fused: the fused op is itself a collective.
    QCOMPARE(model.index(0, RankTableModel::CollectiveColumn).data().toString(), QStringLiteral("0.300 → 0.350"));
    QCOMPARE(model.index(0, RankTableModel::ComputeColumn).data().toString(), QStringLiteral("0.100 → 0.000"));
    QCOMPARE(model.index(1, RankTableModel::OutputsColumn).data().toString(), QStringLiteral("differ"));
    QCOMPARE(model.index(0, RankTableModel::OutputsColumn).data().toString(), QStringLiteral("match"));
    // Over the ranks: each node's slowest rank (mm 120 on rank 1, all_reduce 300 on rank 0), outputs on every rank.
    QCOMPARE(model.index(2, RankTableModel::CollectiveColumn).data().toString(), QStringLiteral("0.300 → 0.390"));
    QCOMPARE(model.index(2, RankTableModel::ComputeColumn).data().toString(), QStringLiteral("0.120 → 0.000"));
    QCOMPARE(model.index(2, RankTableModel::OutputsColumn).data().toString(), QStringLiteral("differ"));
    model.setProfile(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.stopRun());
}

// Opening tp_mlp_rank0.json fills the Ranks fields with its {r} files and offers to run both ranks; another file
// takes back what was suggested, but not what the user typed.
void TestProfileRanksView::offersPerRankFiles()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    ProfileWidget *view = window.profileView();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(kSample + QStringLiteral("tp_mlp_rank0.json"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QCOMPARE(view->rankGraphsEdit()->text(), kSample + QStringLiteral("tp_mlp_rank{r}.json"));
    QCOMPARE(view->rankInputsEdit()->text(), kSample + QStringLiteral("tp_mlp_rank{r}.safetensors"));
    QCOMPARE(view->rankExpectedEdit()->text(), kSample + QStringLiteral("tp_mlp_rank{r}.outputs.safetensors"));
    QCOMPARE(view->ranksBox()->value(), 1);
    QVERIFY(view->rankOfferLabel()->isVisibleTo(view));
    QVERIFY(view->rankOfferLabel()->text().contains(QStringLiteral("rank 0 of 2 per-rank graphs")));
    QVERIFY(!view->rankGraphsEdit()->isVisibleTo(view)); // the fields show with Ranks above 1
    Q_EMIT view->rankOfferLabel()->linkActivated(QStringLiteral("ranks"));
    QCOMPARE(view->ranksBox()->value(), 2);
    QVERIFY(!view->rankOfferLabel()->isVisibleTo(view));
    QVERIFY(view->rankGraphsEdit()->isVisibleTo(view));
    const RankRunRequest request = view->rankRequest();
    QCOMPARE(request.ranks, 2);
    QCOMPARE(request.timeoutSeconds, 60.0);
    QCOMPARE(request.graphs, kSample + QStringLiteral("tp_mlp_rank{r}.json"));

    view->rankInputsEdit()->setText(QStringLiteral("/mine/in{r}.safetensors"));
    doc.open(QStringLiteral(FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py"));
    QVERIFY(loaded.wait(kTimeoutMs));
    QCOMPARE(view->rankGraphsEdit()->text(), QString());
    QCOMPARE(view->rankExpectedEdit()->text(), QString());
    QCOMPARE(view->rankInputsEdit()->text(), QStringLiteral("/mine/in{r}.safetensors"));
    view->ranksBox()->setValue(1);
    QVERIFY(!view->rankOfferLabel()->isVisibleTo(view));
}

// The sample fused by mm_all_reduce.py on 2 ranks: each rank's progress while it runs, then a row per rank with its
// outputs matching its unfused ones and PyTorch's, the row over the ranks, and the node table and canvas overlay
// showing the max over ranks, then rank 1, as chosen.
void TestProfileRanksView::profilesTwoRanks()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.show();
    QVERIFY(openFusedSample(doc));
    QVERIFY(test::laidOut(window.canvas()));
    ProfileWidget *view = window.profileView();
    view->ranksBox()->setValue(2);
    view->itersBox()->setValue(20);
    view->overlayBox()->setChecked(true);
    QSignalSpy finished(&doc, &Document::ranksProfileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    QSignalSpy progress(&doc, &Document::ranksProgress);
    view->runButton()->click();
    QVERIFY(doc.isProfiling());
    QVERIFY(view->rankTable()->isVisibleTo(view));
    QCOMPARE(view->rankModel()->rowCount(), 2);
    QVERIFY(!view->ranksBox()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, kTimeoutMs));
    QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().first().value<std::vector<RankProgress>>().size(), size_t(2));
    QVERIFY(rankWorkers().isEmpty());

    const RanksProfile *ranks = view->ranksProfile();
    QVERIFY(ranks);
    QCOMPARE(ranks->ranks.size(), size_t(2));
    QCOMPARE(QString::fromStdString(ranks->json["backend"].toString()), QStringLiteral("gloo"));
    RankTableModel *table = view->rankModel();
    QCOMPARE(table->rowCount(), 3);
    for (int r = 0; r < 2; ++r) {
        QCOMPARE(table->index(r, RankTableModel::RankColumn).data().toString(), QString::number(r));
        QVERIFY(table->index(r, RankTableModel::FusedColumn).data(RankTableModel::SortRole).toDouble() > 0);
        QVERIFY(table->index(r, RankTableModel::CollectiveColumn).data(RankTableModel::SortRole).toDouble() > 0);
        // Fused equal to unfused, and the unfused outputs equal what PyTorch computed on that rank.
        QCOMPARE(table->index(r, RankTableModel::OutputsColumn).data().toString(),
            QStringLiteral("match · expected: match"));
        QVERIFY(ranks->ranks[size_t(r)]->expectedMatch.value_or(false));
    }
    QCOMPARE(table->index(2, RankTableModel::RankColumn).data().toString(), QStringLiteral("max"));
    // The steps applied here were replayed on rank 1's own graph: every rank ran the fused op.
    for (const auto &rank : ranks->ranks) {
        bool fusedOp = false;
        for (const NodeProfile &n : rank->fused->nodes)
            fusedOp = fusedOp || n.target.find("npu_mm_all_reduce_base") != std::string::npos;
        QVERIFY(fusedOp);
    }

    // Shown first: the max over ranks, in the node table and on the canvas.
    QCOMPARE(view->rankChoiceBox()->count(), 3);
    QCOMPARE(view->shownRank(), -1);
    QCOMPARE(view->model()->report(), ranks->overRanks.get());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("max over ranks")));
    auto checkCanvas = [&](const ProfileReport &report) {
        const std::shared_ptr<const Graph> graph = doc.currentGraphShared();
        const auto heat = expectedHeat(report, *graph, true);
        if (heat.empty() || !window.canvas()->hasNodeTimes())
            return false;
        for (const auto &[name, value] : heat)
            if (std::abs(window.canvas()->nodeHeat(QString::fromStdString(name)) - value) > 1e-9)
                return false;
        return true;
    };
    QVERIFY(checkCanvas(*ranks->overRanks));
    // Each node's max over ranks: never below either rank's time.
    for (const NodeProfile &n : ranks->overRanks->unfused.nodes)
        for (const auto &rank : ranks->ranks)
            for (const NodeProfile &m : rank->unfused.nodes)
                if (m.name == n.name)
                    QVERIFY(n.medianUs >= m.medianUs);

    // Rank 1, chosen in the box: its own times in the table and on the canvas.
    view->rankChoiceBox()->setCurrentIndex(view->rankChoiceBox()->findData(1));
    QCOMPARE(view->shownRank(), 1);
    QCOMPARE(view->model()->report(), ranks->ranks[1].get());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("rank 1")));
    QVERIFY(checkCanvas(*ranks->ranks[1]));
    // Rank 0, by clicking its row in the rank table.
    QTest::mouseClick(view->rankTable()->viewport(), Qt::LeftButton, {},
        view->rankTable()->visualRect(table->index(0, 0)).center());
    QCOMPARE(view->shownRank(), 0);
    QVERIFY(checkCanvas(*ranks->ranks[0]));

    // Export: one trace process per rank and graph.
    const QString trace = m_dir.filePath(QStringLiteral("ranks.trace.json"));
    QVERIFY(window.exportProfile(trace, ProfileWidget::ExportFormat::ChromeTrace));
    QFile written(trace);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray text = written.readAll();
    QVERIFY(text.contains("rank 1 fused"));
    QVERIFY(text.contains("rank 0 unfused"));

    // Ranks 1: its collectives still need a process group, so the graph runs as the one rank of a group.
    view->ranksBox()->setValue(1);
    view->rankChoiceBox()->setCurrentIndex(0);
    view->runButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(view->ranksProfile()->ranks.size(), size_t(1));
    QCOMPARE(table->rowCount(), 2);
    QVERIFY(view->ranksProfile()->overRanks->outputsMatch);

    // A graph without collectives runs in this process, as before: the rank table and chooser go.
    QFile plain(m_dir.filePath(QStringLiteral("relu.py")));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.write("class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[8]\"):\n"
                "        relu: \"f32[8]\" = torch.ops.aten.relu.default(x)\n        return (relu,)\n");
    plain.close();
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(plain.fileName());
    QVERIFY(loaded.wait(kTimeoutMs));
    QSignalSpy single(&doc, &Document::profileFinished);
    view->runButton()->click();
    QVERIFY(single.wait(kTimeoutMs));
    QVERIFY(!view->rankTable()->isVisibleTo(view));
    QVERIFY(!view->rankChoiceBox()->isVisibleTo(view));
    QVERIFY(!view->ranksProfile());
}

// A {r} pattern naming a file rank 1 lacks: the dock names the rank and the file; no process was started.
void TestProfileRanksView::badRankFileIsReported()
{
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    doc.open(kSample + QStringLiteral("tp_mlp_rank0.json"));
    QVERIFY(loaded.wait(kTimeoutMs));
    ProfileWidget *view = window.profileView();
    view->ranksBox()->setValue(2);
    view->rankGraphsEdit()->setText(kSample + QStringLiteral("nothing_rank{r}.json"));
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->runButton()->click();
    QVERIFY(failed.wait(kTimeoutMs));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("rank 0")) && message.contains(QStringLiteral("nothing_rank0.json")),
        qPrintable(message));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("nothing_rank0.json")));
    QVERIFY(view->runButton()->isEnabled());
    QVERIFY(rankWorkers().isEmpty());
}

// Cancel while both ranks run a long job: the window answers at once meanwhile, and every rank is killed and reaped.
void TestProfileRanksView::cancelKillsEveryRank()
{
    LongRankRun run;
    Document &doc = run.doc;
    ProfileWidget *view = run.view;
    QSignalSpy canceled(&doc, &Document::profileCanceled);
    QSignalSpy finished(&doc, &Document::ranksProfileFinished);
    const QString error = run.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(run.status(1).contains(QStringLiteral("running the unfused graph")), qPrintable(run.status(1)));
    const QList<qint64> workers = run.workers.values();
    // The UI thread is free: a timer fires on time while the ranks run.
    QElapsedTimer latency;
    latency.start();
    bool fired = false;
    QTimer::singleShot(0, this, [&] { fired = true; });
    QTRY_VERIFY_WITH_TIMEOUT(fired, 1000);
    QVERIFY2(latency.elapsed() < 500, qPrintable(QString::number(latency.elapsed())));

    QElapsedTimer sinceCancel;
    sinceCancel.start();
    view->cancelButton()->click();
    QVERIFY(canceled.wait(30000));
    qInfo("2 ranks stopped %lld ms after Cancel", qint64(sinceCancel.elapsed()));
    QCOMPARE(finished.count(), 0);
    for (qint64 pid : workers)
        QVERIFY2(!alive(pid), qPrintable(QString::number(pid)));
    QVERIFY(rankWorkers().isEmpty());
    QVERIFY(!doc.isProfiling());
    QVERIFY(view->runButton()->isEnabled());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("cancelled")));
    QVERIFY(view->rankModel()->index(0, RankTableModel::StatusColumn).data().toString().startsWith(
        QStringLiteral("stopped at")));
}

// Rank 1 killed mid-run: the launcher's message (the rank, where it was, the signal) in the dock, the other rank
// stopped, no process left, and the dock ready for the next run.
void TestProfileRanksView::rankFaultIsShown()
{
    LongRankRun run;
    ProfileWidget *view = run.view;
    QSignalSpy failed(&run.doc, &Document::profileFailed);
    const QString error = run.start(5);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QMap<int, qint64> workers = run.workers;
    QElapsedTimer sinceKill;
    sinceKill.start();
    QCOMPARE(::kill(pid_t(workers[1]), SIGKILL), 0);
    QVERIFY(failed.wait(30000));
    QVERIFY(sinceKill.elapsed() < 5000); // well within the rank timeout
    const QString message = failed.first().first().toString();
    QVERIFY2(message.startsWith(QStringLiteral("rank 1 crashed (killed by signal 9 (SIGKILL))")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("the other ranks were stopped")), qPrintable(message));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("rank 1 crashed")));
    for (qint64 pid : workers)
        QVERIFY(!alive(pid));
    QVERIFY(rankWorkers().isEmpty());
    QVERIFY(view->runButton()->isEnabled());
    QVERIFY(view->rankTable()->isVisibleTo(view)); // where each rank was
    QVERIFY(view->rankModel()->index(0, RankTableModel::StatusColumn).data().toString().startsWith(
        QStringLiteral("stopped at")));
}

// Rank 1 stopped (SIGSTOP): after the rank timeout the dock says it hung, where, and that it is stopped; both
// processes are killed, the stopped one too.
void TestProfileRanksView::hungRankIsShown()
{
    LongRankRun run;
    ProfileWidget *view = run.view;
    QSignalSpy failed(&run.doc, &Document::profileFailed);
    const QString error = run.start(1.5);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QMap<int, qint64> workers = run.workers;
    QElapsedTimer sinceStop;
    sinceStop.start();
    QCOMPARE(::kill(pid_t(workers[1]), SIGSTOP), 0);
    QVERIFY(failed.wait(30000));
    QVERIFY(sinceStop.elapsed() >= 1500 && sinceStop.elapsed() < 10000);
    const QString message = failed.first().first().toString();
    QVERIFY2(message.startsWith(QStringLiteral("rank 1 hung: no progress for")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("(the process is stopped)")), qPrintable(message));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("rank 1 hung")));
    for (qint64 pid : workers)
        QVERIFY(!alive(pid));
    QVERIFY(view->runButton()->isEnabled());
}

// docs/fxscope-ranks.png, taken only when FXSCOPE_SCREENSHOTS names a folder: the sample fused on 2 ranks, the
// rank table, the fused regions over the ranks, and the canvas coloured by the max over ranks with the fused op
// selected.
void TestProfileRanksView::screenshot()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the picture");
    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ProfileWidget *view = window.profileView();
    window.profileDock()->raise();
    window.resizeDocks({window.profileDock()}, {700}, Qt::Horizontal);
    window.resizeDocks({window.inspectorDock(), window.profileDock()}, {190, 790}, Qt::Vertical);
    QVERIFY(openFusedSample(doc));
    Q_EMIT view->rankOfferLabel()->linkActivated(QStringLiteral("ranks"));
    view->itersBox()->setValue(3000); // long enough to picture the ranks under way
    view->warmupBox()->setValue(10);
    view->overlayBox()->setChecked(true);
    QSignalSpy finished(&doc, &Document::ranksProfileFinished);
    QSignalSpy failed(&doc, &Document::profileFailed);
    view->runButton()->click();
    // While it runs: each rank's bar in the rank table.
    QTRY_VERIFY_WITH_TIMEOUT(view->rankModel()->rowCount() == 2
            && view->rankModel()->index(1, RankTableModel::StatusColumn).data(RankTableModel::ProgressRole).toInt()
                > 100,
        kTimeoutMs);
    QVERIFY(test::saveScreenshot(&window, QDir(folder).filePath(QStringLiteral("fxscope-ranks-progress.png"))));
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 600000));
    QVERIFY(failed.isEmpty());
    // Per fused region: mm + all_reduce + wait_tensor against npu_mm_all_reduce_base, its row selected.
    view->modeBox()->setCurrentIndex(1);
    view->tableView()->sortByColumn(ProfileModel::UnfusedColumn, Qt::DescendingOrder);
    QTest::mouseClick(view->tableView()->viewport(), Qt::LeftButton, {},
        view->tableView()->visualRect(view->tableView()->model()->index(0, 0)).center());
    window.patternGraph()->hide();
    QTest::qWait(1500);
    QVERIFY(test::saveScreenshot(&window, QDir(folder).filePath(QStringLiteral("fxscope-ranks.png"))));
}

QTEST_MAIN(TestProfileRanksView)
#include "tst_profile_ranks_view.moc"
