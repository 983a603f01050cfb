// fxscope-cli match/apply over several graphs (issue 17, item 4): one row per graph in input order, a file that
// does not load reported in its row without stopping the others, the exit code, the --json document, the same
// result on one thread and two, and the single-graph output left as it was. Issue 23: the output streams, so a
// zoo's --json, --jsonl and --summary runs in memory that does not grow with the number of graphs.
#include "cli_test_support.h"

#include <QtTest>


#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {


void write(const QString &path, const QByteArray &content)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

const char *kBroken = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n"
                      "    %y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,, "
                      "kwargs = {})\n    return (y,)\n";

// Timings differ from run to run; everything else must not.
QJsonValue withoutTimings(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const auto &v : value.toArray())
            out.append(withoutTimings(v));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject out;
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!QStringList{"ms", "load_ms", "match_ms", "wall_ms", "graphs_per_s", "jobs"}.contains(it.key()))
            out.insert(it.key(), withoutTimings(it.value()));
    return out;
}

// fxscope-cli with stdout to a file, and its peak resident memory as GNU time reports it. Not getrusage of a child
// of this process: Linux starts a child's peak at its parent's (the memory it is forked or vforked from), and this
// test's own peak grows as it reads the documents; time forks fxscope-cli from its own small process.
struct Measured {
    int exitCode = -1;
    long peakRssKib = 0;
    QByteArray out;
};

Measured runMeasured(const QStringList &args, const QString &outPath)
{
    Measured m;
    const QString rssPath = outPath + ".rss";
    QProcess p;
    p.setStandardOutputFile(outPath);
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(QStringLiteral("/usr/bin/time"),
        QStringList{"-f", "%M", "-o", rssPath, QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli")} + args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
        return m;
    m.exitCode = p.exitCode();
    QFile rss(rssPath);
    if (rss.open(QIODevice::ReadOnly)) // "Command exited with non-zero status N" comes first when it did
        m.peakRssKib = rss.readAll().trimmed().split('\n').last().toLong();
    QFile out(outPath);
    if (out.open(QIODevice::ReadOnly))
        m.out = out.readAll();
    return m;
}

// The zoo's files: the LLaMA sample with its RMSNorm epsilon varied, every 50th a dump that does not parse.
QStringList zooFiles(int from, int to)
{
    QStringList names;
    for (int i = from; i < to; ++i)
        names << QStringLiteral("g%1.py").arg(i, 4, 10, QLatin1Char('0'));
    return names;
}

bool brokenInZoo(int i)
{
    return i % 50 == 13;
}

} // namespace

class TestCliBatch : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_zoo; // zoo/: three corpus dumps (one a TORCH_TRACE log of 3 graphs), a broken dump, a README
    // big/a: 100 graph dumps, big/b: 300 more (issue 23's memory check runs 100 against all 400).
    QString m_big;
    QStringList m_bigPaths; // in the order the rows must come
    QByteArray m_bigMatchJson[2]; // match --json over big/a and over big/, kept for the --jsonl and --summary checks

    // Peak RSS of `args` over big/a (100 graphs) and over big/ (400), in KiB per graph more; the two outputs.
    std::pair<QByteArray, QByteArray> growthPerGraph(const QStringList &args, double &kibPerGraph, int &exitCode)
    {
        const Measured hundred
            = runMeasured(QStringList{args[0], m_big + "/a"} + args.mid(1), m_dir.filePath("100.out"));
        const Measured all = runMeasured(QStringList{args[0], m_big} + args.mid(1), m_dir.filePath("400.out"));
        exitCode = all.exitCode == hundred.exitCode ? all.exitCode : -1;
        if (hundred.peakRssKib <= 0 || all.peakRssKib <= 0)
            exitCode = -1; // /usr/bin/time (Debian: time) missing or failed
        kibPerGraph = double(all.peakRssKib - hundred.peakRssKib) / 300;
        qInfo("%s: peak RSS %ld KiB at 100 graphs, %ld KiB at 400: %.1f KiB per graph", qPrintable(args.join(' ')),
            hundred.peakRssKib, all.peakRssKib, kibPerGraph);
        return {hundred.out, all.out};
    }

    // The rows are the zoo's graphs in path order; the broken ones are error rows; the others carry a report
    // unless `summary`.
    void checkZooRows(const QJsonArray &graphs, bool summary, int count = 400)
    {
        QCOMPARE(graphs.size(), count);
        for (int i = 0; i < graphs.size(); ++i) {
            const QJsonObject row = graphs[i].toObject();
            QCOMPARE(row["path"].toString(), m_bigPaths[i]);
            QCOMPARE(row["status"].toString(), QString(brokenInZoo(i) ? "error" : "ok"));
            QCOMPARE(row.contains("report"), !summary);
            if (!summary && !brokenInZoo(i))
                QVERIFY(row["report"].toObject()["graph"].isString());
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_zoo = m_dir.filePath("zoo");
        QVERIFY(QDir().mkpath(m_zoo + "/logs"));
        QVERIFY(QFile::copy(corpus("fx_text/torchair_docs__presentation_md__dynamic_true_fx_graph.txt"),
            m_zoo + "/a_fx.txt"));
        QVERIFY(QFile::copy(corpus("readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py"),
            m_zoo + "/c_forward.py"));
        QVERIFY(QFile::copy(corpus("torch_trace/tlparse__simple.log"), m_zoo + "/logs/simple.log"));
        write(m_zoo + "/b_broken.txt", kBroken);
        write(m_zoo + "/README.md", "# notes\nnot a graph\n");
        write(m_zoo + "/weights.bin", QByteArray(4096, '\0'));

        m_big = m_dir.filePath("big");
        QVERIFY(QDir().mkpath(m_big + "/a") && QDir().mkpath(m_big + "/b"));
        QFile sample(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray llama = sample.readAll();
        const QStringList names = zooFiles(0, 400);
        for (int i = 0; i < names.size(); ++i) {
            const QString path = m_big + (i < 100 ? "/a/" : "/b/") + names[i];
            QByteArray text = llama;
            text.replace("1e-06", QByteArray::number(1e-6 * (1 + i % 7), 'g', 3));
            write(path, brokenInZoo(i) ? QByteArray(kBroken) : text);
            m_bigPaths << path;
        }
    }

    // Rows in path order, the broken file's row carries its FILE:LINE:COL error and makes the exit 2; the others
    // ran; what is not a graph dump is skipped with a note.
    void directoryWithABrokenFile()
    {
        Run r = cli({"match", m_zoo, "--patterns", "builtin", "--json", "--jobs", "2"});
        QCOMPARE(r.exitCode, 2);
        const QJsonObject doc = json(r);
        const QJsonArray graphs = doc["graphs"].toArray();
        QCOMPARE(graphs.size(), 6); // a_fx, b_broken, c_forward, 3 graphs of logs/simple.log
        const QStringList expectedPaths = {"/a_fx.txt", "/b_broken.txt", "/c_forward.py", "/logs/simple.log",
            "/logs/simple.log", "/logs/simple.log"};
        for (int i = 0; i < graphs.size(); ++i) {
            const QJsonObject row = graphs[i].toObject();
            QCOMPARE(row["path"].toString(), m_zoo + expectedPaths[i]);
            const bool broken = i == 1;
            QCOMPARE(row["status"].toString(), QString(broken ? "error" : "ok"));
            QCOMPARE(row["exit"].toInt(), broken ? 2 : 0);
            if (broken) {
                QVERIFY2(row["error"].toString().startsWith(m_zoo + "/b_broken.txt:3:"),
                    qPrintable(row["error"].toString()));
                QVERIFY(row["report"].isNull());
                continue;
            }
            QVERIFY(row["error"].isNull());
            QVERIFY(row["nodes"].toInt() > 0);
            const QJsonObject report = row["report"].toObject();
            QCOMPARE(report["graph"].toString(), row["graph"].toString());
            QCOMPARE(report["graph_nodes"].toInt(), row["nodes"].toInt());
            int candidates = 0;
            for (const auto &p : report["patterns"].toArray())
                candidates += p.toObject()["candidates"].toArray().size();
            QCOMPARE(row["candidates"].toInt(), candidates);
        }
        QCOMPARE(graphs[3].toObject()["graph"].toString(), QString("[0/0] dynamo_output_graph"));
        QCOMPARE(graphs[5].toObject()["graph"].toString(), QString("[0/0] inductor_post_grad_graph"));
        const QJsonArray skipped = doc["skipped"].toArray();
        QCOMPARE(skipped.size(), 2);
        QCOMPARE(skipped[0].toObject()["path"].toString(), m_zoo + "/README.md");
        QCOMPARE(skipped[1].toObject()["path"].toString(), m_zoo + "/weights.bin");
        QVERIFY(skipped[1].toObject()["reason"].toString().contains("binary data"));
        const QJsonObject summary = doc["summary"].toObject();
        QCOMPARE(summary["graphs"].toInt(), 6);
        QCOMPARE(summary["files"].toInt(), 4);
        QCOMPARE(summary["ok"].toInt(), 5);
        QCOMPARE(summary["failed"].toInt(), 1);
        QCOMPARE(summary["exit"].toInt(), 2);
        QCOMPARE(summary["jobs"].toInt(), 2);

        // The table: one row per graph, the same verdicts, the notes on stderr.
        Run table = cli({"match", m_zoo, "--patterns", "builtin", "--jobs", "2"});
        QCOMPARE(table.exitCode, 2);
        int ok = 0, error = 0;
        for (const QByteArray &line : table.out.split('\n')) {
            ok += line.startsWith("ok ") ? 1 : 0;
            error += line.startsWith("error ") ? 1 : 0;
        }
        QCOMPARE(ok, 5);
        QCOMPARE(error, 1);
        QVERIFY(table.out.contains("6 graphs from 4 files (2 skipped): 5 ok, 1 failed"));
        QVERIFY(table.out.contains((m_zoo + "/logs/simple.log [[0/0] aot_inference_graph]").toUtf8()));
        QVERIFY2(table.err.contains(("note: skipped " + m_zoo + "/README.md").toUtf8()), table.err.constData());
    }

    // Threads change the timings only: the rows, their order and every verdict are the same.
    void oneThreadAndTwoAgree()
    {
        const QStringList args = {"match", m_zoo, corpus("readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py"),
            QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"), "--patterns", "builtin", "--json"};
        Run one = cli(args + QStringList{"--jobs", "1"});
        Run two = cli(args + QStringList{"--jobs", "2"});
        QCOMPARE(one.exitCode, 2);
        QCOMPARE(two.exitCode, 2);
        QCOMPARE(json(one)["graphs"].toArray().size(), 8);
        QVERIFY(json(one)["summary"].toObject()["accepted"].toInt() > 0); // the LLaMA sample's fusions
        QCOMPARE(withoutTimings(json(one)), withoutTimings(json(two)));
    }

    // One graph prints today's document; the batch row's report is that same document.
    void singleGraphUnchanged()
    {
        const QString llama = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        Run single = cli({"match", llama, "--patterns", "builtin", "--json"});
        QCOMPARE(single.exitCode, 0);
        QVERIFY(json(single).contains("patterns") && !json(single).contains("graphs"));
        Run batch = cli({"match", llama, "--patterns", "builtin", "--json", "--batch"});
        QCOMPARE(batch.exitCode, 0);
        const QJsonArray rows = json(batch)["graphs"].toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(withoutTimings(rows[0].toObject()["report"]), withoutTimings(json(single)));
        Run text = cli({"match", llama, "--patterns", "builtin"});
        QVERIFY(text.out.startsWith("rms_norm  (builtin:rms_norm)"));
    }

    // Every argument after --patterns is a pattern file, every one before it a graph.
    void patternsAfterTheGraphs()
    {
        const QString llama = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        Run r = cli({"match", llama, m_zoo + "/a_fx.txt", "--patterns", "builtin:rms_norm", "builtin:swiglu",
            "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = json(r)["graphs"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["report"].toObject()["patterns"].toArray().size(), 2);
        QCOMPARE(rows[0].toObject()["by_pattern"].toObject()["swiglu"].toInt(), 1);
        // --check-with-torch and --subgraph work on one graph.
        QCOMPARE(cli({"match", llama, llama, "--patterns", "builtin", "--check-with-torch"}).exitCode, 1);
        QCOMPARE(cli({"match", llama, llama, "--patterns", "builtin", "--subgraph"}).exitCode, 1);
        QCOMPARE(cli({"match", llama, "--patterns", "builtin", "--jobs", "0"}).exitCode, 1);
    }

    // apply over several graphs: steps and node counts per graph, each fused graph written under -o DIR.
    void applyWritesEachFusedGraph()
    {
        const QString out = m_dir.filePath("fused");
        const QString llama = QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
        Run r = cli({"apply", llama, m_zoo, "--patterns", "builtin", "--json", "-o", out, "--jobs", "2"});
        QCOMPARE(r.exitCode, 2); // the broken file
        const QJsonArray rows = json(r)["graphs"].toArray();
        QCOMPARE(rows.size(), 7);
        const QJsonObject first = rows[0].toObject();
        QVERIFY(first["steps"].toInt() > 0);
        QCOMPARE(first["report"].toObject()["steps"].toArray().size(), first["steps"].toInt());
        QCOMPARE(first["nodes_after"].toInt(), first["report"].toObject()["nodes_after"].toInt());
        const QString written = out + "/llama_block.py.fused.json";
        QCOMPARE(first["report"].toObject()["output"].toString(), written);
        Run info = cli({"info", "--json", written});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(json(info)["graphs"].toArray()[0].toObject()["nodes"].toInt(), first["nodes_after"].toInt());
        QVERIFY(QFile::exists(out + "/zoo/logs/simple.log.2.fused.json")); // a log's third graph
        QVERIFY(!QFile::exists(out + "/zoo/b_broken.txt.fused.json"));
    }

    // Issue 23: `match --json` over a zoo writes each graph's object as it is done. The document is whole and in
    // order, and the memory it takes does not grow with the graphs: a document kept whole grows by the report's
    // tree per graph (hundreds of KiB for this graph); a streamed one by a path name.
    void zooMatchJsonStreamsInBoundedMemory()
    {
        double kibPerGraph = 0;
        int exitCode = 0;
        const auto [hundred, all]
            = growthPerGraph({"match", "--patterns", "builtin", "--json", "--jobs", "2"}, kibPerGraph, exitCode);
        QCOMPARE(exitCode, 2); // the broken files
        m_bigMatchJson[0] = hundred;
        m_bigMatchJson[1] = all;
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(all, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.keys(), (QStringList{"graphs", "skipped", "summary"}));
        checkZooRows(doc["graphs"].toArray(), false);
        QCOMPARE(doc["summary"].toObject()["graphs"].toInt(), 400);
        QCOMPARE(doc["summary"].toObject()["failed"].toInt(), 8);
        QVERIFY(doc["summary"].toObject()["accepted"].toInt() > 0);
        QVERIFY2(kibPerGraph < 24, qPrintable(QString::number(kibPerGraph)));
    }

    void zooApplyJsonStreamsInBoundedMemory()
    {
        double kibPerGraph = 0;
        int exitCode = 0;
        const auto [hundred, all]
            = growthPerGraph({"apply", "--patterns", "builtin", "--json", "--jobs", "2"}, kibPerGraph, exitCode);
        QCOMPARE(exitCode, 2);
        QCOMPARE(QJsonDocument::fromJson(hundred).object()["graphs"].toArray().size(), 100);
        const QJsonObject doc = QJsonDocument::fromJson(all).object();
        checkZooRows(doc["graphs"].toArray(), false);
        const QJsonObject first = doc["graphs"].toArray()[0].toObject();
        QVERIFY(first["steps"].toInt() > 0);
        QCOMPARE(first["report"].toObject()["steps"].toArray().size(), first["steps"].toInt());
        QVERIFY2(kibPerGraph < 24, qPrintable(QString::number(kibPerGraph)));
    }

    // --jsonl: the same rows as the document, one per line, then the totals line; --summary: the same counts
    // without the reports, in the document and in the table.
    void zooJsonLinesAndSummary()
    {
        QVERIFY(!m_bigMatchJson[1].isEmpty()); // from zooMatchJsonStreamsInBoundedMemory
        const QJsonObject document = QJsonDocument::fromJson(m_bigMatchJson[1]).object();
        Run lines = cli({"match", m_big, "--patterns", "builtin", "--jobs", "2", "--jsonl"});
        QCOMPARE(lines.exitCode, 2);
        const QList<QByteArray> split = lines.out.trimmed().split('\n');
        QCOMPARE(split.size(), 401);
        const QJsonArray graphs = document["graphs"].toArray();
        QJsonArray rows;
        for (int i = 0; i < 400; ++i) {
            QJsonParseError error;
            const QJsonObject row = QJsonDocument::fromJson(split[i], &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            QCOMPARE(withoutTimings(row), withoutTimings(graphs[i]));
            rows.append(row);
        }
        checkZooRows(rows, false);
        const QJsonObject last = QJsonDocument::fromJson(split[400]).object();
        QCOMPARE(last.keys(), (QStringList{"skipped", "summary"}));
        QCOMPARE(withoutTimings(last["summary"]), withoutTimings(document["summary"]));

        // --summary over big/a, against the full document over big/a.
        const QStringList hundred = {"match", m_big + "/a", "--patterns", "builtin", "--jobs", "2"};
        const QJsonObject full = QJsonDocument::fromJson(m_bigMatchJson[0]).object();
        Run summary = cli(hundred + QStringList{"--json", "--summary"});
        QCOMPARE(summary.exitCode, 2);
        const QJsonArray counted = json(summary)["graphs"].toArray();
        checkZooRows(counted, true, 100);
        for (int i = 0; i < counted.size(); ++i) {
            QJsonObject row = full["graphs"].toArray()[i].toObject();
            row.remove("report");
            QCOMPARE(withoutTimings(counted[i]), withoutTimings(row));
        }
        QCOMPARE(withoutTimings(json(summary)["summary"]), withoutTimings(full["summary"]));
        Run table = cli(hundred + QStringList{"--summary"});
        QCOMPARE(table.exitCode, 2);
        QVERIFY2(table.out.startsWith("100 graphs from 100 files (0 skipped): 98 ok, 2 failed"), table.out.constData());
        QCOMPARE(cli(hundred + QStringList{"--json", "--jsonl"}).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestCliBatch)
#include "tst_cli_batch.moc"
