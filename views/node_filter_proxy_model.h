#pragma once
// Filters and sorts a NodeTableModel: a row stays when every whitespace-separated term of the filter
// text occurs (case-insensitively) in the node's name or target; columns sort naturally (view_2 before
// view_10) or numerically.

#include <QSortFilterProxyModel>
#include <QStringList>

namespace fxs {

class NodeFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit NodeFilterProxyModel(QObject *parent = nullptr);

    QString filterText() const { return m_filterText; }
    void setFilterText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_filterText;
    QStringList m_terms;
};

} // namespace fxs
