#pragma once
// Filters and sorts a NodeTableModel: a row stays when its node matches every term of the filter text
// (a NodeSearchQuery: plain words, op:, name:, target:/regex/, shape:); columns sort naturally (view_2
// before view_10) or numerically. Text that does not parse filters nothing and leaves an error.

#include <QSortFilterProxyModel>
#include <QStringList>

#include "node_search_query.h"

namespace fxs {

class NodeFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit NodeFilterProxyModel(QObject *parent = nullptr);

    QString filterText() const { return m_filterText; }
    void setFilterText(const QString &text);
    // Why the filter text does not parse ("<search>:1:COL: expected ..., found ..."); empty when it does.
    QString filterError() const { return m_filterError; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_filterText;
    QString m_filterError;
    NodeSearchQuery m_query;
};

} // namespace fxs
