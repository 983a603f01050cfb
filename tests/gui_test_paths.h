#pragma once
// Included by every GUI test: QStandardPaths runs in test mode from before QApplication exists, so the autosaved
// session, recent files and settings a test writes go to ~/.qttest, never into the user's ~/.local/share.

#include <QStandardPaths>
#include <QtGlobal>

namespace {
void enableStandardPathsTestMode()
{
    QStandardPaths::setTestModeEnabled(true);
}
Q_CONSTRUCTOR_FUNCTION(enableStandardPathsTestMode)
} // namespace
