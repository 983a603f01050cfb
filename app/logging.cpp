#include "logging.h"

#include <QString>
#include <QtGlobal>

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

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

void installQtMessageBridge()
{
    qInstallMessageHandler(forwardQtMessage);
}

} // namespace fxs
