#include "node_filter_proxy_model.h"

#include "node_table_model.h"

namespace fxs {

namespace {

// Compares runs of digits by value and everything else case-insensitively: view_2 < view_10.
// Done here rather than with QCollator, whose numeric mode is ignored in the C locale.
int naturalCompare(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // Leading zeros do not count; then the longer run is the larger number.
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == QLatin1Char('0'))
                ++si;
            while (sj + 1 < ej && b[sj] == QLatin1Char('0'))
                ++sj;
            if (ei - si != ej - sj)
                return ei - si < ej - sj ? -1 : 1;
            if (const int c = QStringView(a).mid(si, ei - si).compare(QStringView(b).mid(sj, ej - sj)))
                return c;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size())
        return 1;
    if (j < b.size())
        return -1;
    return 0;
}

} // namespace

NodeFilterProxyModel::NodeFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(NodeTableModel::SortRole);
    setFilterRole(NodeTableModel::FilterRole);
    setDynamicSortFilter(true);
}

void NodeFilterProxyModel::setFilterText(const QString &text)
{
    if (text == m_filterText)
        return;
    m_filterText = text;
    Result<NodeSearchQuery> query = NodeSearchQuery::parse(text);
    m_filterError = query ? QString() : QString::fromStdString(query.error().toString());
    m_query = query ? std::move(query).value() : NodeSearchQuery();
    invalidateFilter();
}

bool NodeFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_query.isEmpty())
        return true;
    const auto *model = static_cast<const NodeTableModel *>(sourceModel());
    const Node *node = model->node(model->index(sourceRow, 0, sourceParent));
    return node && m_query.matches(*node);
}

bool NodeFilterProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Graph order is the default sort and runs on every load: source rows are node positions, so
    // compare them directly instead of building two QVariants per comparison.
    if (left.column() == NodeTableModel::IndexColumn)
        return left.row() < right.row();
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    int c = 0;
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString) {
        c = naturalCompare(a.toString(), b.toString());
    } else {
        const QPartialOrdering order = QVariant::compare(a, b);
        c = order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
    }
    if (c != 0)
        return c < 0;
    // Ties fall back to graph order in either direction, so sorting by op or users groups nodes
    // without shuffling them (the proxy re-sorts from its previous order, not from the source's).
    return sortOrder() == Qt::AscendingOrder ? left.row() < right.row() : left.row() > right.row();
}

} // namespace fxs
