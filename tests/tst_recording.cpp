// Recordings of real torch.compile runs (python -m fxscope_capture.record): tests/data/recording/two_ranks, written
// by make_recording.py beside it, where a vLLM-style post-grad pattern pass fuses x * sigmoid(x) into silu on rank 0
// and its extra_check refuses on rank 1. The reader turns the folder into a timeline of graphs with torch's own
// counts; the fusion matrix marks exactly the cells where the ranks differ; broken folders give errors that say
// where, and keep every step before a broken one.

#include "compare/fusion_matrix.h"
#include "io/format.h"
#include "io/loader.h"
#include "io/recording_reader.h"
#include "util/json.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace fxs;

namespace {

const QString kTwoRanks = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/recording/two_ranks");
const std::string kSilu = "__main__.rank_main.silu_pattern";

const RecordedStream *findStream(const Recording &r, int rank, const std::string &name)
{
    for (const auto &s : r.streams)
        if (s.rank == rank && s.name == name)
            return &s;
    return nullptr;
}

// `target` as aten.X.overload; the capture writes torch.ops.aten.X.overload, as print(gm.graph) does.
bool hasTarget(const Graph &g, const std::string &target)
{
    for (const auto &n : g.nodes())
        if (n->target() == target || n->target() == "torch.ops." + target)
            return true;
    return false;
}

// A copy of the recording in `dir`, to break.
QString copyRecording(const QTemporaryDir &dir)
{
    const QString to = dir.filePath(QStringLiteral("rec"));
    QDir source(kTwoRanks);
    for (const QString &rel : {QStringLiteral("rank0/0_0.dynamo"), QStringLiteral("rank0/0_0.inference"),
             QStringLiteral("rank1/0_0.dynamo"), QStringLiteral("rank1/0_0.inference")}) {
        QDir().mkpath(to + QLatin1Char('/') + rel);
        for (const QString &f : QDir(kTwoRanks + QLatin1Char('/') + rel).entryList(QDir::Files))
            QFile::copy(kTwoRanks + QLatin1Char('/') + rel + QLatin1Char('/') + f, to + QLatin1Char('/') + rel +
                    QLatin1Char('/') + f);
    }
    QFile::copy(source.filePath(QStringLiteral("recording.json")), to + QStringLiteral("/recording.json"));
    return to;
}

void writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

} // namespace

class TestRecording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timelineOfEveryRankAndGraph()
    {
        auto file = loadGraphFile(kTwoRanks.toStdString());
        QVERIFY2(file.ok(), file ? "" : file.error().toString().c_str());
        QCOMPARE(file->format, std::string(format::Recording));
        QVERIFY(file->warnings.empty());
        const Recording &rec = *file->recording;
        QCOMPARE(rec.ranks(), (std::vector<int>{0, 1}));
        QCOMPARE(rec.streams.size(), size_t(4));
        // In the order torch made them: Dynamo's graph, then the AOT inference graph Inductor's passes ran on.
        QCOMPARE(rec.streams[0].name, std::string("0_0.dynamo"));
        QCOMPARE(rec.streams[1].name, std::string("0_0.inference"));
        QCOMPARE(rec.streams[1].kind, std::string("inference"));
        QVERIFY(rec.torchVersion.rfind("2.", 0) == 0);

        // Rank 0: the custom post-grad pass replaced x * sigmoid(x) once, with silu as torch traced it (decomposed).
        const RecordedStream *r0 = findStream(rec, 0, "0_0.inference");
        QVERIFY(r0);
        const RecordedStep &fused = r0->steps.back();
        QCOMPARE(fused.pass, std::string("post_grad_custom_post_pass"));
        QVERIFY(fused.changed);
        QCOMPARE(fused.replaced(), int64_t(1));
        QCOMPARE(fused.patternPasses.front().identity, std::string("silu_fusion"));
        const Graph &after = *file->graphs[size_t(fused.graph)].graph;
        const Graph &before = *file->graphs[size_t(r0->steps[fused.index - 1].graph)].graph;
        QVERIFY(hasTarget(before, "aten.sigmoid.default"));
        QVERIFY(!hasTarget(after, "aten.sigmoid.default"));
        QVERIFY(hasTarget(after, "aten.exp.default"));
        // A pass that changed nothing leaves the graph before it.
        QVERIFY(!r0->steps[1].changed);
        QCOMPARE(r0->steps[1].graph, r0->steps[0].graph);

        // Rank 1: tried, refused by the extra_check, with the reason torch's run gave.
        const RecordedStream *r1 = findStream(rec, 1, "0_0.inference");
        QVERIFY(r1);
        const RecordedStep &refused = r1->steps.back();
        QVERIFY(!refused.changed);
        const RecordedPattern &silu = refused.patternPasses.front().patterns.front();
        QCOMPARE(silu.name, kSilu);
        QCOMPARE(silu.tried, int64_t(1));
        QCOMPARE(silu.extraCheckFalse, int64_t(1));
        QCOMPARE(silu.anchors.front().verdict, std::string("extra_check"));
        QVERIFY(silu.source.find("make_recording.py:") != std::string::npos);
        QVERIFY(hasTarget(*file->graphs[size_t(refused.graph)].graph, "aten.sigmoid.default"));

        // Graphs are addressable by name, as --graph takes them.
        QVERIFY(file->find("rank0/0_0.inference/003 post_grad_custom_post_pass"));
        // The folder's recording.json opens the same recording.
        auto byIndex = loadGraphFile((kTwoRanks + QStringLiteral("/recording.json")).toStdString());
        QVERIFY(byIndex.ok());
        QCOMPARE(byIndex->graphs.size(), file->graphs.size());
    }

    void fusionMatrixMarksTheRanksThatDiffer()
    {
        auto file = loadGraphFile(kTwoRanks.toStdString());
        QVERIFY(file.ok());
        const FusionMatrix m = fusionMatrix(*file->recording);
        // Dynamo's graphs run no pattern pass: no column.
        QCOMPARE(m.columns.size(), size_t(2));
        QCOMPARE(m.columns[0].stream, std::string("0_0.inference"));
        QCOMPARE(m.columns[0].rank, 0);
        QCOMPARE(m.columns[1].rank, 1);
        size_t siluRows = 0;
        for (const auto &row : m.rows) {
            const bool silu = row.pattern == kSilu;
            siluRows += silu;
            QCOMPARE(row.cells[0].disagrees, silu);
            QCOMPARE(row.cells[1].disagrees, silu);
            if (silu) {
                QCOMPARE(row.cells[0].replaced, int64_t(1));
                QCOMPARE(row.cells[1].replaced, int64_t(0));
                QCOMPARE(row.cells[1].tried, int64_t(1));
            }
        }
        QCOMPARE(siluRows, size_t(1));
        QCOMPARE(m.disagreements(), size_t(2));
    }

    void cliInfoPrintsTimelineAndMatrix()
    {
        QProcess cli;
        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), {QStringLiteral("info"), kTwoRanks,
            QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        auto json = Json::parse(cli.readAllStandardOutput().toStdString());
        QVERIFY(json.ok());
        const Json &rec = json.value()["recording"];
        QCOMPARE(rec["streams"].size(), size_t(4));
        QCOMPARE(rec["fusion_matrix"]["disagreements"].toInt(), int64_t(2));
        const Json &last = rec["streams"].items()[1]["steps"].items().back();
        QCOMPARE(last["pass"].toString(), std::string("post_grad_custom_post_pass"));
        QCOMPARE(last["pattern_passes"].items().front()["replaced"].toInt(), int64_t(1));

        cli.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), {QStringLiteral("info"), kTwoRanks,
            QStringLiteral("--anchors")});
        QVERIFY(cli.waitForFinished(60000));
        const QString text = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("2 ranks")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("1 (1)*")));
        QVERIFY(text.contains(QStringLiteral("extra_check returned False")));
    }

    void brokenStepKeepsTheStepsBeforeIt()
    {
        QTemporaryDir dir;
        const QString rec = copyRecording(dir);
        writeText(rec + QStringLiteral("/rank1/0_0.inference/002.json"), "{\"fxscope\": 1, \"graphs\": [ nope");
        // A write in progress when the program died: a temporary file, never read as a step.
        writeText(rec + QStringLiteral("/rank0/0_0.inference/.004.json.x1y2.tmp"), "{");
        auto file = loadGraphFile(rec.toStdString());
        QVERIFY(file.ok());
        QCOMPARE(file->warnings.size(), size_t(1));
        const std::string warning = file->warnings.front().toString();
        QVERIFY2(warning.find("rank1/0_0.inference/002.json:1:") != std::string::npos, warning.c_str());
        const RecordedStream *r1 = findStream(*file->recording, 1, "0_0.inference");
        QVERIFY(r1);
        QCOMPARE(r1->steps.size(), size_t(2));
        QCOMPARE(findStream(*file->recording, 0, "0_0.inference")->steps.size(), size_t(4));
    }

    void missingStepIsNamed()
    {
        QTemporaryDir dir;
        const QString rec = copyRecording(dir);
        QVERIFY(QFile::remove(rec + QStringLiteral("/rank0/0_0.inference/001.json")));
        auto file = loadGraphFile(rec.toStdString());
        QVERIFY(file.ok());
        QCOMPARE(file->warnings.size(), size_t(1));
        QVERIFY(file->warnings.front().message.find("expected step 1, found step 2") != std::string::npos);
        QCOMPARE(findStream(*file->recording, 0, "0_0.inference")->steps.size(), size_t(1));
    }

    void badIndexIsAnError_data()
    {
        QTest::addColumn<QByteArray>("index");
        QTest::addColumn<QString>("expected");
        QTest::newRow("newer version") << QByteArray("{\"fxscope_recording\": 99}") << "found version 99";
        QTest::newRow("not a recording") << QByteArray("{\"fxscope\": 1}") << "\"fxscope_recording\"";
        QTest::newRow("not JSON") << QByteArray("{\"fxscope_recording\": ") << "recording.json:1:";
    }

    void badIndexIsAnError()
    {
        QFETCH(QByteArray, index);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString rec = copyRecording(dir);
        writeText(rec + QStringLiteral("/recording.json"), index);
        auto file = loadGraphFile(rec.toStdString());
        QVERIFY(!file.ok());
        QVERIFY2(QString::fromStdString(file.error().toString()).contains(expected),
            file.error().toString().c_str());
    }

    void recordingWithoutPassesIsAnError()
    {
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("recording.json")), "{\"fxscope_recording\": 1, \"torch\": \"2.13\"}");
        QVERIFY(isRecordingPath(dir.path().toStdString()));
        auto file = loadGraphFile(dir.path().toStdString());
        QVERIFY(!file.ok());
        QVERIFY(file.error().message.find("did the program compile anything") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
