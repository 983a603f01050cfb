#pragma once
// The Log dock's table: time, level, logger, message of the records a LogSink collected, newest last,
// at most the sink's capacity (oldest rows removed first). Records arrive in batches on the UI thread.

#include "log_sink.h"

#include <QAbstractTableModel>

#include <deque>
#include <memory>

namespace fxs {

class LogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, LevelColumn, LoggerColumn, MessageColumn, ColumnCount };
    enum Role { LevelRole = Qt::UserRole + 1 };

    explicit LogModel(std::shared_ptr<LogSink> sink, QObject *parent = nullptr);
    ~LogModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString levelName(spdlog::level::level_enum level);

public Q_SLOTS:
    // Moves the records waiting in the sink into the table.
    void fetchPending();
    void clear();

private:
    std::shared_ptr<LogSink> m_sink;
    std::deque<LogRecord> m_records;
};

} // namespace fxs
