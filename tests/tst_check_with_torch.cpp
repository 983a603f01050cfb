// fxscope-cli match --check-with-torch: Inductor's real PatternMatcherPass run on the same graph in a Python with
// torch (fxscope_capture.inductor_check), per candidate "torch" and "torch_agrees", exit 4 on a disagreement.
#include "cli_test_support.h"

#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

namespace {

// The real torch's Python, for the wrapper script of the disagreement test.
Run torchCli(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FXSCOPE_TEST_REAL_PYTHON", QStringLiteral(FXSCOPE_TORCH_PYTHON));
    return cli(args, env, 600000);
}

QString src(const char *relative)
{
    return QStringLiteral(FXSCOPE_SOURCE_DIR "/") + QLatin1String(relative);
}

QStringList resourcePatterns()
{
    QStringList files;
    for (const QString &f : QDir(src("resources/patterns")).entryList({"*.py"}, QDir::Files, QDir::Name))
        files << src("resources/patterns/") + f;
    return files;
}

// Every candidate carries torch's verdict; torch_agrees is fxscope's verdict == torch's; the exit code is 4 exactly
// when some candidate (or the pass as a whole) disagrees. Returns (candidates, torch replacements).
std::pair<int, int> checkContract(const Run &r)
{
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    const QJsonObject torch = o["torch"].toObject();
    if (!torch["torch_version"].toString().startsWith("2."))
        qFatal("no torch version in --check-with-torch output: %s", r.err.constData());
    int candidates = 0, replaced = 0;
    bool allAgree = true;
    for (const auto &p : o["patterns"].toArray())
        for (const auto &cv : p.toObject()["candidates"].toArray()) {
            const QJsonObject c = cv.toObject();
            const QJsonObject t = c["torch"].toObject();
            if (!t.contains("replaced") || !c.contains("torch_agrees"))
                qFatal("candidate without torch's verdict");
            if (!t["stage"].toString().startsWith("not_")) {
                const bool same = c["accepted"].toBool() == t["replaced"].toBool();
                if (!same && c["torch_agrees"].toBool())
                    qFatal("torch_agrees on different verdicts");
            }
            allAgree = allAgree && c["torch_agrees"].toBool();
            replaced += t["replaced"].toBool() ? 1 : 0;
            ++candidates;
        }
    const bool agrees = torch["agrees"].toBool();
    if (agrees != torch["disagreements"].toArray().isEmpty() || (allAgree == false && agrees))
        qFatal("torch.agrees does not follow the candidates");
    if (r.exitCode != (agrees ? 0 : 4))
        qFatal("exit code %d with agrees=%d: %s", r.exitCode, int(agrees), r.err.constData());
    return {candidates, replaced};
}

} // namespace

class TestCheckWithTorch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sampleWithResourcePatterns()
    {
        Run r = torchCli(QStringList{"match", src("resources/samples/llama_block.py"), "--patterns"} + resourcePatterns()
            + QStringList{"--check-with-torch", "--json"});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 4, r.err.constData());
        auto [candidates, replaced] = checkContract(r);
        QVERIFY(candidates > 0);
        QVERIFY(replaced > 0); // the sample's f16 RMSNorm (4096 wide) passes rms_norm.py's check in Inductor
    }

    void corpusGraph()
    {
        Run r = torchCli({"match",
            QStringLiteral(FXSCOPE_CORPUS_DIR "/readable/learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py"),
            "--patterns", src("resources/patterns/gelu_tanh.py"), "--check-with-torch", "--json"});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 4, r.err.constData());
        auto [candidates, replaced] = checkContract(r);
        QVERIFY(candidates > 0);
        Q_UNUSED(replaced);
    }

    void tableShowsTheTorchColumn()
    {
        Run r = torchCli({"match", src("resources/samples/llama_block.py"), "--patterns", src("resources/patterns/rms_norm.py"),
            "--check-with-torch", QStringLiteral(FXSCOPE_TORCH_PYTHON)});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 4, r.err.constData());
        QVERIFY(r.out.contains("torch 2."));
        QVERIFY(r.out.contains("agrees") || r.out.contains("DIFFERS"));
    }

    // A genuine disagreement: mul_add.py registers through TorchAir, so fxscope runs TorchAir's remove_noop_ops
    // first, drops the no-op slice between mul and add and accepts; the real pass forced into Inductor's pipeline
    // sees the slice and keeps the graph.
    void disagreementExitsFour()
    {
        Run r = torchCli({"match", src("tests/data/check_with_torch/noop_slice_mul_add.py"), "--patterns",
            src("tests/oracle/patterns/mul_add.py"), "--check-with-torch",
            src("tests/data/check_with_torch/inductor_pipeline_python.sh"), "--json"});
        QCOMPARE(r.exitCode, 4);
        checkContract(r);
        QVERIFY2(r.err.contains("torch disagrees: mul_add @ add"), r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(report["pipeline"].toObject()["follows"].toString(), QString("torchair"));
        const QJsonObject c = report["patterns"].toArray()[0].toObject()["candidates"].toArray()[0].toObject();
        QCOMPARE(c["accepted"].toBool(), true);
        QCOMPARE(c["torch"].toObject()["replaced"].toBool(), false);
        QCOMPARE(c["torch_agrees"].toBool(), false);

        // The torch side left to choose (TorchAir's pipeline for a TorchAir file, as fxscope): both replace.
        Run same = torchCli({"match", src("tests/data/check_with_torch/noop_slice_mul_add.py"), "--patterns",
            src("tests/oracle/patterns/mul_add.py"), "--check-with-torch", "--json"});
        QCOMPARE(same.exitCode, 0);
        checkContract(same);
    }

    void errors()
    {
        Run r = torchCli({"match", src("resources/samples/llama_block.py"), "--patterns",
            src("resources/patterns/addmm_training.addmm_training.json"), "--check-with-torch"});
        QCOMPARE(r.exitCode, 1); // JSON pattern files are not registered through register_replacement
        Run bad = torchCli({"match", src("resources/samples/llama_block.py"), "--patterns", src("resources/patterns/rms_norm.py"),
            "--check-with-torch", "/bin/false"});
        QCOMPARE(bad.exitCode, 3);
        QVERIFY(bad.err.contains("inductor_check failed"));
    }
};

QTEST_GUILESS_MAIN(TestCheckWithTorch)
#include "tst_check_with_torch.moc"
