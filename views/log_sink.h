#pragma once
// A thread-safe spdlog sink that keeps records for the Log dock. Any thread may log; records wait here
// (at most a cap, oldest dropped) until the UI thread takes them in one batch, so records written before the
// dock exists (startup) are shown too and a flood costs one queued notification, not one per record.

#include <spdlog/sinks/base_sink.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace fxs {

struct LogRecord {
    std::chrono::system_clock::time_point time;
    spdlog::level::level_enum level = spdlog::level::info;
    std::string logger;
    std::string message;
};

class LogSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit LogSink(std::size_t capacity = 10000);

    // Called (from the logging thread, with the sink locked: it must only post) when records arrive while
    // none were waiting; it is called again only after takePending() emptied the queue.
    void setNotify(std::function<void()> notify);
    std::vector<LogRecord> takePending();
    std::size_t capacity() const { return m_capacity; }

protected:
    void sink_it_(const spdlog::details::log_msg &msg) override;
    void flush_() override { }

private:
    const std::size_t m_capacity;
    std::deque<LogRecord> m_pending;
    std::function<void()> m_notify;
    bool m_notified = false;
};

} // namespace fxs
