// The node search: NodeSearchQuery's fields (op:, name:, target:/regex/, shape: with *), parse errors that
// leave the list whole and show the error, next/previous with wrap-around and the "N of M matches" count,
// and, in the main window, a step to a match selecting the node on the canvas and in the inspector.

#include "gui_test_support.h"

#include "document.h"
#include "graph_canvas.h"
#include "mainwindow.h"
#include "node_filter_proxy_model.h"
#include "node_inspector.h"
#include "node_list_widget.h"
#include "node_search_query.h"
#include "node_table_model.h"
#include "pattern_filter_proxy_model.h"
#include "patterns_widget.h"
#include "test_graphs.h"

#include "ir/graph.h"
#include "match/match_report.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace fxs;
using fxs::test::meta;

namespace {

// x[1,128,4096], w[4096,4096] -> mm[1,128,4096] -> relu -> add[s0,4096] -> view_2, view_10 -> output.
std::shared_ptr<Graph> makeGraph()
{
    auto g = std::make_shared<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    x->meta().val = meta("f32[1, 128, 4096][524288, 4096, 1]cpu");
    Node *w = g->append(OpKind::Placeholder, "w", "w");
    w->meta().val = meta("f32[4096, 4096][4096, 1]cpu");
    Node *mm = g->append(
        OpKind::CallFunction, "mm", "torch.ops.aten.mm.default", {Argument::ofNode(x), Argument::ofNode(w)});
    mm->meta().val = meta("f32[1, 128, 4096][524288, 4096, 1]cpu");
    Node *relu = g->append(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default", {Argument::ofNode(mm)});
    Node *add = g->append(
        OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor", {Argument::ofNode(relu), Argument::ofNode(x)});
    add->meta().val = meta("f16[s0, 4096][4096, 1]cuda:0");
    Node *v2 = g->append(OpKind::CallFunction, "view_2", "torch.ops.aten.view.default",
        {Argument::ofNode(add), Argument::list({Argument::ofInt(32)})});
    Node *v10 = g->append(OpKind::CallMethod, "view_10", "view", {Argument::ofNode(add)});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(v2), Argument::ofNode(v10)})});
    return g;
}

QStringList matching(const Graph &graph, const QString &text)
{
    auto query = NodeSearchQuery::parse(text);
    if (!query)
        return {QStringLiteral("error: ") + QString::fromStdString(query.error().toString())};
    QStringList names;
    for (const auto &node : graph.nodes())
        if (query->matches(*node))
            names << QString::fromStdString(node->name());
    return names;
}

} // namespace

class TestSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fields_data();
    void fields();
    void errors_data();
    void errors();
    void badRegexLeavesListWhole();
    void nextPreviousWrap();
    void stepReachesCanvasAndInspector();
    void patternChoiceShowsOnePattern();
    void screenshot();

private:
    QTemporaryDir m_dir;
};

void TestSearch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    test::useTemporarySettings(m_dir, QStringLiteral("tst_search"));
}

void TestSearch::fields_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("names");
    const QStringList all{"x", "w", "mm", "relu", "add", "view_2", "view_10", "output"};
    QTest::newRow("empty") << "" << all;
    QTest::newRow("word in name") << "view" << QStringList{"view_2", "view_10"};
    QTest::newRow("word in target") << "aten.relu" << QStringList{"relu"};
    QTest::newRow("words AND") << "view 10" << QStringList{"view_10"};
    QTest::newRow("op") << "op:placeholder" << QStringList{"x", "w"};
    QTest::newRow("op call_method") << "op:call_method" << QStringList{"view_10"};
    QTest::newRow("name text") << "name:VIEW" << QStringList{"view_2", "view_10"};
    QTest::newRow("name regex anchored") << "name:/^view_\\d$/" << QStringList{"view_2"};
    QTest::newRow("target regex") << "target:/aten\\.(mm|relu)\\./" << QStringList{"mm", "relu"};
    QTest::newRow("target text") << "target:Tensor" << QStringList{"add"};
    QTest::newRow("shape exact") << "shape:1,128,4096" << QStringList{"x", "mm"};
    QTest::newRow("shape wildcard") << "shape:*,4096" << QStringList{"w", "add"};
    QTest::newRow("shape all wildcards") << "shape:*,*,*" << QStringList{"x", "mm"};
    QTest::newRow("shape symbolic") << "shape:s0,*" << QStringList{"add"};
    QTest::newRow("shape rank differs") << "shape:4096" << QStringList{};
    QTest::newRow("fields AND") << "op:placeholder shape:*,4096" << QStringList{"w"};
    QTest::newRow("word AND field") << "m op:call_function" << QStringList{"mm"};
    QTest::newRow("unknown key is a word") << "aten.mm:x" << QStringList{};
}

void TestSearch::fields()
{
    QFETCH(QString, text);
    QFETCH(QStringList, names);
    QCOMPARE(matching(*makeGraph(), text), names);
}

void TestSearch::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("unbalanced regex")
        << "relu target:/(aten/"
        << "<search>:1:19: expected a regular expression, found an error: missing closing "
           "parenthesis";
    QTest::newRow("unknown op") << "op:call_fn"
                                << "<search>:1:4: expected placeholder, get_attr, call_function, call_method, "
                                   "call_module or output, found 'call_fn'";
    QTest::newRow("empty value") << "name:"
                                 << "<search>:1:6: expected a value after name:, found nothing";
    QTest::newRow("empty dimension") << "shape:1,,4"
                                     << "<search>:1:9: expected a dimension (a number, a symbol or *), found nothing";
}

void TestSearch::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const auto query = NodeSearchQuery::parse(text);
    QVERIFY(!query);
    QCOMPARE(QString::fromStdString(query.error().toString()), error);
}

void TestSearch::badRegexLeavesListWhole()
{
    NodeListWidget list;
    list.setGraph(makeGraph());
    list.filterEdit()->setText(QStringLiteral("name:/view/"));
    QCOMPARE(list.proxyModel()->rowCount(), 2);
    list.filterEdit()->setText(QStringLiteral("name:/view(/"));
    QVERIFY(list.proxyModel()->filterError().startsWith(QLatin1String("<search>:1:")));
    QCOMPARE(list.proxyModel()->rowCount(), 8); // an error filters nothing rather than hiding everything
    QVERIFY(list.countText().contains(QLatin1String("missing closing parenthesis")));
    QVERIFY(!list.filterEdit()->styleSheet().isEmpty()); // the field is marked
    list.filterEdit()->setText(QStringLiteral("name:/view_1/"));
    QVERIFY(list.proxyModel()->filterError().isEmpty());
    QVERIFY(list.filterEdit()->styleSheet().isEmpty());
    QCOMPARE(list.proxyModel()->rowCount(), 1);
}

void TestSearch::nextPreviousWrap()
{
    NodeListWidget list;
    list.setGraph(makeGraph());
    QSignalSpy selected(&list, &NodeListWidget::nodeSelected);
    list.filterEdit()->setText(QStringLiteral("op:call_function"));
    QCOMPARE(list.countText(), QStringLiteral("4 of 8 nodes"));
    list.findPrevious(); // with no current row, previous starts at the last match
    QCOMPARE(list.currentNode(), QStringLiteral("view_2"));
    QCOMPARE(list.countText(), QStringLiteral("4 of 4 matches"));
    list.findNext(); // wraps to the first
    QCOMPARE(list.currentNode(), QStringLiteral("mm"));
    QCOMPARE(list.countText(), QStringLiteral("1 of 4 matches"));
    QTest::keyClick(list.filterEdit(), Qt::Key_Return); // Enter in the field goes on to the next
    QCOMPARE(list.currentNode(), QStringLiteral("relu"));
    list.findPrevious();
    list.findPrevious(); // wraps back to the last
    QCOMPARE(list.currentNode(), QStringLiteral("view_2"));
    QCOMPARE(selected.count(), 5);
    QCOMPARE(selected.last().at(0).toString(), QStringLiteral("view_2"));
    list.filterEdit()->setText(QStringLiteral("op:get_attr"));
    list.findNext(); // no match: nothing moves, nothing is emitted
    QCOMPARE(selected.count(), 5);
}

void TestSearch::stepReachesCanvasAndInspector()
{
    test::Loaded l;
    QVERIFY(test::openSample(l));
    MainWindow &window = *l.window;
    NodeListWidget *list = window.nodeList();
    list->filterEdit()->setText(QStringLiteral("op:placeholder"));
    NodeFilterProxyModel *proxy = list->proxyModel();
    QVERIFY(proxy->rowCount() >= 2);
    const QString first = proxy->index(0, NodeTableModel::NameColumn).data(NodeTableModel::NodeNameRole).toString();
    const QString second = proxy->index(1, NodeTableModel::NameColumn).data(NodeTableModel::NodeNameRole).toString();
    const QString last
        = proxy->index(proxy->rowCount() - 1, NodeTableModel::NameColumn).data(NodeTableModel::NodeNameRole).toString();
    // A restored session may have selected a node already; steps go on from the current row, so start at the last.
    QVERIFY(list->selectNode(last));

    // F3 is a window action: find it by its shortcut, as the key press would.
    QAction *findNext = nullptr;
    QAction *findPrevious = nullptr;
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut() == QKeySequence(Qt::Key_F3))
            findNext = action;
        if (action->shortcut() == QKeySequence(Qt::SHIFT | Qt::Key_F3))
            findPrevious = action;
    }
    QVERIFY(findNext && findPrevious);
    findNext->trigger();
    QCOMPARE(list->currentNode(), first);
    QCOMPARE(window.canvas()->selectedNode(), first);
    QCOMPARE(window.inspector()->currentNode(), first);
    findNext->trigger();
    QCOMPARE(window.canvas()->selectedNode(), second);
    QCOMPARE(window.inspector()->currentNode(), second);
    findPrevious->trigger();
    QCOMPARE(window.canvas()->selectedNode(), first);
    QCOMPARE(window.inspector()->currentNode(), first);
    findPrevious->trigger(); // wraps to the last match
    QCOMPARE(window.canvas()->selectedNode(), last);
    QCOMPARE(window.inspector()->currentNode(), last);
}

void TestSearch::patternChoiceShowsOnePattern()
{
    test::Loaded l;
    QVERIFY(test::openSample(l, {/*wide=*/false, /*waitForLayout=*/false}));
    MainWindow &window = *l.window;
    const std::shared_ptr<const MatchReport> report = l.doc->matchReport();
    QVERIFY(report);
    // The pattern with the most candidates, so that other patterns' candidates are there to hide.
    const PatternReport *chosen = nullptr;
    size_t total = 0;
    for (const PatternReport &p : report->patterns) {
        total += p.candidates.size();
        if (!chosen || p.candidates.size() > chosen->candidates.size())
            chosen = &p;
    }
    QVERIFY(chosen && !chosen->candidates.empty());
    QVERIFY(total > chosen->candidates.size());
    PatternsWidget *patterns = window.patternsView();
    QCOMPARE(patterns->proxyModel()->visibleCandidateCount(), int(total));
    patterns->filterEdit()->setText(QStringLiteral("pattern:") + QString::fromStdString(chosen->name));
    QCOMPARE(patterns->proxyModel()->rowCount(), 1);
    QCOMPARE(patterns->proxyModel()->index(0, 0).data().toString(), QString::fromStdString(chosen->name));
    QCOMPARE(patterns->proxyModel()->visibleCandidateCount(), int(chosen->candidates.size()));
    // A prefix that only this name begins picks it too (tst_pattern_tree_model covers ambiguous and unknown names).
    const QString prefix = QString::fromStdString(chosen->name).chopped(1);
    size_t begun = 0;
    for (const PatternReport &p : report->patterns)
        begun += QString::fromStdString(p.name).startsWith(prefix, Qt::CaseInsensitive);
    patterns->filterEdit()->setText(QStringLiteral("pattern:") + prefix);
    QCOMPARE(patterns->proxyModel()->visibleCandidateCount(), begun == 1 ? int(chosen->candidates.size()) : 0);
    patterns->filterEdit()->clear();
    QCOMPARE(patterns->proxyModel()->visibleCandidateCount(), int(total));
}

// With FXSCOPE_SCREENSHOTS set: the window after two steps through the matches of an op: and target:/regex/ search.
void TestSearch::screenshot()
{
    const QString folder = qEnvironmentVariable("FXSCOPE_SCREENSHOTS");
    if (folder.isEmpty())
        QSKIP("set FXSCOPE_SCREENSHOTS to a folder to take the picture");
    test::Loaded l;
    QVERIFY(test::openSample(l, {/*wide=*/true}));
    QVERIFY(QTest::qWaitForWindowExposed(l.window.get()));
    NodeListWidget *list = l.window->nodeList();
    list->filterEdit()->setText(QStringLiteral("op:call_function target:/mul|silu/"));
    list->findNext();
    list->findNext();
    QTest::qWait(800);
    QVERIFY(test::saveScreenshot(l.window.get(), folder + QStringLiteral("/fxscope-search.png")));
}

QTEST_MAIN(TestSearch)
#include "tst_search.moc"
