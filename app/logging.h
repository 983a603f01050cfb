#pragma once
// The GUI's spdlog logger ("ui") and the bridge that sends Qt's own messages through spdlog too, so
// everything the program says ends up in one stream with one level setting (SPDLOG_LEVEL).

#include "log_sink.h"

#include <spdlog/logger.h>

#include <memory>

namespace fxs {

// Created on first use, logging to stderr; warnings and above unless SPDLOG_LEVEL says otherwise.
std::shared_ptr<spdlog::logger> uiLogger();
// Routes qDebug/qWarning/... into the "ui" logger.
void installQtMessageBridge();

// The sink behind the Log dock, shared by all loggers; it keeps records until the dock takes them.
std::shared_ptr<LogSink> logSink();
// Adds logSink() to the default logger (the optimizer and runtime log there) and to "ui", and to any other
// logger registered by then; those loggers then pass every level to the dock while their stderr sinks keep
// the level they had (warnings by default, SPDLOG_LEVEL changes it). Call once at startup, before logging.
void installLogSink();

} // namespace fxs
