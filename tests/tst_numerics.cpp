// Numerics per fusion (issue 25, item 1): `match --check-numerics` and `apply --check-numerics` run each fusion's
// replaced nodes and its replacement on the same seeded inputs and compare. Wrong replacements of the kinds that
// are applied without a warning (a wrong epsilon, the inverse scale, a dtype change, a pattern wider than its
// author meant) are caught at the candidate that is wrong, and only there; right ones report equal. The pattern
// files run in the torch host (FXSCOPE_ENGINE=host): Inductor's own tracing, fxscope's numbers.
#include "cli_test_support.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>

namespace {

QString data(const char *name)
{
    return QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/numerics/") + QLatin1String(name);
}

// anchor -> the candidate's numerics object, for the accepted candidates of the report's only pattern.
QMap<QString, QJsonObject> numericsByAnchor(const QJsonObject &report)
{
    QMap<QString, QJsonObject> out;
    const QJsonArray patterns = report[QStringLiteral("patterns")].toArray();
    for (const auto &p : patterns)
        for (const auto &c : p.toObject()[QStringLiteral("candidates")].toArray()) {
            const QJsonObject candidate = c.toObject();
            if (candidate[QStringLiteral("accepted")].toBool())
                out.insert(candidate[QStringLiteral("anchor")].toString(),
                    candidate[QStringLiteral("numerics")].toObject());
        }
    return out;
}

// A torch host starts per call: more time than the default.
Run numericsCli(const QStringList &args)
{
    return cli(args, QProcessEnvironment::systemEnvironment(), 300000);
}

} // namespace

class TestNumerics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wrongReplacementsAreCaughtAtTheirCandidate_data()
    {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("patterns");
        QTest::addColumn<QStringList>("differ"); // accepted anchors whose numerics must differ
        QTest::addColumn<QStringList>("equal"); // accepted anchors whose numerics must be equal
        QTest::newRow("wrong epsilon") << data("two_norms.json") << data("rms_norm_wrong_eps.py")
                                       << QStringList{"mul_3", "mul_1"} << QStringList{};
        QTest::newRow("inverse scale") << data("quant_linear.json") << data("quant_inverse_scale.py")
                                       << QStringList{"clamp_max"} << QStringList{};
        QTest::newRow("dtype change") << data("attention_probs.json") << data("softmax_bf16.py")
                                      << QStringList{"div_1"} << QStringList{};
        // x * sigmoid(gate) is rewritten as silu(x): wrong there, right on the real SiLU beside it.
        QTest::newRow("too wide a pattern") << data("silu_and_gate.json") << data("silu_too_wide.py")
                                            << QStringList{"mul_1"} << QStringList{"mul"};
        QTest::newRow("the exact pattern") << data("silu_and_gate.json") << data("silu_exact.py") << QStringList{}
                                           << QStringList{"mul"};
        // TorchAir's add_rms_norm_cast: both graphs hold npu ops, run on fxscope's reference kernels.
        QTest::newRow("npu ops on reference kernels")
            << QStringLiteral(FXSCOPE_TEST_DATA_DIR "/inductor/add_rms_norm_cast_graph.py")
            << QStringLiteral(FXSCOPE_TEST_DATA_DIR "/inductor/add_rms_norm_cast_replace.py") << QStringList{}
            << QStringList{"getitem"};
        // A kernel the pattern file defines with torch.library: LibTorch lacks it, the torch host runs both parts.
        QTest::newRow("a file's own torch.library op") << data("silu_and_gate.json") << data("silu_custom_op.py")
                                                       << QStringList{} << QStringList{"mul"};
        QTest::newRow("a file's own wrong torch.library op")
            << data("silu_and_gate.json") << data("silu_custom_op_wrong.py") << QStringList{"mul"} << QStringList{};
    }
    void wrongReplacementsAreCaughtAtTheirCandidate()
    {
        QFETCH(QString, graph);
        QFETCH(QString, patterns);
        QFETCH(QStringList, differ);
        QFETCH(QStringList, equal);
        const Run r = numericsCli({"match", graph, "--patterns", patterns, "--check-numerics", "--json"});
        QCOMPARE(r.exitCode, differ.isEmpty() ? 0 : 6);
        const QMap<QString, QJsonObject> numerics = numericsByAnchor(json(r));
        QCOMPARE(numerics.size(), differ.size() + equal.size());
        for (const auto &anchor : differ) {
            const QJsonObject n = numerics.value(anchor);
            QVERIFY2(n[QStringLiteral("ran")].toBool(), qPrintable(anchor + ": " + n[QStringLiteral("error")].toString()));
            QVERIFY2(!n[QStringLiteral("equal")].toBool(), qPrintable(anchor));
            // where: the replaced node the rest of the graph reads, the index, both values
            QVERIFY2(n[QStringLiteral("detail")].toString().startsWith(anchor + " differs first at ["),
                qPrintable(n[QStringLiteral("detail")].toString()));
            QVERIFY(n[QStringLiteral("detail")].toString().contains(QStringLiteral("the replacement gives ")));
            QCOMPARE(n[QStringLiteral("in_torch_host")].toBool(), patterns.contains(QStringLiteral("custom_op")));
        }
        for (const auto &anchor : equal) {
            const QJsonObject n = numerics.value(anchor);
            QVERIFY2(n[QStringLiteral("ran")].toBool() && n[QStringLiteral("equal")].toBool(),
                qPrintable(anchor + ": " + n[QStringLiteral("text")].toString()));
            QVERIFY(n[QStringLiteral("max_abs_diff")].toDouble() < 1e-4);
            QCOMPARE(n[QStringLiteral("in_torch_host")].toBool(), patterns.contains(QStringLiteral("custom_op")));
        }
    }

    // --refused: a candidate the extra_check refused is fused alone as if the check had accepted, in both engines:
    // the too-wide SiLU's gated unit differs, which is what its check keeps out; the real SiLU is accepted and equal.
    // A refused fusion that differs does not make the exit 6 (nothing was applied).
    void refusedCandidatesAsIfAccepted_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("torch host") << "host";
        QTest::newRow("sandbox") << "sandbox";
    }
    void refusedCandidatesAsIfAccepted()
    {
        QFETCH(QString, engine);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("FXSCOPE_ENGINE", engine);
        const Run r = cli({"match", data("silu_and_gate.json"), "--patterns", data("silu_too_wide_checked.py"),
                              "--check-numerics", "--refused", "--json"},
            env, 300000);
        QCOMPARE(r.exitCode, 0);
        QMap<QString, QJsonObject> byAnchor;
        for (const auto &c : json(r)[QStringLiteral("patterns")].toArray().first().toObject()[QStringLiteral("candidates")].toArray())
            byAnchor.insert(c.toObject()[QStringLiteral("anchor")].toString(), c.toObject());
        const QJsonObject real = byAnchor.value(QStringLiteral("mul")), gated = byAnchor.value(QStringLiteral("mul_1"));
        QVERIFY(real[QStringLiteral("accepted")].toBool());
        QVERIFY(real[QStringLiteral("numerics")].toObject()[QStringLiteral("equal")].toBool());
        QVERIFY(!real[QStringLiteral("numerics")].toObject().contains(QStringLiteral("if_accepted")));
        QVERIFY(!gated[QStringLiteral("accepted")].toBool());
        QCOMPARE(gated[QStringLiteral("stage")].toString(), QStringLiteral("extra_check"));
        const QJsonObject n = gated[QStringLiteral("numerics")].toObject();
        QVERIFY2(n[QStringLiteral("ran")].toBool(), qPrintable(n[QStringLiteral("text")].toString()));
        QVERIFY(n[QStringLiteral("if_accepted")].toBool());
        QVERIFY(!n[QStringLiteral("equal")].toBool());
        QVERIFY2(n[QStringLiteral("text")].toString().startsWith(QStringLiteral("if extra_check accepted: mul_1 differs first at [")),
            qPrintable(n[QStringLiteral("text")].toString()));
        // Without --check-numerics it is a usage error.
        QCOMPARE(cli({"match", data("silu_and_gate.json"), "--patterns", data("silu_too_wide_checked.py"), "--refused"},
                     env)
                     .exitCode,
            1);
    }

    // apply: each step carries its numerics, the text says it under the step, and exit 6 says one differs.
    void applyReportsEachStep()
    {
        const Run text = numericsCli(
            {"apply", data("two_norms.json"), "--patterns", data("rms_norm_wrong_eps.py"), "--check-numerics"});
        QCOMPARE(text.exitCode, 6);
        QCOMPARE(text.out.count("numerics: mul_"), 2);
        const Run good = numericsCli(
            {"apply", data("silu_and_gate.json"), "--patterns", data("silu_exact.py"), "--check-numerics", "--json"});
        QCOMPARE(good.exitCode, 0);
        const QJsonArray steps = json(good)[QStringLiteral("steps")].toArray();
        QCOMPARE(steps.size(), 1);
        const QJsonObject n = steps[0].toObject()[QStringLiteral("numerics")].toObject();
        QVERIFY(n[QStringLiteral("equal")].toBool());
        QCOMPARE(n[QStringLiteral("inputs")].toInt(), 1); // x
        QCOMPARE(n[QStringLiteral("outputs")].toInt(), 1);
    }

    // A batch over the graphs: per graph the equal and differing fusions, and per pattern the totals that differ.
    void batchTotalsPerPattern()
    {
        const Run r = numericsCli({"match", data("quant_linear.json"), data("silu_and_gate.json"),
            data("two_norms.json"), "--patterns", data("silu_too_wide.py"), data("quant_inverse_scale.py"),
            "--check-numerics", "--json", "--summary"});
        QCOMPARE(r.exitCode, 6);
        const QJsonObject summary = json(r)[QStringLiteral("summary")].toObject();
        QCOMPARE(summary[QStringLiteral("exit")].toInt(), 6); // the summary says what the process exits with
        QCOMPARE(summary[QStringLiteral("numerics_equal")].toInt(), 1); // the real SiLU
        QCOMPARE(summary[QStringLiteral("numerics_differ")].toInt(), 2);
        const QJsonObject differ = summary[QStringLiteral("numerics_differ_by_pattern")].toObject();
        QCOMPARE(differ[QStringLiteral("silu_too_wide.silu")].toInt(), 1);
        QCOMPARE(differ[QStringLiteral("quant_inverse_scale.quant")].toInt(), 1);
    }

    void optionsAreChecked()
    {
        QCOMPARE(cli({"match", data("two_norms.json"), "--patterns", data("silu_exact.py"), "--device", "cpu"})
                     .exitCode,
            1); // --device goes with --check-numerics
    }

    // apply over a batch: each graph's sweep with each step's numerics, totals per pattern, exit 6 when one differs.
    void applyBatchTotalsPerPattern()
    {
        const Run r = numericsCli({"apply", data("quant_linear.json"), data("silu_and_gate.json"),
            data("two_norms.json"), "--patterns", data("silu_exact.py"), data("rms_norm_wrong_eps.py"),
            "--check-numerics", "--json"});
        QCOMPARE(r.exitCode, 6);
        const QJsonObject doc = json(r);
        const QJsonObject summary = doc[QStringLiteral("summary")].toObject();
        QCOMPARE(summary[QStringLiteral("numerics_equal")].toInt(), 1); // the exact SiLU
        QCOMPARE(summary[QStringLiteral("numerics_differ")].toInt(), 2); // both norms, the wrong epsilon
        QCOMPARE(summary[QStringLiteral("numerics_differ_by_pattern")].toObject()[QStringLiteral("rms_norm_wrong_eps.rms_norm")]
                     .toInt(),
            2);
        // Each row's steps carry their numerics, as the one-graph document does.
        int stepsWithNumerics = 0;
        for (const auto &row : doc[QStringLiteral("graphs")].toArray())
            for (const auto &step : row.toObject()[QStringLiteral("report")].toObject()[QStringLiteral("steps")].toArray())
                stepsWithNumerics += step.toObject().contains(QStringLiteral("numerics"));
        QCOMPARE(stepsWithNumerics, 3);
    }
};

QTEST_MAIN(TestNumerics)
#include "tst_numerics.moc"
