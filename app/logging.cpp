#include "logging.h"

#include <QString>
#include <QtGlobal>

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

namespace fxs {

std::shared_ptr<spdlog::logger> uiLogger()
{
    static std::once_flag once;
    std::call_once(once, [] {
        auto logger = spdlog::get("ui");
        if (!logger)
            logger = spdlog::stderr_color_mt("ui");
        logger->set_level(spdlog::level::warn);
        // SPDLOG_LEVEL=debug or SPDLOG_LEVEL=ui=debug raises it.
        spdlog::cfg::load_env_levels();
    });
    return spdlog::get("ui");
}

namespace {

void forwardQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    auto logger = uiLogger();
    const std::string text = message.toStdString();
    const char *category = context.category ? context.category : "qt";
    switch (type) {
    case QtDebugMsg: logger->debug("[{}] {}", category, text); break;
    case QtInfoMsg: logger->info("[{}] {}", category, text); break;
    case QtWarningMsg: logger->warn("[{}] {}", category, text); break;
    case QtCriticalMsg: logger->error("[{}] {}", category, text); break;
    case QtFatalMsg:
        logger->critical("[{}] {}", category, text);
        logger->flush();
        break;
    }
}

} // namespace

std::shared_ptr<LogSink> logSink()
{
    static const auto sink = std::make_shared<LogSink>();
    return sink;
}

void installLogSink()
{
    static std::once_flag once;
    std::call_once(once, [] {
        uiLogger(); // registers "ui" and applies SPDLOG_LEVEL first
        const auto sink = logSink();
        auto attach = [&sink](const std::shared_ptr<spdlog::logger> &logger) {
            auto &sinks = logger->sinks();
            if (std::find(sinks.begin(), sinks.end(), sink) != sinks.end())
                return;
            for (auto &existing : sinks)
                existing->set_level(std::max(existing->level(), logger->level()));
            sinks.push_back(sink);
            logger->set_level(spdlog::level::trace);
        };
        spdlog::apply_all(attach);
        attach(spdlog::default_logger()); // the default logger is not always in the registry's list
    });
}

void installQtMessageBridge()
{
    qInstallMessageHandler(forwardQtMessage);
}

} // namespace fxs
