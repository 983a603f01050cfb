// Near-miss hints (issue 25, item 2): for each usual blocker, a pattern file one change away from matching a
// model's graph gets a hint that names the change, the line of search_fn and how many candidates the changed
// pattern matches; the same file with the hint applied (*_fixed.py) is then accepted, and Inductor's own pass on
// the same graph agrees (--check-with-torch). The files run in the torch host (FXSCOPE_ENGINE=host).
#include "cli_test_support.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>

namespace {

QString data(const QString &name)
{
    return QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/data/near_miss/") + name;
}

Run hostCli(const QStringList &args)
{
    return cli(args, QProcessEnvironment::systemEnvironment(), 300000);
}

QJsonObject onlyPattern(const Run &r)
{
    const QJsonArray patterns = json(r)[QStringLiteral("patterns")].toArray();
    return patterns.size() == 1 ? patterns.first().toObject() : QJsonObject();
}

// The anchors fxscope accepts with the file that applies a hint, checked against Inductor's own pass; empty (and the
// test failed) when the match fails or torch disagrees.
QJsonArray acceptedWithTorchAgreeing(const QString &graph, const QString &fixedFile)
{
    const Run fixed = hostCli({"match", graph, "--patterns", fixedFile, "--check-with-torch", "--json"});
    const QJsonObject root = json(fixed);
    if (fixed.exitCode != 0 || !root[QStringLiteral("torch")].toObject()[QStringLiteral("agrees")].toBool()) {
        QTest::qFail(qPrintable("torch does not agree with " + fixedFile + ": " + QString::fromUtf8(fixed.out)), __FILE__, __LINE__);
        return {};
    }
    QJsonArray accepted;
    for (const auto &c : root[QStringLiteral("patterns")].toArray().first().toObject()[QStringLiteral("candidates")].toArray())
        if (c.toObject()[QStringLiteral("accepted")].toBool())
            accepted.append(c.toObject()[QStringLiteral("anchor")]);
    return accepted;
}

} // namespace

class TestNearMiss : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachBlockerGetsAVerifiedHint_data()
    {
        QTest::addColumn<QString>("kind"); // the file stem and the hint's kind
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("line"); // the line of the *_near.py file the hint names
        QTest::addColumn<bool>("fixable"); // a *_fixed.py applies the hint
        QTest::newRow("cast") << "cast" << "rms_norm_bf16" << 11 << true;
        QTest::newRow("optional argument") << "argument" << "rms_factor" << 9 << true;
        QTest::newRow("overload") << "overload" << "squared_scale" << 10 << true;
        QTest::newRow("intermediate used outside") << "outside_user" << "silu_gate_reused" << 9 << true;
        QTest::newRow("literal of the re-trace") << "literal" << "scaled_residual" << 10 << true;
        // Inductor's trace drops a no-op slice from search_fn: the hint says to remove it from the graph.
        QTest::newRow("no-op slice") << "noop_slice" << "sliced_gelu" << 9 << false;
    }
    void eachBlockerGetsAVerifiedHint()
    {
        QFETCH(QString, kind);
        QFETCH(QString, graph);
        QFETCH(int, line);
        QFETCH(bool, fixable);
        const QString stem = kind == QLatin1String("outside_user") ? QStringLiteral("outside")
            : kind == QLatin1String("noop_slice")                  ? QStringLiteral("slice")
                                                                   : kind;
        const Run near = hostCli({"match", data(graph + ".json"), "--patterns", data(stem + "_near.py"), "--hints",
            "--json"});
        QCOMPARE(near.exitCode, 0);
        const QJsonObject pattern = onlyPattern(near);
        QCOMPARE(pattern[QStringLiteral("accepted")].toInt(), 0);
        const QJsonArray hints = pattern[QStringLiteral("hints")].toArray();
        QVERIFY2(!hints.isEmpty(), near.out.constData());
        const QJsonObject hint = hints.first().toObject();
        const QJsonArray changes = hint[QStringLiteral("changes")].toArray();
        QCOMPARE(changes.size(), 1);
        const QJsonObject change = changes.first().toObject();
        QCOMPARE(change[QStringLiteral("kind")].toString(), kind);
        QVERIFY2(change[QStringLiteral("file")].toString().endsWith(stem + "_near.py"),
            qPrintable(change[QStringLiteral("file")].toString()));
        QCOMPARE(change[QStringLiteral("line")].toInt(), line);
        // Verified: the changed pattern matches where the hint was found.
        QVERIFY(hint[QStringLiteral("would_match")].toInt() >= 1);
        QVERIFY(hint[QStringLiteral("matched")].toArray().contains(hint[QStringLiteral("found_at")]));
        // No extra_check refuses: every candidate the changed pattern matches is accepted.
        QCOMPARE(hint[QStringLiteral("would_accept")].toInt(), hint[QStringLiteral("would_match")].toInt());
        QVERIFY(hint[QStringLiteral("text")].toString().startsWith(QStringLiteral("would accept ")));
        if (!fixable)
            return;
        // The hint applied to the file: fxscope accepts the candidates the hint named, and Inductor agrees.
        QCOMPARE(acceptedWithTorchAgreeing(data(graph + ".json"), data(stem + "_fixed.py")),
            hint[QStringLiteral("matched")].toArray());
    }

    // The changed pattern's matches face the pattern's own extra_check, as they would in torch: of the two RMSNorms
    // the hint's pattern matches, the check (rows of 128) takes one. The file with the hint applied is accepted
    // exactly there, and Inductor's own pass agrees.
    void hintCountsWhatTheExtraCheckAccepts()
    {
        const Run near = hostCli({"match", data("two_rms_norms_bf16.json"), "--patterns", data("cast_checked_near.py"),
            "--hints", "--json"});
        QCOMPARE(near.exitCode, 0);
        const QJsonObject pattern = onlyPattern(near);
        QCOMPARE(pattern[QStringLiteral("accepted")].toInt(), 0);
        const QJsonArray hints = pattern[QStringLiteral("hints")].toArray();
        QVERIFY2(!hints.isEmpty(), near.out.constData());
        const QJsonObject hint = hints.first().toObject();
        QCOMPARE(hint[QStringLiteral("would_match")].toInt(), 2);
        QCOMPARE(hint[QStringLiteral("would_accept")].toInt(), 1);
        const QString text = hint[QStringLiteral("text")].toString();
        QVERIFY2(text.startsWith(QStringLiteral("would accept 1 of 4 candidates")), qPrintable(text));
        QVERIFY2(hint[QStringLiteral("refusal")].toString().contains(QStringLiteral("hidden is 64")), qPrintable(text));
        QCOMPARE(acceptedWithTorchAgreeing(data("two_rms_norms_bf16.json"), data("cast_checked_fixed.py")),
            hint[QStringLiteral("accepted")].toArray());
    }

    // Batch mode: the hints per pattern of each graph, and their totals.
    void batchTotals()
    {
        const Run r = hostCli({"match", data("rms_norm_bf16.json"), data("silu_gate_reused.json"), data("rms_factor.json"),
            "--patterns", data("cast_near.py"), data("outside_near.py"), "--hints", "--summary", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject totals = json(r)[QStringLiteral("summary")].toObject()[QStringLiteral("hints_by_pattern")].toObject();
        QCOMPARE(totals.value(QStringLiteral("cast_near.rms_norm")).toInt(), 1);
        QCOMPARE(totals.value(QStringLiteral("outside_near.silu_and_mul")).toInt(), 1);
        QCOMPARE(totals.size(), 2);
    }

    // A pattern that matches needs no hint, and a pattern far from the graph gets none that is not verified.
    void noHintWithoutANearMiss()
    {
        const Run exact = hostCli({"match", data("scaled_residual.json"), "--patterns", data("literal_fixed.py"),
            "--hints", "--json"});
        QCOMPARE(exact.exitCode, 0);
        QVERIFY(onlyPattern(exact)[QStringLiteral("hints")].toArray().isEmpty());
        const Run far = hostCli({"match", data("scaled_residual.json"), "--patterns", data("cast_near.py"), "--hints",
            "--json"});
        QCOMPARE(far.exitCode, 0);
        QVERIFY(onlyPattern(far)[QStringLiteral("hints")].toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNearMiss)
#include "tst_near_miss.moc"
