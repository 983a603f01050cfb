// The Patterns dock and the Node inspector in the main window, under QT_QPA_PLATFORM=offscreen: the Document
// matches in the background after a load or a pattern change, the tree shows the report, selecting a candidate
// marks its nodes on the canvas, and the inspector follows the selection and selects the nodes it links to.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "node_inspector.h"
#include "node_list_widget.h"
#include "pattern_filter_proxy_model.h"
#include "pattern_tree_model.h"
#include "patterns_widget.h"

#include "ir/graph.h"
#include "match/match_report.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QThreadPool>
#include <QTreeView>
#include <QtTest>

using namespace fxs;
using namespace fxs::test;

namespace {

// SiLU·mul with an extra_check: a pattern file of the user's kind.
constexpr char kPatternFile[] = R"(import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only

def search(x, y):
    return torch.ops.aten.mul.Tensor(torch.ops.aten.silu.default(x), y)

def replace(x, y):
    return torch.ops.aten.mul.Tensor(x, y)

def last_dim_is_7168(match):
    return match.kwargs["x"].meta["val"].shape[-1] == 7168

t = torch.empty(2, 8, dtype=torch.float16)
register_replacement(search, replace, [t, t], fwd_only, [], extra_check=last_dim_is_7168)
)";

// Where a link to `node` is drawn in the inspector's page, in viewport coordinates; null when absent.
QPoint linkPosition(QTextBrowser *browser, const QString &node)
{
    const QString href = NodeInspector::nodeUrl(node).toString(QUrl::FullyEncoded);
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isAnchor() || fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(browser->document());
            cursor.setPosition(fragment.position() + fragment.length() / 2);
            browser->setTextCursor(cursor);
            browser->ensureCursorVisible();
            return browser->cursorRect(cursor).center();
        }
    }
    return {};
}

int findPattern(const MatchReport &report, const char *name)
{
    const PatternReport *p = report.find(name);
    return p ? int(p - report.patterns.data()) : -1;
}

} // namespace

class TestInspector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void matchesAfterLoad();
    void staleMatchIsDropped();
    void patternFileAddsPatterns();
    void badPatternFileFails();
    void torchairFileRunsInItsPipeline();
    void patternFileWarningsReachTheDock();
    void dynamoGraphWarningReachesTheDock();
    void acceptedCandidateMarksNodes();
    void rejectedCandidateMarksDisagreement();
    void filterBarNarrowsTree();
    void inspectorFollowsSelection();
    void clickingArgumentLinkSelectsNode();
    void screenshots();

private:
    QTemporaryDir m_dir;
};

void TestInspector::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useTemporarySettings(m_dir, QStringLiteral("tst_inspector"));
}

void TestInspector::init()
{
    QSettings().clear();
}

void TestInspector::matchesAfterLoad()
{
    Loaded l;
    QVERIFY(openSample(l));
    const MatchReport &report = *l.doc->matchReport();
    QCOMPARE(l.doc->matchGraph(), l.doc->currentGraphShared());
    QVERIFY(l.doc->patternFiles().isEmpty());
    const int cast = findPattern(report, "rms_norm_cast");
    const int swiglu = findPattern(report, "swiglu");
    QVERIFY(cast >= 0 && swiglu >= 0);
    QCOMPARE(report.patterns[size_t(cast)].acceptedCount(), size_t(2));
    QCOMPARE(report.patterns[size_t(swiglu)].acceptedCount(), size_t(1));

    PatternsWidget *view = l.window->patternsView();
    QCOMPARE(view->model()->report(), &report);
    QCOMPARE(view->treeView()->model()->rowCount(), int(report.patterns.size()));
    auto *summary = view->findChild<QLabel *>(QStringLiteral("patternSummary"));
    QVERIFY(summary);
    QVERIFY2(summary->text().contains(QLatin1String("3 accepted")), qPrintable(summary->text()));
    QVERIFY(!summary->text().contains(QLatin1String("TorchAir"))); // the built-ins are Inductor-style
}

// A pattern file that registers through TorchAir: the dock says the verdicts come from TorchAir's pipeline and,
// in the summary's tooltip, what its graph passes do to this graph.
void TestInspector::torchairFileRunsInItsPipeline()
{
    Loaded l;
    QVERIFY(openSample(l));
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->openPatterns(QStringLiteral(FXSCOPE_SOURCE_DIR "/tests/oracle/patterns/mul_add.py"));
    QVERIFY(matched.wait(kTimeoutMs));
    QCOMPARE(l.doc->matchReport()->pipeline, std::string("torchair"));
    auto *summary = l.window->patternsView()->findChild<QLabel *>(QStringLiteral("patternSummary"));
    QVERIFY2(summary->text().contains(QLatin1String("in TorchAir's pipeline")), qPrintable(summary->text()));
    QVERIFY2(summary->toolTip().contains(QLatin1String("after: view_to_reshape")), qPrintable(summary->toolTip()));
}

void TestInspector::staleMatchIsDropped()
{
    Loaded l;
    QVERIFY(openSample(l));
    QSignalSpy changed(l.doc.get(), &Document::matchReportChanged);
    const quint64 first = l.doc->rematch();
    const quint64 second = l.doc->rematch();
    QVERIFY(second > first);
    QVERIFY(changed.wait(kTimeoutMs));
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
    QCOMPARE(changed.count(), 1); // the first job's report never arrives
    QVERIFY(!l.doc->isMatching());
}

void TestInspector::patternFileAddsPatterns()
{
    Loaded l;
    QVERIFY(openSample(l));
    const size_t before = l.doc->matchReport()->patterns.size();
    const QString path = m_dir.filePath(QStringLiteral("silu_mul.py"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kPatternFile);
    f.close();

    QSignalSpy patterns(l.doc.get(), &Document::patternsChanged);
    QSignalSpy failed(l.doc.get(), &Document::patternsFailed);
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->openPatterns(path);
    QVERIFY(patterns.wait(kTimeoutMs) || !failed.isEmpty());
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(l.doc->patternFiles(), QStringList{path});
    QVERIFY(matched.wait(kTimeoutMs));
    const MatchReport &report = *l.doc->matchReport();
    // The file's pattern alone: the built-ins shown before leave when a chosen source arrives (torch's pass holds
    // exactly what the user registered).
    QVERIFY(before > 1);
    QCOMPARE(report.patterns.size(), size_t(1));
    const PatternReport *mine = nullptr;
    for (const PatternReport &p : report.patterns)
        if (QString::fromStdString(p.source).contains(QLatin1String("silu_mul.py")))
            mine = &p;
    QVERIFY(mine);
    QVERIFY(!mine->candidates.empty());
    QCOMPARE(l.window->patternsView()->model()->report(), &report);

    l.doc->resetPatterns();
    QVERIFY(l.doc->patternFiles().isEmpty());
    QVERIFY(matched.wait(kTimeoutMs));
    QCOMPARE(l.doc->matchReport()->patterns.size(), before);
}

// A pattern file's own load warnings (here: a _register_ function that needs a value and is never called) reach
// the match report and the Patterns dock's warnings row.
void TestInspector::patternFileWarningsReachTheDock()
{
    Loaded l;
    QVERIFY(openSample(l));
    const QString path = m_dir.filePath(QStringLiteral("warned.py"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kPatternFile);
    f.write("\n\ndef _register_more_patterns(pass_manager, eps):\n    pass\n");
    f.close();
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->openPatterns(path);
    QVERIFY(matched.wait(kTimeoutMs));
    const MatchReport &report = *l.doc->matchReport();
    QCOMPARE(report.warnings.size(), size_t(1));
    QVERIFY(QString::fromStdString(report.warnings[0]).contains(QLatin1String("_register_more_patterns")));
    auto *row = l.window->patternsView()->findChild<QLabel *>(QStringLiteral("patternFileWarnings"));
    QVERIFY(row);
    QVERIFY(row->isVisible());
    QVERIFY(row->text().contains(QLatin1String("_register_more_patterns")));
}

// A Dynamo-level graph under the built-in (aten) patterns: the dock's warnings row says why nothing matches.
void TestInspector::dynamoGraphWarningReachesTheDock()
{
    Loaded l;
    QVERIFY(openSample(l));
    auto *row = l.window->patternsView()->findChild<QLabel *>(QStringLiteral("patternFileWarnings"));
    QVERIFY(row);
    QVERIFY(!row->isVisible()); // the sample is a post-grad graph
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->open(QStringLiteral(
        FXSCOPE_CORPUS_DIR "/readable/depyf__aot_eager_dynamic_with_grad__compiled_fn_3_dynamo_graph.py"));
    QVERIFY(matched.wait(kTimeoutMs));
    QVERIFY(row->isVisible());
    QVERIFY2(row->text().contains(QLatin1String("1 match warning")), qPrintable(row->text()));
    QVERIFY2(row->text().contains(QLatin1String("this graph is Dynamo-level (2 torch.* / call_method / call_module "
                                                "nodes, no aten ops)")),
        qPrintable(row->text()));
}

void TestInspector::badPatternFileFails()
{
    Document doc;
    QSignalSpy failed(&doc, &Document::patternsFailed);
    QSignalSpy patterns(&doc, &Document::patternsChanged);
    doc.openPatterns(m_dir.filePath(QStringLiteral("missing.json")));
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY(failed.first().at(1).toString().contains(QLatin1String("missing.json")));
    QCOMPARE(patterns.count(), 0);
    QVERIFY(doc.patternFiles().isEmpty());
}

void TestInspector::acceptedCandidateMarksNodes()
{
    Loaded l;
    QVERIFY(openSample(l));
    const MatchReport &report = *l.doc->matchReport();
    const int cast = findPattern(report, "rms_norm_cast");
    const PatternReport &p = report.patterns[size_t(cast)];
    // The last accepted one: the sample opens showing its first accepted candidate already.
    int accepted = -1;
    for (size_t c = 0; c < p.candidates.size(); ++c)
        if (p.candidates[c].accepted)
            accepted = int(c);
    QVERIFY(accepted >= 0);
    QVERIFY(l.window->patternsView()->currentCandidate() != std::make_pair(cast, accepted));
    const Verdict &v = p.candidates[size_t(accepted)];

    // As the user does it: make the candidate's row current in the tree.
    PatternsWidget *view = l.window->patternsView();
    QSignalSpy selected(view, &PatternsWidget::candidateSelected);
    auto *proxy = view->proxyModel();
    const QModelIndex row = proxy->mapFromSource(view->model()->candidateIndex(cast, accepted));
    view->treeView()->setCurrentIndex(row);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(view->currentCandidate(), std::make_pair(cast, accepted));

    GraphCanvas *canvas = l.window->canvas();
    QCOMPARE(v.nodes.size(), size_t(8));
    for (const std::string &n : v.nodes)
        QCOMPARE(canvas->matchMark(QString::fromStdString(n)), CanvasMatchMark::Matched);
    QCOMPARE(canvas->matchMark(QStringLiteral("arg0_1")), CanvasMatchMark::None);
    const QString anchor = QString::fromStdString(v.anchor);
    QTRY_COMPARE(canvas->selectedNode(), anchor);
    QCOMPARE(l.window->nodeList()->currentNode(), anchor);
    QCOMPARE(l.window->inspector()->currentNode(), anchor);
}

void TestInspector::rejectedCandidateMarksDisagreement()
{
    Loaded l;
    QVERIFY(openSample(l));
    const MatchReport &report = *l.doc->matchReport();
    const int swiglu = findPattern(report, "swiglu");
    const PatternReport &p = report.patterns[size_t(swiglu)];
    int rejected = -1;
    for (size_t c = 0; c < p.candidates.size() && rejected < 0; ++c)
        if (!p.candidates[c].accepted && p.candidates[c].failure)
            rejected = int(c);
    QVERIFY(rejected >= 0);
    const Verdict &v = p.candidates[size_t(rejected)];
    l.window->showCandidate(swiglu, rejected);
    GraphCanvas *canvas = l.window->canvas();
    QCOMPARE(canvas->matchMark(QString::fromStdString(v.failure->graphNode)), CanvasMatchMark::Disagreeing);
    QCOMPARE(canvas->matchMark(QString::fromStdString(v.anchor)), CanvasMatchMark::Tried);
    QCOMPARE(l.window->patternsView()->currentCandidate(), std::make_pair(swiglu, rejected));
    // A new report clears the marks: they belonged to the old one.
    QSignalSpy matched(l.doc.get(), &Document::matchReportChanged);
    l.doc->rematch();
    QVERIFY(matched.wait(kTimeoutMs));
    QCOMPARE(canvas->matchMark(QString::fromStdString(v.failure->graphNode)), CanvasMatchMark::None);
}

void TestInspector::filterBarNarrowsTree()
{
    Loaded l;
    QVERIFY(openSample(l));
    PatternsWidget *view = l.window->patternsView();
    QAbstractItemModel *tree = view->treeView()->model();
    view->verdictBox()->setCurrentIndex(view->verdictBox()->findData(int(PatternFilterProxyModel::Verdicts::Accepted)));
    QCOMPARE(view->proxyModel()->visibleCandidateCount(), 3);
    QCOMPARE(tree->rowCount(), 2); // rms_norm_cast and swiglu
    view->verdictBox()->setCurrentIndex(0);
    view->stageBox()->setCurrentIndex(view->stageBox()->findText(QStringLiteral("overlap")));
    for (int p = 0; p < tree->rowCount(); ++p)
        for (int c = 0; c < tree->rowCount(tree->index(p, 0)); ++c)
            QCOMPARE(tree->index(c, 0, tree->index(p, 0)).data(PatternTreeModel::StageRole).toString(),
                QStringLiteral("overlap"));
    view->stageBox()->setCurrentIndex(0);
    QTest::keyClicks(view->filterEdit(), QStringLiteral("swiglu"));
    QCOMPARE(tree->rowCount(), 1);
    // Selecting a candidate the filter hides brings it back.
    const int cast = findPattern(*l.doc->matchReport(), "rms_norm_cast");
    QVERIFY(view->selectCandidate(cast, 1));
    QVERIFY(view->filterEdit()->text().isEmpty());
    QCOMPARE(view->currentCandidate(), std::make_pair(cast, 1));
}

void TestInspector::inspectorFollowsSelection()
{
    Loaded l;
    QVERIFY(openSample(l));
    // The user picks `add` in the node table.
    NodeListWidget *list = l.window->nodeList();
    QTableView *table = list->tableView();
    QModelIndex row;
    for (int r = 0; r < table->model()->rowCount() && !row.isValid(); ++r)
        if (table->model()->index(r, 1).data().toString() == QLatin1String("add"))
            row = table->model()->index(r, 1);
    QVERIFY(row.isValid());
    table->setCurrentIndex(row);
    NodeInspector *inspector = l.window->inspector();
    QCOMPARE(inspector->currentNode(), QStringLiteral("add"));
    QTRY_COMPARE(l.window->canvas()->selectedNode(), QStringLiteral("add"));
    const QString text = inspector->browser()->toPlainText();
    QVERIFY2(
        text.contains(QLatin1String("torch.ops.aten.add.Tensor")) || text.contains(QLatin1String("aten.add.Tensor")),
        qPrintable(text));
    // Its users, by name, as links.
    const Node *add = l.doc->currentGraphShared()->find("add");
    QVERIFY(add && add->users().size() == 2);
    QVERIFY(text.contains(QStringLiteral("Users (2)")));
    for (const Node *user : add->users())
        QVERIFY(!linkPosition(inspector->browser(), QString::fromStdString(user->name())).isNull());
    QVERIFY2(text.contains(QLatin1String("f16[1, 128, 4096]")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("model.py:112")), qPrintable(text));

    // The canvas reports a click; the inspector follows.
    inspector->showNode({});
    QVERIFY(inspector->currentNode().isEmpty());
    Q_EMIT l.window->canvas()->nodeSelected(QStringLiteral("add"));
    QCOMPARE(inspector->currentNode(), QStringLiteral("add"));
    QCOMPARE(list->currentNode(), QStringLiteral("add"));
}

void TestInspector::clickingArgumentLinkSelectsNode()
{
    Loaded l;
    QVERIFY(openSample(l));
    l.window->selectNode(QStringLiteral("add"));
    NodeInspector *inspector = l.window->inspector();
    const Node *add = l.doc->currentGraphShared()->find("add");
    QVERIFY(add && add->args().size() >= 2 && add->args()[1].isNode());
    const QString argument = QString::fromStdString(add->args()[1].node()->name());
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    const QPoint at = linkPosition(inspector->browser(), argument);
    QVERIFY(!at.isNull());
    QSignalSpy activated(inspector, &NodeInspector::nodeActivated);
    QTest::mouseClick(inspector->browser()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), argument);
    QCOMPARE(inspector->currentNode(), argument);
    QCOMPARE(l.window->nodeList()->currentNode(), argument);
    QTRY_COMPARE(l.window->canvas()->selectedNode(), argument);
}

// Pictures for docs/, taken only when FXSCOPE_SCREENSHOTS names a folder, with `import -window root` when
// run on an X server (xvfb-run with QT_QPA_PLATFORM=xcb), else rendered by Qt.
void TestInspector::screenshots()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the pictures");
    Loaded l;
    QVERIFY(openSample(l));
    l.window->setGeometry(0, 0, 1600, 1000);
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    const MatchReport &report = *l.doc->matchReport();
    auto take = [&](const QString &name) {
        QTest::qWait(800);
        QVERIFY(saveScreenshot(l.window.get(), QDir(folder).filePath(name)));
    };
    auto show = [&](const char *pattern, bool accepted, const QString &name) {
        const int p = findPattern(report, pattern);
        const PatternReport &r = report.patterns[size_t(p)];
        for (size_t c = 0; c < r.candidates.size(); ++c)
            if (r.candidates[c].accepted == accepted && (accepted || r.candidates[c].failure)) {
                l.window->showCandidate(p, int(c));
                PatternsWidget *view = l.window->patternsView();
                view->treeView()->expand(view->treeView()->currentIndex());
                take(name);
                return;
            }
        QFAIL("no such candidate");
    };
    show("rms_norm_cast", true, QStringLiteral("patterns-accepted.png"));
    show("swiglu", false, QStringLiteral("patterns-rejected.png"));
}

QTEST_MAIN(TestInspector)
#include "tst_inspector.moc"
