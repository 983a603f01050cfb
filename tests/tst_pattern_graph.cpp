// The pattern view beside the canvas, under QT_QPA_PLATFORM=offscreen: selecting a candidate of the bundled LLaMA
// sample shows its pattern's search graph, pairs every pattern node with the graph node it stood for (the walk the
// matcher makes from the anchor), marks the pattern node that disagreed, and links the bindings to the graph.

#include "canvas_node_item.h"
#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "pattern_correspondence.h"
#include "pattern_graph_widget.h"
#include "patterns_widget.h"

#include "ir/graph.h"
#include "match/match_report.h"
#include "patterns/pattern_registry.h"

#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include <set>

using namespace fxs;
using namespace fxs::test;

namespace {

// Wide enough for the docks, the canvas and the pattern beside it.
constexpr SampleOptions kWide{/*wide=*/true};

// The first candidate of `pattern` that is accepted (or rejected with a structural failure).
std::pair<int, int> findCandidate(const MatchReport &report, const char *pattern, bool accepted)
{
    const PatternReport *p = report.find(pattern);
    if (!p)
        return {-1, -1};
    for (size_t c = 0; c < p->candidates.size(); ++c) {
        const Verdict &v = p->candidates[c];
        if (v.accepted == accepted && (accepted || v.failure))
            return {int(p - report.patterns.data()), int(c)};
    }
    return {-1, -1};
}

std::shared_ptr<const Graph> searchGraphOf(const Document &doc, const std::string &name)
{
    for (const PatternEntryPtr &e : doc.patterns()->entries())
        if (e->name == name)
            return e->searchGraph;
    return nullptr;
}

// Adds the pattern file above and shows its candidate rejected by the extra_check; false when it has none.
bool showExtraCheckRejection(Loaded &l, const QString &folder)
{
    const QString path = QDir(folder).filePath(QStringLiteral("rotary_mul.py"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(kRotaryPatternFile) < 0)
        return false;
    file.close();
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->openPatterns(path);
    if (!matched.wait(kTimeoutMs))
        return false;
    const MatchReport &report = *l.doc->matchReport();
    for (size_t p = 0; p < report.patterns.size(); ++p)
        for (size_t c = 0; c < report.patterns[p].candidates.size(); ++c)
            if (report.patterns[p].candidates[c].stage == MatchStage::ExtraCheck) {
                l.window->showCandidate(int(p), int(c));
                return true;
            }
    return false;
}

} // namespace

class TestPatternGraph : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void sampleOpensOnItsFirstAcceptedCandidate();
    void acceptedCandidatePairsEveryNode();
    void rejectedCandidateMarksDisagreeingPatternNode();
    void bindingsLinkToGraph();
    void extraCheckRejectionMarksNoNode();
    void screenshot();

private:
    QTemporaryDir m_dir;
};

void TestPatternGraph::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_pattern_graph"));
}

void TestPatternGraph::init()
{
    QSettings().clear();
}

// make run's first look: the bundled sample shows its first accepted candidate, marked, with its pattern beside it.
void TestPatternGraph::sampleOpensOnItsFirstAcceptedCandidate()
{
    Loaded l;
    QVERIFY(openSample(l, kWide));
    const auto [pattern, candidate] = l.window->patternsView()->currentCandidate();
    QVERIFY(pattern >= 0);
    const MatchReport &report = *l.doc->matchReport();
    const auto first = findCandidate(report, report.patterns[size_t(pattern)].name.c_str(), true);
    QCOMPARE(std::make_pair(pattern, candidate), first);
    for (int p = 0; p < pattern; ++p)
        QCOMPARE(report.patterns[size_t(p)].acceptedCount(), size_t(0)); // no earlier pattern has one
    const Verdict &v = report.patterns[size_t(pattern)].candidates[size_t(candidate)];
    QCOMPARE(l.window->canvas()->matchMark(QString::fromStdString(v.anchor)), CanvasMatchMark::Matched);
    QVERIFY(l.window->patternGraph()->isVisible());
    // Any other file opens with nothing selected.
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->open(QStringLiteral(FXSCOPE_SOURCE_DIR "/resources/samples/llama_block.py"));
    QVERIFY(matched.wait(kTimeoutMs));
    QCOMPARE(l.window->patternsView()->currentCandidate(), std::make_pair(-1, -1));
}

void TestPatternGraph::acceptedCandidatePairsEveryNode()
{
    Loaded l;
    QVERIFY(openSample(l, kWide));
    PatternGraphWidget *view = l.window->patternGraph();
    const MatchReport &report = *l.doc->matchReport();
    const auto [pattern, candidate] = findCandidate(report, "rms_norm_cast", true);
    QVERIFY(pattern >= 0);
    const Verdict &v = report.patterns[size_t(pattern)].candidates[size_t(candidate)];
    l.window->showCandidate(pattern, candidate);
    QVERIFY(view->isVisible());
    QVERIFY(laidOut(view->canvas()));

    const auto search = searchGraphOf(*l.doc, "rms_norm_cast");
    QVERIFY(search);
    QCOMPARE(view->canvas()->graph(), search.get());
    const PatternCorrespondence &c = view->correspondence();
    QVERIFY(c.disagreeing.empty());
    // Every call of the search graph stands for one of the matched nodes, with the same target.
    std::set<std::string> matched(v.nodes.begin(), v.nodes.end());
    const Graph &graph = *l.doc->matchGraph();
    int calls = 0;
    for (const auto &node : search->nodes()) {
        if (node->op() != OpKind::CallFunction)
            continue;
        ++calls;
        const PatternPair *pair = c.find(node->name());
        QVERIFY2(pair, node->name().c_str());
        QVERIFY(pair->sameTarget);
        QVERIFY2(matched.count(pair->graphNode), pair->graphNode.c_str());
        QVERIFY(graph.find(pair->graphNode));
        QCOMPARE(view->canvas()->matchMark(QString::fromStdString(node->name())), CanvasMatchMark::Matched);
    }
    QVERIFY(calls >= 5);
    // The returned node is the anchor; the inputs are the verdict's bindings.
    QCOMPARE(c.pairs.front().graphNode, v.anchor);
    QVERIFY(!v.bindings.empty());
    for (const auto &[name, value] : v.bindings) {
        const PatternPair *pair = c.find(name);
        QVERIFY2(pair, name.c_str());
        QCOMPARE(pair->graphNode, value);
    }
    // Every node of the search graph but the output has a row; bindings without a placeholder add theirs.
    QVERIFY(view->bindingsView()->topLevelItemCount() >= int(search->size()) - 1);
}

void TestPatternGraph::rejectedCandidateMarksDisagreeingPatternNode()
{
    Loaded l;
    QVERIFY(openSample(l, kWide));
    const MatchReport &report = *l.doc->matchReport();
    const auto [pattern, candidate] = findCandidate(report, "swiglu", false);
    QVERIFY(pattern >= 0);
    const Verdict &v = report.patterns[size_t(pattern)].candidates[size_t(candidate)];
    l.window->showCandidate(pattern, candidate);
    PatternGraphWidget *view = l.window->patternGraph();
    QVERIFY(laidOut(view->canvas()));
    const PatternCorrespondence &c = view->correspondence();
    // swiglu's mul expects silu(gate) where the graph has another op: the pattern's silu node disagreed.
    QVERIFY(!c.disagreeing.empty());
    const PatternPair *pair = c.find(c.disagreeing);
    QVERIFY(pair);
    QCOMPARE(pair->graphNode, v.failure->graphNode);
    QVERIFY(!pair->sameTarget);
    const Node *patternNode = searchGraphOf(*l.doc, "swiglu")->find(c.disagreeing);
    QCOMPARE(QString::fromStdString(patternNode->target()), QStringLiteral("torch.ops.aten.silu.default"));
    QCOMPARE(view->canvas()->matchMark(QString::fromStdString(c.disagreeing)), CanvasMatchMark::Disagreeing);
    QCOMPARE(view->canvas()->matchMark(QString::fromStdString(c.pairs.front().patternNode)), CanvasMatchMark::Tried);
    QVERIFY(view->titleLabel()->text().contains(QStringLiteral("rejected at generic")));
    QVERIFY(view->titleLabel()->text().contains(QString::fromStdString(c.disagreeing)));
    // A new report drops the view's candidate.
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->rematch();
    QVERIFY(matched.wait(kTimeoutMs));
    QVERIFY(view->correspondence().pairs.empty());
}

void TestPatternGraph::bindingsLinkToGraph()
{
    Loaded l;
    QVERIFY(openSample(l, kWide));
    const MatchReport &report = *l.doc->matchReport();
    const auto [pattern, candidate] = findCandidate(report, "rms_norm_cast", true);
    l.window->showCandidate(pattern, candidate);
    PatternGraphWidget *view = l.window->patternGraph();
    QVERIFY(laidOut(view->canvas()));
    QTreeWidget *bindings = view->bindingsView();
    // The last row that names a graph node (literals and unreached pattern nodes are no links).
    QTreeWidgetItem *last = nullptr;
    for (int i = 0; i < bindings->topLevelItemCount(); ++i)
        if (!bindings->topLevelItem(i)->data(1, Qt::UserRole).toBool())
            last = bindings->topLevelItem(i);
    QVERIFY(last);
    const QString target = last->text(1);
    QVERIFY(l.doc->matchGraph()->find(target.toStdString()));
    QSignalSpy activated(view, &PatternGraphWidget::nodeActivated);
    bindings->scrollToItem(last);
    const QModelIndex cell = bindings->model()->index(bindings->indexOfTopLevelItem(last), 1);
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    // The visible part of the cell: the column can run past the viewport (a vertical scroll bar, when it shows, takes
    // 30 px), and a click there lands on the scroll bar.
    const QRect visible = bindings->visualRect(cell).intersected(bindings->viewport()->rect());
    QVERIFY(!visible.isEmpty());
    const QPoint at = visible.center();
    QTest::mouseClick(bindings->viewport(), Qt::LeftButton, {}, at, 20);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), target);
    QTRY_COMPARE(l.window->canvas()->selectedNode(), target);
}

void TestPatternGraph::extraCheckRejectionMarksNoNode()
{
    Loaded l;
    QVERIFY(openSample(l, kWide));
    QVERIFY(showExtraCheckRejection(l, m_dir.path()));
    PatternGraphWidget *view = l.window->patternGraph();
    QVERIFY(laidOut(view->canvas()));
    // The structure matched: every pattern node is paired with a node of the same target, none disagreed, and the
    // reason is the check's, shown line by line with its values in the details.
    const PatternCorrespondence &c = view->correspondence();
    QVERIFY(c.disagreeing.empty());
    for (const PatternPair &p : c.pairs) {
        QVERIFY(p.sameTarget);
        QCOMPARE(view->canvas()->matchMark(QString::fromStdString(p.patternNode)),
            view->canvas()->graph()->find(p.patternNode) ? CanvasMatchMark::Tried : CanvasMatchMark::None);
    }
    QVERIFY(c.find("x") && c.find("cos") && c.find("x_rotated") && c.find("sin"));
    QVERIFY(view->titleLabel()->text().contains(QStringLiteral("rejected at extra_check")));
    const QString details = l.window->patternsView()->detailsView()->toPlainText();
    QVERIFY2(details.contains(QStringLiteral("shape[-1] == 64 → False")), qPrintable(details));
    QVERIFY(details.contains(QStringLiteral("shape[-1] = 128")));
}

// The picture for docs/, taken only when FXSCOPE_SCREENSHOTS names a folder.
void TestPatternGraph::screenshot()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
    Loaded l;
    QVERIFY(openSample(l, kWide));
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    const auto [pattern, candidate] = findCandidate(*l.doc->matchReport(), "swiglu", false);
    l.window->showCandidate(pattern, candidate);
    QVERIFY(laidOut(l.window->patternGraph()->canvas()));
    QTest::qWait(800);
    QVERIFY(saveScreenshot(l.window.get(), QDir(folder).filePath(QStringLiteral("fxscope-pattern-graph.png"))));
    // A candidate the user's extra_check rejected, its trace line by line.
    QVERIFY(showExtraCheckRejection(l, m_dir.path()));
    QVERIFY(laidOut(l.window->patternGraph()->canvas()));
    QTest::qWait(800);
    QVERIFY(saveScreenshot(l.window.get(), QDir(folder).filePath(QStringLiteral("fxscope-extra-check.png"))));
}

QTEST_MAIN(TestPatternGraph)
#include "tst_pattern_graph.moc"
