#pragma once
// The regions of a graph comparison as a list: what was replaced, removed, added or changed, in A's order,
// each coloured as the canvases mark it. Read-only; a new comparison resets it.

#include "compare/graph_comparison.h"

#include <QAbstractListModel>

#include <memory>

namespace fxs {

class CompareRegionModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit CompareRegionModel(QObject *parent = nullptr);

    void setComparison(std::shared_ptr<const GraphComparison> comparison);
    const CompareRegion *region(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const GraphComparison> m_comparison;
};

} // namespace fxs
