#include "compare_region_model.h"

#include "compare_marks.h"

#include <QBrush>

namespace fxs {

CompareRegionModel::CompareRegionModel(QObject *parent) : QAbstractListModel(parent) { }

void CompareRegionModel::setComparison(std::shared_ptr<const GraphComparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

const CompareRegion *CompareRegionModel::region(int row) const
{
    if (!m_comparison || row < 0 || row >= int(m_comparison->regions.size()))
        return nullptr;
    return &m_comparison->regions[size_t(row)];
}

int CompareRegionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_comparison->regions.size());
}

QVariant CompareRegionModel::data(const QModelIndex &index, int role) const
{
    const CompareRegion *r = index.isValid() ? region(index.row()) : nullptr;
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1. %2: %3")
            .arg(index.row() + 1)
            .arg(QString::fromUtf8(regionKindName(r->kind)), QString::fromStdString(r->description));
    case Qt::ToolTipRole:
        return tr("%1\nA: %L2 nodes, B: %L3 nodes; reads %L4 paired nodes, read by %L5")
            .arg(QString::fromStdString(r->description))
            .arg(r->a.size())
            .arg(r->b.size())
            .arg(r->inputs.size())
            .arg(r->users.size());
    case Qt::DecorationRole: return regionColor(r->kind);
    default: return {};
    }
}

} // namespace fxs
