#pragma once
// The GUI's spdlog logger ("ui") and the bridge that sends Qt's own messages through spdlog too, so
// everything the program says ends up in one stream with one level setting (SPDLOG_LEVEL).

#include <spdlog/logger.h>

#include <memory>

namespace fxs {

// Created on first use, logging to stderr; warnings and above unless SPDLOG_LEVEL says otherwise.
std::shared_ptr<spdlog::logger> uiLogger();
// Routes qDebug/qWarning/... into the "ui" logger.
void installQtMessageBridge();

} // namespace fxs
