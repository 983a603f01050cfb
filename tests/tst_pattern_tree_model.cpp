// The pattern tree renders a MatchReport: one row per pattern, per candidate and per reason line, with the
// counts of the report itself; the filter proxy narrows it by verdict, stage and text.

#include "gui_test_paths.h"
#include "pattern_filter_proxy_model.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "io/loader.h"
#include "match/matcher.h"
#include "patterns/builtin_patterns.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QtTest>

using namespace fxs;

namespace {

// The bundled LLaMA block matched with the built-in library: 2 rms_norm_cast and 1 swiglu accepted.
std::shared_ptr<const MatchReport> sampleReport()
{
    auto file = loadGraphFile(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py");
    if (!file)
        qFatal("%s", file.error().toString().c_str());
    PatternRegistry registry;
    if (auto st = registerBuiltinPatterns(registry); !st)
        qFatal("%s", st.error().toString().c_str());
    auto report = Matcher(registry).run(*file->graphs.front().graph);
    if (!report)
        qFatal("%s", report.error().toString().c_str());
    return std::make_shared<const MatchReport>(std::move(report).value());
}

// A hand-made report with what the sample lacks: an extra_check rejection with its trace.
std::shared_ptr<const MatchReport> checkReport()
{
    auto report = std::make_shared<MatchReport>();
    PatternReport p;
    p.name = "add_rms_norm";
    p.source = "patterns.py:12";
    Verdict rejected;
    rejected.anchor = "npu_rms_norm";
    rejected.stage = MatchStage::ExtraCheck;
    rejected.nodes = {"add", "npu_rms_norm"};
    rejected.reasons = {"extra_check returned False"};
    rejected.checkTrace = {"line 3: a_shape = x1.meta['val'].shape → [1, 4, 4096]",
        "line 4: a_shape[-1] == 7168 → False because a_shape[-1] is 4096"};
    p.candidates.push_back(rejected);
    Verdict accepted = rejected;
    accepted.anchor = "npu_rms_norm_1";
    accepted.accepted = true;
    accepted.stage = MatchStage::Accepted;
    accepted.reasons = {"every stage passed"};
    accepted.checkTrace = {"line 4: a_shape[-1] == 7168 → True"};
    p.candidates.push_back(accepted);
    report->patterns.push_back(p);
    PatternReport empty;
    empty.name = "unused";
    report->patterns.push_back(empty);
    return report;
}

int candidateRows(const QAbstractItemModel &model)
{
    int n = 0;
    for (int p = 0; p < model.rowCount(); ++p)
        n += model.rowCount(model.index(p, 0));
    return n;
}

} // namespace

class TestPatternTreeModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelTester();
    void rowCountsFollowReport();
    void candidateData();
    void traceLines();
    void filters_data();
    void filters();
    void textFilterSearchesReasons();
    void clearedReport();
    void loadWarningsShown();

private:
    std::shared_ptr<const MatchReport> m_sample;
};

void TestPatternTreeModel::initTestCase()
{
    m_sample = sampleReport();
}

void TestPatternTreeModel::modelTester()
{
    PatternTreeModel model;
    PatternFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(m_sample);
    model.setReport(checkReport());
    proxy.setVerdicts(PatternFilterProxyModel::Verdicts::Rejected);
    proxy.setStage(QStringLiteral("extra_check"));
    proxy.setFilterText(QStringLiteral("7168"));
    model.setReport(m_sample);
    proxy.setVerdicts(PatternFilterProxyModel::Verdicts::All);
    proxy.setStage({});
    proxy.setFilterText({});
    model.setReport(nullptr);
}

void TestPatternTreeModel::rowCountsFollowReport()
{
    PatternTreeModel model;
    model.setReport(m_sample);
    const MatchReport &report = *m_sample;
    QCOMPARE(model.rowCount(), int(report.patterns.size()));
    QCOMPARE(model.columnCount(), int(PatternTreeModel::ColumnCount));
    for (size_t p = 0; p < report.patterns.size(); ++p) {
        const QModelIndex pattern = model.index(int(p), 0);
        QCOMPARE(pattern.data().toString(), QString::fromStdString(report.patterns[p].name));
        QCOMPARE(model.rowCount(pattern), int(report.patterns[p].candidates.size()));
        for (size_t c = 0; c < report.patterns[p].candidates.size(); ++c) {
            const Verdict &v = report.patterns[p].candidates[c];
            const QModelIndex candidate = model.index(int(c), 0, pattern);
            const int expected = int(v.reasonTexts().size() + v.checkTrace.size() + (v.nodes.empty() ? 0 : 1));
            QCOMPARE(model.rowCount(candidate), expected);
            QCOMPARE(model.hasChildren(candidate), expected > 0);
            QCOMPARE(model.verdict(candidate), &v);
            QCOMPARE(model.parent(candidate), pattern);
            if (expected > 0) {
                const QModelIndex first = model.index(0, 0, candidate);
                QCOMPARE(model.parent(first), candidate);
                QCOMPARE(first.data().toString(), QString::fromStdString(v.reasonTexts().front()));
            }
        }
    }
    // The built-ins on the sample: 2 rms_norm_cast + 1 swiglu accepted.
    const PatternReport *cast = report.find("rms_norm_cast");
    QVERIFY(cast);
    QCOMPARE(cast->acceptedCount(), size_t(2));
    const int castRow = int(cast - report.patterns.data());
    QCOMPARE(
        model.index(castRow, PatternTreeModel::VerdictColumn).data().toString(), QStringLiteral("2 of 9 accepted"));
}

void TestPatternTreeModel::candidateData()
{
    PatternTreeModel model;
    model.setReport(m_sample);
    const PatternReport *swiglu = m_sample->find("swiglu");
    QVERIFY(swiglu);
    const int p = int(swiglu - m_sample->patterns.data());
    const QModelIndex accepted = model.candidateIndex(p, 0);
    QCOMPARE(accepted.data().toString(), QStringLiteral("mul_8"));
    QCOMPARE(accepted.data(PatternTreeModel::AcceptedRole).toBool(), true);
    QCOMPARE(accepted.data(PatternTreeModel::StageRole).toString(), QStringLiteral("accepted"));
    QCOMPARE(accepted.siblingAtColumn(PatternTreeModel::VerdictColumn).data().toString(), QStringLiteral("✓ accepted"));
    QVERIFY(!accepted.data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(model.kind(accepted), PatternTreeModel::Kind::Candidate);
    // Its last child lists the matched nodes.
    const QModelIndex nodes = model.index(model.rowCount(accepted) - 1, 0, accepted);
    QCOMPARE(model.kind(nodes), PatternTreeModel::Kind::Nodes);
    QVERIFY(nodes.data().toString().contains(QLatin1String("mul_8")));

    const QModelIndex rejected = model.candidateIndex(p, 3); // mul_5: silu expected, cat found
    QCOMPARE(rejected.data(PatternTreeModel::AcceptedRole).toBool(), false);
    QCOMPARE(rejected.siblingAtColumn(PatternTreeModel::VerdictColumn).data().toString(), QStringLiteral("✗ generic"));
    QVERIFY(rejected.siblingAtColumn(PatternTreeModel::DetailColumn)
                .data()
                .toString()
                .startsWith(QLatin1String("function_mismatch")));
    QCOMPARE(model.kind(model.index(0, 0, rejected)), PatternTreeModel::Kind::Reason);
}

void TestPatternTreeModel::traceLines()
{
    PatternTreeModel model;
    model.setReport(checkReport());
    const QModelIndex rejected = model.candidateIndex(0, 0);
    QCOMPARE(
        rejected.siblingAtColumn(PatternTreeModel::VerdictColumn).data().toString(), QStringLiteral("✗ extra_check"));
    QCOMPARE(model.rowCount(rejected), 1 + 2 + 1);
    QCOMPARE(model.kind(model.index(0, 0, rejected)), PatternTreeModel::Kind::Reason);
    const QModelIndex trace = model.index(2, 0, rejected);
    QCOMPARE(model.kind(trace), PatternTreeModel::Kind::Trace);
    QCOMPARE(
        trace.data().toString(), QStringLiteral("line 4: a_shape[-1] == 7168 → False because a_shape[-1] is 4096"));
    QCOMPARE(model.kind(model.index(3, 0, rejected)), PatternTreeModel::Kind::Nodes);
    // A pattern without candidates has no children and says so.
    QCOMPARE(model.rowCount(model.patternIndex(1)), 0);
    QVERIFY(!model.hasChildren(model.patternIndex(1)));
    QCOMPARE(model.index(1, PatternTreeModel::VerdictColumn).data().toString(), QStringLiteral("no candidates"));
}

void TestPatternTreeModel::filters_data()
{
    QTest::addColumn<int>("verdicts");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("text");
    QTest::newRow("all") << int(PatternFilterProxyModel::Verdicts::All) << QString() << QString();
    QTest::newRow("accepted") << int(PatternFilterProxyModel::Verdicts::Accepted) << QString() << QString();
    QTest::newRow("rejected") << int(PatternFilterProxyModel::Verdicts::Rejected) << QString() << QString();
    QTest::newRow("overlap") << int(PatternFilterProxyModel::Verdicts::All) << QStringLiteral("overlap") << QString();
    QTest::newRow("rejected generic") << int(PatternFilterProxyModel::Verdicts::Rejected) << QStringLiteral("generic")
                                      << QString();
    QTest::newRow("accepted at generic: none")
        << int(PatternFilterProxyModel::Verdicts::Accepted) << QStringLiteral("generic") << QString();
    QTest::newRow("anchor text") << int(PatternFilterProxyModel::Verdicts::All) << QString() << QStringLiteral("MUL_7");
    QTest::newRow("pattern text") << int(PatternFilterProxyModel::Verdicts::All) << QString()
                                  << QStringLiteral("swiglu");
}

void TestPatternTreeModel::filters()
{
    QFETCH(int, verdicts);
    QFETCH(QString, stage);
    QFETCH(QString, text);
    PatternTreeModel model;
    PatternFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    model.setReport(m_sample);
    proxy.setVerdicts(PatternFilterProxyModel::Verdicts(verdicts));
    proxy.setStage(stage);
    proxy.setFilterText(text);

    // The expected rows, counted from the report itself.
    int expectedCandidates = 0;
    int expectedPatterns = 0;
    for (const PatternReport &p : m_sample->patterns) {
        int shown = 0;
        for (const Verdict &v : p.candidates) {
            if ((verdicts == int(PatternFilterProxyModel::Verdicts::Accepted) && !v.accepted)
                || (verdicts == int(PatternFilterProxyModel::Verdicts::Rejected) && v.accepted))
                continue;
            if (!stage.isEmpty() && stage != QLatin1String(matchStageName(v.stage)))
                continue;
            if (!text.isEmpty()) {
                bool hit = QString::fromStdString(p.name + ' ' + v.anchor).contains(text, Qt::CaseInsensitive);
                for (const std::string &r : v.reasonTexts())
                    hit = hit || QString::fromStdString(r).contains(text, Qt::CaseInsensitive);
                QStringList names;
                for (const std::string &n : v.nodes)
                    names << QString::fromStdString(n);
                hit = hit || names.join(QLatin1String(", ")).contains(text, Qt::CaseInsensitive);
                if (!hit)
                    continue;
            }
            ++shown;
        }
        expectedCandidates += shown;
        expectedPatterns += (shown > 0 || !proxy.isFiltering()) ? 1 : 0;
    }
    QCOMPARE(proxy.rowCount(), expectedPatterns);
    QCOMPARE(candidateRows(proxy), expectedCandidates);
    QCOMPARE(proxy.visibleCandidateCount(), expectedCandidates);
    if (QTest::currentDataTag() == QByteArray("accepted"))
        QCOMPARE(expectedCandidates, 3);
    if (QTest::currentDataTag() == QByteArray("accepted at generic: none"))
        QCOMPARE(proxy.rowCount(), 0);
    // A shown candidate keeps every reason row.
    for (int p = 0; p < proxy.rowCount(); ++p)
        for (int c = 0; c < proxy.rowCount(proxy.index(p, 0)); ++c) {
            const QModelIndex candidate = proxy.index(c, 0, proxy.index(p, 0));
            QCOMPARE(proxy.rowCount(candidate), model.rowCount(proxy.mapToSource(candidate)));
        }
}

void TestPatternTreeModel::textFilterSearchesReasons()
{
    PatternTreeModel model;
    PatternFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    model.setReport(checkReport());
    proxy.setFilterText(QStringLiteral("because a_shape[-1] is 4096"));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 1);
    QCOMPARE(proxy.index(0, 0, proxy.index(0, 0)).data().toString(), QStringLiteral("npu_rms_norm"));
    proxy.setFilterText(QStringLiteral("no such text"));
    QCOMPARE(proxy.rowCount(), 0);
}

void TestPatternTreeModel::clearedReport()
{
    PatternTreeModel model;
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setReport(m_sample);
    QVERIFY(model.rowCount() > 0);
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(reset.count(), 2);
    QVERIFY(!model.verdict(model.index(0, 0)));
}

// A pattern that loaded with warnings carries an icon, a count in its detail and the warnings in its tooltip;
// the Patterns dock shows the files' own warnings above the tree, and nothing there when there are none.
void TestPatternTreeModel::loadWarningsShown()
{
    auto report = std::make_shared<MatchReport>(*checkReport());
    report->patterns[0].warnings = {"patterns.py:14:5: torch.ops.npu.npu_rms_norm traced as a call_function"};
    report->warnings = {"patterns.py:40:1: _register_add_rms_norm_patterns is defined but never called"};
    PatternTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(report);
    const QModelIndex warned = model.patternIndex(0);
    const QModelIndex clean = model.patternIndex(1);
    QVERIFY(!model.data(warned, Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(model.data(clean, Qt::DecorationRole).isNull());
    QCOMPARE(model.data(warned, PatternTreeModel::WarningsRole).toStringList(),
        QStringList{QStringLiteral("patterns.py:14:5: torch.ops.npu.npu_rms_norm traced as a call_function")});
    QVERIFY(model.data(clean, PatternTreeModel::WarningsRole).toStringList().isEmpty());
    QVERIFY(model.data(warned, Qt::ToolTipRole).toString().contains(QStringLiteral("traced as a call_function")));
    QVERIFY(model.data(warned.siblingAtColumn(PatternTreeModel::DetailColumn))
                .toString()
                .contains(QStringLiteral("1 load warning")));

    PatternsWidget widget;
    widget.show();
    auto *files = widget.findChild<QLabel *>(QStringLiteral("patternFileWarnings"));
    QVERIFY(files);
    widget.setReport(report);
    QVERIFY(files->isVisible());
    QVERIFY(files->text().contains(QStringLiteral("never called")));
    QVERIFY(files->text().contains(QStringLiteral("1 match warning")));
    widget.setReport(checkReport());
    QVERIFY(!files->isVisible());
}

QTEST_MAIN(TestPatternTreeModel)
#include "tst_pattern_tree_model.moc"
