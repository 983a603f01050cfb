#include "log_filter_proxy_model.h"

#include "log_model.h"

namespace fxs {

LogFilterProxyModel::LogFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent) { }

void LogFilterProxyModel::setMinimumLevel(int level)
{
    if (level == m_minimumLevel)
        return;
    m_minimumLevel = level;
    invalidateFilter();
}

void LogFilterProxyModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool LogFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    if (model->index(sourceRow, 0, sourceParent).data(LogModel::LevelRole).toInt() < m_minimumLevel)
        return false;
    if (m_text.isEmpty())
        return true;
    for (int column : {int(LogModel::LoggerColumn), int(LogModel::MessageColumn)}) {
        if (model->index(sourceRow, column, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace fxs
