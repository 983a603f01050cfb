#pragma once
// A GraphDiff as a tree: four sections (removed, added, changed nodes and the per-op counts) with one row per
// entry. It renders the diff it is given; node rows carry the node's name for selecting it on the canvas.

#include <QAbstractItemModel>

#include <memory>

namespace fxs {

struct GraphDiff;

class GraphDiffModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Section { Removed, Added, Changed, OpCounts, SectionCount };
    enum Column { NameColumn, WhatColumn, BeforeColumn, AfterColumn, ColumnCount };
    enum Role {
        NodeNameRole = Qt::UserRole, // node rows: the node's name; empty elsewhere
        SectionRole, // int(Section)
    };

    explicit GraphDiffModel(QObject *parent = nullptr);

    // nullptr clears.
    void setDiff(std::shared_ptr<const GraphDiff> diff);
    const GraphDiff *diff() const { return m_diff.get(); }
    QModelIndex sectionIndex(Section section) const;
    // Op-count rows whose count changed come first; unchanged ones are listed only when asked for.
    void setShowUnchangedOps(bool show);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct OpRow {
        QString op;
        qulonglong before = 0, after = 0;
    };
    int childCount(int section) const;
    QVariant childData(int section, int row, int column, int role) const;
    void rebuildOps();

    std::shared_ptr<const GraphDiff> m_diff;
    std::vector<OpRow> m_ops; // changed first (by |delta|, then name), then unchanged when shown
    bool m_showUnchangedOps = false;
};

} // namespace fxs
