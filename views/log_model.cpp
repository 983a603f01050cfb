#include "log_model.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>

namespace fxs {

LogModel::LogModel(std::shared_ptr<LogSink> sink, QObject *parent)
    : QAbstractTableModel(parent), m_sink(std::move(sink))
{
    // Runs on the logging thread with the sink locked: only post; the UI thread takes the whole batch later.
    // The destructor unsets it under the same lock, so `this` is alive whenever it runs.
    m_sink->setNotify([this] { QMetaObject::invokeMethod(this, &LogModel::fetchPending, Qt::QueuedConnection); });
}

LogModel::~LogModel()
{
    m_sink->setNotify({});
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int LogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LogModel::levelName(spdlog::level::level_enum level)
{
    switch (level) {
    case spdlog::level::trace: return tr("trace");
    case spdlog::level::debug: return tr("debug");
    case spdlog::level::info: return tr("info");
    case spdlog::level::warn: return tr("warning");
    case spdlog::level::err: return tr("error");
    case spdlog::level::critical: return tr("critical");
    default: return tr("off");
    }
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogRecord &record = m_records[std::size_t(index.row())];
    if (role == LevelRole)
        return int(record.level);
    if (role == Qt::ForegroundRole && index.column() == LevelColumn) {
        if (record.level >= spdlog::level::err)
            return QBrush(QColor(0xd0, 0x30, 0x30));
        if (record.level == spdlog::level::warn)
            return QBrush(QColor(0xc0, 0x80, 0x00));
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn: {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(record.time.time_since_epoch()).count();
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz"));
    }
    case LevelColumn: return levelName(record.level);
    case LoggerColumn: return record.logger.empty() ? tr("(default)") : QString::fromStdString(record.logger);
    case MessageColumn: return QString::fromStdString(record.message);
    default: return {};
    }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case LevelColumn: return tr("Level");
    case LoggerColumn: return tr("Logger");
    case MessageColumn: return tr("Message");
    default: return {};
    }
}

void LogModel::fetchPending()
{
    std::vector<LogRecord> batch = m_sink->takePending();
    if (batch.empty())
        return;
    const std::size_t cap = m_sink->capacity();
    if (batch.size() >= cap) {
        // The batch alone fills the table: replace everything at once instead of removing row by row.
        beginResetModel();
        m_records.clear();
        m_records.insert(m_records.end(), std::make_move_iterator(batch.end() - std::ptrdiff_t(cap)),
            std::make_move_iterator(batch.end()));
        endResetModel();
        return;
    }
    const std::size_t total = m_records.size() + batch.size();
    if (total > cap) {
        const std::size_t drop = total - cap;
        beginRemoveRows({}, 0, int(drop) - 1);
        m_records.erase(m_records.begin(), m_records.begin() + std::ptrdiff_t(drop));
        endRemoveRows();
    }
    const int first = int(m_records.size());
    beginInsertRows({}, first, first + int(batch.size()) - 1);
    m_records.insert(m_records.end(), std::make_move_iterator(batch.begin()), std::make_move_iterator(batch.end()));
    endInsertRows();
}

void LogModel::clear()
{
    m_sink->takePending();
    beginResetModel();
    m_records.clear();
    endResetModel();
}

} // namespace fxs
