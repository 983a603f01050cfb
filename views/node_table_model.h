#pragma once
// A flat table of one FX graph's nodes, in graph order: what each node is, what it computes, its value
// (dtype and shape), how it connects, and where it came from in the user's program.

#include <QAbstractTableModel>
#include <QFont>

#include <memory>

namespace fxs {

class Graph;
class Node;

class NodeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        NameColumn,
        OpColumn,
        TargetColumn,
        ValueColumn,
        UsersColumn,
        InputsColumn,
        SourceColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // numbers for numeric columns, text otherwise
        FilterRole, // "name target", what the text filter searches
        NodeNameRole,
    };

    explicit NodeTableModel(QObject *parent = nullptr);
    ~NodeTableModel() override;

    // Shows `graph`; the pointer keeps the graph (and whatever owns it) alive while it is shown.
    // The graph must not change while the model shows it: results are immutable values.
    void setGraph(std::shared_ptr<const Graph> graph);
    const Graph *graph() const { return m_graph.get(); }
    const Node *node(const QModelIndex &index) const;
    // The row of the node called `name`, or -1.
    int rowOfNode(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Node &node, int column) const;
    QVariant toolTip(const Node &node, int column) const;

    std::shared_ptr<const Graph> m_graph;
    QFont m_fixedFont; // names, targets and shapes line up when read down a column
};

} // namespace fxs
