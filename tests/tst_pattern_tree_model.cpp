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
#include <QAbstractItemView>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
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

// Patterns named like the built-ins, the i-th with i + 1 candidates (so a count tells which pattern is shown).
std::shared_ptr<const MatchReport> namedReport()
{
    auto report = std::make_shared<MatchReport>();
    const char *names[] = {"rms_norm", "add_rms_norm", "addmm", "addmm_training", "swiglu", "gelu_tanh"};
    for (size_t i = 0; i < std::size(names); ++i) {
        PatternReport p;
        p.name = names[i];
        for (size_t c = 0; c <= i; ++c) {
            Verdict v;
            v.anchor = "node" + std::to_string(c);
            v.stage = MatchStage::Generic;
            p.candidates.push_back(v);
        }
        report->patterns.push_back(p);
    }
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
    void patternTermResolves_data();
    void patternTermResolves();
    void patternTermCompletes();

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

// "pattern:NAME" takes the exact name, the one name equal ignoring case, or the one name it begins; an unknown or
// ambiguous name shows no candidate and a message that names the close ones.
void TestPatternTreeModel::patternTermResolves_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("pattern"); // what it resolves to; empty: none
    QTest::addColumn<int>("candidates");
    QTest::addColumn<QString>("message"); // a part of the message shown; empty: none shown
    QTest::newRow("exact") << "pattern:addmm"
                           << "addmm" << 3 << QString();
    QTest::newRow("exact, though a prefix of another") << "pattern:rms_norm"
                                                       << "rms_norm" << 1 << QString();
    QTest::newRow("ignoring case") << "pattern:SwiGLU"
                                   << "swiglu" << 5 << QString();
    QTest::newRow("unique prefix") << "pattern:gel"
                                   << "gelu_tanh" << 6 << QString();
    QTest::newRow("unique prefix, any case") << "PATTERN:Addmm_T"
                                             << "addmm_training" << 4 << QString();
    QTest::newRow("with other terms") << "node0 pattern:swi"
                                      << "swiglu" << 1 << QString();
    QTest::newRow("ambiguous prefix") << "pattern:add"
                                      << "" << 0 << "“add” begins 3 pattern names: add_rms_norm, addmm, addmm_training";
    QTest::newRow("mistyped") << "pattern:rms_nrom"
                              << "" << 0 << "No pattern “rms_nrom”; close names: rms_norm";
    QTest::newRow("unknown") << "pattern:qkv"
                             << "" << 0
                             << "No pattern “qkv”; the patterns are rms_norm, add_rms_norm, addmm, addmm_training, "
                                "swiglu, … 1 more";
    QTest::newRow("no pattern term") << "node0"
                                     << "" << 6 << QString();
}

void TestPatternTreeModel::patternTermResolves()
{
    QFETCH(QString, filter);
    QFETCH(QString, pattern);
    QFETCH(int, candidates);
    QFETCH(QString, message);
    PatternsWidget widget;
    widget.show();
    widget.setReport(namedReport());
    widget.filterEdit()->setText(filter);
    QCOMPARE(widget.proxyModel()->pattern(), pattern);
    QCOMPARE(widget.proxyModel()->visibleCandidateCount(), candidates);
    QCOMPARE(widget.filterMessage()->isVisible(), !message.isEmpty());
    if (!message.isEmpty())
        QVERIFY2(widget.filterMessage()->text().contains(message), qPrintable(widget.filterMessage()->text()));
    // The same name is resolved again in a new report (here: without the pattern it picked).
    auto without = std::make_shared<MatchReport>(*namedReport());
    without->patterns.erase(std::remove_if(without->patterns.begin(), without->patterns.end(),
                                [&](const PatternReport &p) { return QString::fromStdString(p.name) == pattern; }),
        without->patterns.end());
    widget.setReport(without);
    if (!pattern.isEmpty()) {
        QVERIFY(widget.proxyModel()->pattern() != pattern);
        QVERIFY(widget.filterMessage()->isVisible() || !widget.proxyModel()->pattern().isEmpty());
    }
}

// Typing a "pattern:" term offers the report's names that begin it (ignoring case); choosing one puts it in place of
// the term, the other terms untouched.
void TestPatternTreeModel::patternTermCompletes()
{
    PatternsWidget widget;
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    widget.setReport(namedReport());
    QLineEdit *filter = widget.filterEdit();
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("node0 pattern:AD"));
    QCompleter *completer = widget.patternCompleter();
    QCOMPARE(completer->completionPrefix(), QStringLiteral("pattern:AD"));
    QStringList offered;
    for (int i = 0; completer->setCurrentRow(i); ++i)
        offered << completer->currentCompletion();
    QCOMPARE(offered,
        (QStringList{QStringLiteral("pattern:add_rms_norm"), QStringLiteral("pattern:addmm"),
            QStringLiteral("pattern:addmm_training")}));
    QVERIFY(completer->popup()->isVisible());
    QVERIFY(widget.filterMessage()->isVisible()); // "AD" alone is ambiguous
    // Under Xvfb (QT_QPA_PLATFORM=xcb) with FXSCOPE_SCREENSHOTS: the screen with the popup, a window of its own.
    if (const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
        !folder.isEmpty() && QGuiApplication::platformName() == QLatin1String("xcb")) {
        QTest::qWait(300);
        QProcess::execute(QStringLiteral("import"),
            {QStringLiteral("-window"), QStringLiteral("root"),
                QDir(folder).filePath(QStringLiteral("pattern-completion.png"))});
    }
    // The second offer, chosen with the keyboard.
    completer->popup()->setCurrentIndex(completer->completionModel()->index(1, 0));
    QTest::keyClick(completer->popup(), Qt::Key_Return);
    QCOMPARE(filter->text(), QStringLiteral("node0 pattern:addmm"));
    QCOMPARE(widget.proxyModel()->pattern(), QStringLiteral("addmm"));
    QCOMPARE(widget.proxyModel()->visibleCandidateCount(), 1); // addmm's node0
    QVERIFY(!widget.filterMessage()->isVisible());
    // Not in a pattern term: nothing offered.
    filter->clear();
    QTest::keyClicks(filter, QStringLiteral("add"));
    QVERIFY(!completer->popup()->isVisible());
}

QTEST_MAIN(TestPatternTreeModel)
#include "tst_pattern_tree_model.moc"
