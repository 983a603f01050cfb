// profile --ranks: the real fxscope-cli starting one worker per rank on a Gloo process group. The tensor-parallel MLP
// sample (resources/samples/tp_mlp, captured by fxscope_capture.distributed under torch.distributed with Gloo) runs
// on 2 ranks: each rank's outputs equal what PyTorch computed eagerly on that rank (the capture's outputs file), and
// the graph fused with the mm + all_reduce pattern gives the same. Faults: a rank killed, stopped or failing ends the
// run within --rank-timeout with the rank, node and cause named, and no worker left behind.
#include <QtTest>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/types.h>

namespace {

const QString kSample = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/tp_mlp/");
const QString kPattern = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/patterns/mm_all_reduce.py");

QStringList sampleArgs()
{
    return {"profile", kSample + "tp_mlp_rank{r}.json", "--ranks", "2", "--inputs",
        kSample + "tp_mlp_rank{r}.safetensors"};
}

// The rank workers a CLI process started: children whose command line is `... rank-worker REQUEST`, by rank.
// /proc files report size 0: read them as streams.
QByteArray procFile(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    return QByteArray::fromStdString(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
}

// The rank workers a CLI process started: children whose command line is `... rank-worker REQUEST`, by rank.
QMap<int, qint64> workersOf(qint64 parent)
{
    QMap<int, qint64> out;
    for (const QString &entry : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QByteArray s = procFile("/proc/" + entry + "/stat");
        const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields[1].toLongLong() != parent)
            continue;
        const QList<QByteArray> argv = procFile("/proc/" + entry + "/cmdline").split('\0');
        if (argv.size() >= 3 && argv[1] == "rank-worker") {
            const QByteArray request = argv[2].mid(argv[2].lastIndexOf('/') + 1); // rankN.request.json
            out[request.mid(4, request.indexOf('.') - 4).toInt()] = pid;
        }
    }
    return out;
}

bool alive(qint64 pid)
{
    return QFile::exists("/proc/" + QString::number(pid));
}

struct Fault {
    int exitCode = -1;
    QByteArray err;
    qint64 elapsedMs = 0; // from the fault to the CLI's exit
    QList<qint64> workers;
};

// Starts a long run, waits until both workers have run for `settleMs`, hits rank 1 with `sig`, and waits for the end.
Fault hitRank1(int sig, const QStringList &extra)
{
    QProcess p;
    p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), sampleArgs() + extra);
    Fault f;
    if (!p.waitForStarted())
        return f;
    QMap<int, qint64> workers;
    QElapsedTimer waiting;
    waiting.start();
    while (workers.size() < 2 && waiting.elapsed() < 20000) {
        QTest::qWait(50);
        workers = workersOf(p.processId());
    }
    f.workers = workers.values();
    if (workers.size() < 2) {
        p.kill();
        p.waitForFinished();
        return f;
    }
    QTest::qWait(2500); // LibTorch loaded, the group joined, the runs going
    ::kill(pid_t(workers[1]), sig);
    QElapsedTimer sinceFault;
    sinceFault.start();
    p.waitForFinished(60000);
    f.elapsedMs = sinceFault.elapsed();
    f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    f.err = p.readAllStandardError();
    return f;
}

} // namespace

class TestRanks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tensorParallelMlpMatchesPyTorchOnEveryRank()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath("trace.json");
        QProcess p;
        p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            sampleArgs()
                + QStringList{"--expected", kSample + "tp_mlp_rank{r}.outputs.safetensors", "--patterns", kPattern,
                    "--iters", "3", "--warmup", "1", "--trace", trace, "--json"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(r["ranks"].toInt(), 2);
        QCOMPARE(r["backend"].toString(), QStringLiteral("gloo"));
        QCOMPARE(r["fused_steps"].toInt(), 1);
        QVERIFY(r["outputs_match"].toBool());
        QVERIFY(r["expected_match"].toBool());
        const QJsonArray ranks = r["per_rank"].toArray();
        QCOMPARE(ranks.size(), 2);
        for (int k = 0; k < 2; ++k) {
            const QJsonObject rank = ranks[k].toObject();
            QCOMPARE(rank["rank"].toInt(), k);
            // Against PyTorch's eager outputs on that rank, and the fused graph against the unfused one.
            QVERIFY2(rank["expected"].toObject()["outputs_match"].toBool(), qPrintable(rank["expected"].toObject()["outputs_detail"].toString()));
            QVERIFY(rank["outputs_match"].toBool());
            QVERIFY(rank["unfused_collective_ms"].toDouble() > 0);
            QVERIFY(rank["unfused_compute_ms"].toDouble() > 0);
        }
        // The fused graph runs the matmul + all_reduce as one op; the unfused graph's collectives are flagged.
        bool fusedOp = false;
        for (const auto &n : r["fused"].toObject()["nodes"].toArray())
            fusedOp = fusedOp || n.toObject()["target"].toString().contains("npu_mm_all_reduce_base");
        QVERIFY(fusedOp);
        int collectives = 0;
        for (const auto &n : r["unfused"].toObject()["nodes"].toArray()) {
            const QJsonObject node = n.toObject();
            collectives += node["collective"].toBool() ? 1 : 0;
            QCOMPARE(node["rank_us"].toArray().size(), 2);
            QVERIFY(node["slowest_rank"].toInt() == 0 || node["slowest_rank"].toInt() == 1);
        }
        QCOMPARE(collectives, 3); // all_reduce, wait_tensor, wait_tensor_1
        // The trace: a process per rank and graph, collectives on their own track.
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<QString> processes;
        bool collectiveTrack = false;
        for (const auto &e : QJsonDocument::fromJson(file.readAll()).object()["traceEvents"].toArray()) {
            const QJsonObject ev = e.toObject();
            if (ev["name"] == "process_name")
                processes.insert(ev["args"].toObject()["name"].toString());
            if (ev["ph"] == "X" && ev["tid"].toInt() == 2)
                collectiveTrack = collectiveTrack || ev["cat"].toString().contains("c10d_functional");
        }
        QCOMPARE(processes,
            (QSet<QString>{"rank 0 unfused (cpu)", "rank 0 fused (cpu)", "rank 1 unfused (cpu)", "rank 1 fused (cpu)"}));
        QVERIFY(collectiveTrack);
    }

    void killedRankIsNamedAndNothingIsLeft()
    {
        const Fault f = hitRank1(SIGKILL, {"--iters", "1000000", "--rank-timeout", "5"});
        QCOMPARE(f.workers.size(), 2);
        QCOMPARE(f.exitCode, 3);
        // Where it was: inside a node, or at the barrier the ranks meet at before each run.
        QVERIFY2(f.err.contains("rank 1 crashed (killed by signal 9 (SIGKILL)) at node '")
                || f.err.contains("rank 1 crashed (killed by signal 9 (SIGKILL)) waiting for the other ranks before run"),
            f.err.constData());
        QVERIFY2(f.err.contains("of the unfused graph"), f.err.constData());
        QVERIFY2(f.err.contains("rank 0 "), f.err.constData());
        QVERIFY2(f.elapsedMs < 5000, qPrintable(QString::number(f.elapsedMs)));
        for (qint64 pid : f.workers)
            QVERIFY2(!alive(pid), qPrintable(QString::number(pid)));
    }

    void stoppedRankHangsUntilTheTimeout()
    {
        const Fault f = hitRank1(SIGSTOP, {"--iters", "1000000", "--rank-timeout", "2"});
        QCOMPARE(f.workers.size(), 2);
        QCOMPARE(f.exitCode, 3);
        QVERIFY2(f.err.contains("rank 1 hung: no progress for 2."), f.err.constData());
        QVERIFY2(f.err.contains("(the process is stopped)"), f.err.constData());
        QVERIFY2(f.err.contains("rank 0 was "), f.err.constData());
        QVERIFY2(f.elapsedMs >= 2000 && f.elapsedMs < 8000, qPrintable(QString::number(f.elapsedMs)));
        for (qint64 pid : f.workers)
            QVERIFY2(!alive(pid), qPrintable(QString::number(pid)));
    }

    void rankThatRaisesIsNamed()
    {
        // Rank 1's input has the wrong inner size: its first mm raises; rank 0 loses its peer after that.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(kSample + "tp_mlp_rank0.safetensors", dir.filePath("in.rank0.safetensors")));
        const QByteArray header = R"({"x":{"dtype":"F32","shape":[32,3],"data_offsets":[0,384]}})";
        QByteArray bytes(8, '\0');
        const quint64 size = quint64(header.size());
        memcpy(bytes.data(), &size, 8);
        bytes += header + QByteArray(384, '\0');
        QFile bad(dir.filePath("in.rank1.safetensors"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(bytes);
        bad.close();
        QProcess p;
        p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {"profile", kSample + "tp_mlp_rank{r}.json", "--ranks", "2", "--inputs", dir.filePath("in.rank{r}.safetensors"),
                "--rank-timeout", "10"});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains("rank 1 failed"), err.constData());
        QVERIFY2(err.contains("'mm'") || err.contains("'x'"), err.constData());
        QVERIFY(workersOf(p.processId()).isEmpty());
    }

    void groupSizeMustMatchRanks()
    {
        // The corpus's 2-rank log: its all_gather was captured with group_size 2.
        QProcess p;
        p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"),
            {"profile", QStringLiteral(FXSCOPE_CORPUS_DIR "/readable/tlparse__multi_rank_runtime_r0__0-1__aot_inference_graph.py"),
                "--ranks", "3"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().contains("captured on 2 ranks"));
    }
};

QTEST_GUILESS_MAIN(TestRanks)
#include "tst_ranks.moc"
