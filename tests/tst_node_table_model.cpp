// NodeTableModel and NodeFilterProxyModel over a small graph built in code.

#include "gui_test_paths.h"
#include "node_filter_proxy_model.h"
#include "node_table_model.h"
#include "test_graphs.h"

#include "ir/graph.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace fxs;
using fxs::test::meta;

namespace {

// x, w -> mm -> relu -> add(relu, x) -> view_2, view_10 -> output; with meta on a few nodes.
std::shared_ptr<Graph> makeGraph()
{
    auto g = std::make_shared<Graph>();
    Node *x = g->append(OpKind::Placeholder, "x", "x");
    x->meta().val = meta("f32[4, 8][8, 1]cpu");
    Node *w = g->append(OpKind::Placeholder, "w", "w");
    w->meta().val = meta("f32[8, 8][8, 1]cpu");
    Node *mm = g->append(
        OpKind::CallFunction, "mm", "torch.ops.aten.mm.default", {Argument::ofNode(x), Argument::ofNode(w)});
    mm->meta().val = meta("f32[4, 8][8, 1]cpu");
    mm->meta().source = SourceLocation{"/home/user/model.py", 12, "forward", "y = x @ self.w"};
    Node *relu = g->append(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default", {Argument::ofNode(mm)});
    relu->meta().source = SourceLocation{"/home/user/model.py", 9, "forward", "y = y.relu()"};
    Node *add = g->append(
        OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor", {Argument::ofNode(relu), Argument::ofNode(x)});
    add->meta().val = meta("f16[s0, 8][8, 1]cuda:0");
    Node *v2 = g->append(OpKind::CallFunction, "view_2", "torch.ops.aten.view.default",
        {Argument::ofNode(add), Argument::list({Argument::ofInt(32)})});
    Node *v10 = g->append(OpKind::CallFunction, "view_10", "torch.ops.aten.view.default",
        {Argument::ofNode(add), Argument::list({Argument::ofInt(32)})});
    g->append(OpKind::Output, "output", "output", {Argument::tuple({Argument::ofNode(v2), Argument::ofNode(v10)})});
    return g;
}

QStringList namesInOrder(const QAbstractItemModel &model)
{
    QStringList names;
    for (int r = 0; r < model.rowCount(); ++r)
        names << model.index(r, NodeTableModel::NameColumn).data().toString();
    return names;
}

} // namespace

class TestNodeTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelTester();
    void rowsFollowGraphOrder();
    void cellContents_data();
    void cellContents();
    void toolTips();
    void keepsGraphAlive();
    void filter_data();
    void filter();
    void sortNaturalAndNumeric();
};

void TestNodeTableModel::modelTester()
{
    NodeTableModel model;
    NodeFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setGraph(makeGraph());
    QCOMPARE(model.rowCount(), 8);
    proxy.sort(NodeTableModel::UsersColumn, Qt::DescendingOrder);
    proxy.setFilterText(QStringLiteral("view"));
    QCOMPARE(proxy.rowCount(), 2);
    model.setGraph(makeGraph());
    model.setGraph(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(proxy.rowCount(), 0);
}

void TestNodeTableModel::rowsFollowGraphOrder()
{
    auto graph = makeGraph();
    NodeTableModel model;
    model.setGraph(graph);
    QCOMPARE(model.rowCount(), int(graph->size()));
    QCOMPARE(model.columnCount(), int(NodeTableModel::ColumnCount));
    for (int r = 0; r < model.rowCount(); ++r) {
        QCOMPARE(model.node(model.index(r, 0)), graph->nodes()[size_t(r)].get());
        QCOMPARE(model.index(r, NodeTableModel::IndexColumn).data().toInt(), r);
    }
    QCOMPARE(model.rowOfNode(QStringLiteral("add")), 4);
    QCOMPARE(model.rowOfNode(QStringLiteral("nope")), -1);
}

void TestNodeTableModel::cellContents_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");

    QTest::newRow("placeholder op") << "x" << int(NodeTableModel::OpColumn) << "placeholder";
    QTest::newRow("placeholder target") << "x" << int(NodeTableModel::TargetColumn) << "x";
    QTest::newRow("placeholder value") << "x" << int(NodeTableModel::ValueColumn) << "f32[4, 8]";
    QTest::newRow("placeholder users") << "x" << int(NodeTableModel::UsersColumn) << "2";
    QTest::newRow("placeholder inputs") << "x" << int(NodeTableModel::InputsColumn) << "";
    QTest::newRow("call op") << "mm" << int(NodeTableModel::OpColumn) << "call_function";
    QTest::newRow("call target") << "mm" << int(NodeTableModel::TargetColumn) << "torch.ops.aten.mm.default";
    QTest::newRow("call inputs") << "mm" << int(NodeTableModel::InputsColumn) << "x, w";
    QTest::newRow("call source") << "mm" << int(NodeTableModel::SourceColumn) << "model.py:12";
    QTest::newRow("symbolic value") << "add" << int(NodeTableModel::ValueColumn) << "f16[s0, 8]";
    QTest::newRow("no meta") << "relu" << int(NodeTableModel::ValueColumn) << "";
    QTest::newRow("users of add") << "add" << int(NodeTableModel::UsersColumn) << "2";
    QTest::newRow("output op") << "output" << int(NodeTableModel::OpColumn) << "output";
    QTest::newRow("output inputs") << "output" << int(NodeTableModel::InputsColumn) << "view_2, view_10";
    QTest::newRow("output users") << "output" << int(NodeTableModel::UsersColumn) << "0";
}

void TestNodeTableModel::cellContents()
{
    QFETCH(QString, node);
    QFETCH(int, column);
    QFETCH(QString, expected);
    NodeTableModel model;
    model.setGraph(makeGraph());
    const int row = model.rowOfNode(node);
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, column).data().toString(), expected);
}

void TestNodeTableModel::toolTips()
{
    NodeTableModel model;
    model.setGraph(makeGraph());
    auto tip = [&](const char *node, int column) {
        return model.index(model.rowOfNode(QLatin1String(node)), column).data(Qt::ToolTipRole).toString();
    };
    QCOMPARE(tip("add", NodeTableModel::ValueColumn), QStringLiteral("f16[s0, 8][8, 1]cuda:0"));
    QCOMPARE(
        tip("mm", NodeTableModel::SourceColumn), QStringLiteral("/home/user/model.py:12 in forward\ny = x @ self.w"));
    QCOMPARE(tip("x", NodeTableModel::UsersColumn), QStringLiteral("mm\nadd"));
    QVERIFY(model.headerData(NodeTableModel::ValueColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("strides")));
}

void TestNodeTableModel::keepsGraphAlive()
{
    NodeTableModel model;
    {
        auto graph = makeGraph();
        model.setGraph(graph);
    }
    // The model's shared pointer is the last owner now; reading through it must still work.
    QCOMPARE(model.index(2, NodeTableModel::NameColumn).data().toString(), QStringLiteral("mm"));
}

void TestNodeTableModel::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("empty shows all") << "" << QStringList{"x", "w", "mm", "relu", "add", "view_2", "view_10", "output"};
    QTest::newRow("blank shows all") << "   "
                                     << QStringList{"x", "w", "mm", "relu", "add", "view_2", "view_10", "output"};
    QTest::newRow("by name") << "relu" << QStringList{"relu"};
    QTest::newRow("case-insensitive") << "RELU" << QStringList{"relu"};
    QTest::newRow("by target") << "aten" << QStringList{"mm", "relu", "add", "view_2", "view_10"};
    QTest::newRow("overload") << ".Tensor" << QStringList{"add"};
    QTest::newRow("all words must match") << "aten view_1" << QStringList{"view_10"};
    QTest::newRow("word order free") << "default mm" << QStringList{"mm"};
    QTest::newRow("no match") << "softmax" << QStringList{};
    QTest::newRow("not the value column") << "f32" << QStringList{};
}

void TestNodeTableModel::filter()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    NodeTableModel model;
    model.setGraph(makeGraph());
    NodeFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(NodeTableModel::IndexColumn);
    proxy.setFilterText(text);
    QCOMPARE(namesInOrder(proxy), expected);
    // A new graph keeps the filter.
    model.setGraph(makeGraph());
    QCOMPARE(namesInOrder(proxy), expected);
}

void TestNodeTableModel::sortNaturalAndNumeric()
{
    NodeTableModel model;
    model.setGraph(makeGraph());
    NodeFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterText(QStringLiteral("view"));

    proxy.sort(NodeTableModel::NameColumn, Qt::AscendingOrder);
    QCOMPARE(namesInOrder(proxy), (QStringList{"view_2", "view_10"}));
    proxy.sort(NodeTableModel::NameColumn, Qt::DescendingOrder);
    QCOMPARE(namesInOrder(proxy), (QStringList{"view_10", "view_2"}));

    proxy.setFilterText(QString());
    proxy.sort(NodeTableModel::UsersColumn, Qt::DescendingOrder);
    // x and add have two users each; ties keep graph order.
    QCOMPARE(namesInOrder(proxy).mid(0, 2), (QStringList{"x", "add"}));
    proxy.sort(NodeTableModel::SourceColumn, Qt::AscendingOrder);
    // Nodes without a source sort first (empty text), then model.py:9 before model.py:12.
    QCOMPARE(namesInOrder(proxy).mid(6, 2), (QStringList{"relu", "mm"}));
    proxy.sort(NodeTableModel::IndexColumn, Qt::DescendingOrder);
    QCOMPARE(namesInOrder(proxy).first(), QStringLiteral("output"));
}

QTEST_MAIN(TestNodeTableModel)
#include "tst_node_table_model.moc"
