#include "log_sink.h"

#include <algorithm>
#include <iterator>

namespace fxs {

LogSink::LogSink(std::size_t capacity) : m_capacity(std::max<std::size_t>(capacity, 1)) { }

void LogSink::setNotify(std::function<void()> notify)
{
    std::lock_guard<std::mutex> lock(mutex_);
    m_notify = std::move(notify);
    m_notified = false;
    if (m_notify && !m_pending.empty()) {
        m_notified = true;
        m_notify();
    }
}

std::vector<LogRecord> LogSink::takePending()
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<LogRecord> out(std::make_move_iterator(m_pending.begin()), std::make_move_iterator(m_pending.end()));
    m_pending.clear();
    m_notified = false;
    return out;
}

void LogSink::sink_it_(const spdlog::details::log_msg &msg)
{
    // base_sink holds mutex_ here.
    LogRecord record;
    record.time = msg.time;
    record.level = msg.level;
    record.logger.assign(msg.logger_name.data(), msg.logger_name.size());
    record.message.assign(msg.payload.data(), msg.payload.size());
    m_pending.push_back(std::move(record));
    if (m_pending.size() > m_capacity)
        m_pending.pop_front();
    if (m_notify && !m_notified) {
        m_notified = true;
        m_notify();
    }
}

} // namespace fxs
