#pragma once
// What a saved session brings back: the graph file (and which of its graphs), the pattern files added to the
// built-ins, how many steps were applied, the candidate shown, the selected node and the view (zoom, centre, groups
// expanded) and the Profile dock's settings (device, iterations, warm-up, symbol values). Written as a small JSON file
// atomically; read back with FILE:LINE:COL errors.

#include "runtime/symbol_values.h"
#include "util/result.h"

#include <QString>
#include <QStringList>

#include <string>
#include <string_view>

namespace fxs {

struct SessionState {
    static constexpr int kVersion = 1;
    // The Profile dock's ranges: what a session file may ask for.
    static constexpr int kMaxProfileIters = 10000;
    static constexpr int kMaxProfileWarmup = 1000;

    QString graphPath; // ":/…" for the bundled sample
    QString graph; // the graph's name in a file of several; empty: the first
    QStringList patternFiles;
    int revision = 0; // steps applied
    QString candidatePattern; // the candidate shown; empty: none
    QString candidateAnchor;
    QString selectedNode;
    double zoom = 0; // 0: the view is not saved (the first view is shown)
    double centreX = 0, centreY = 0; // scene coordinates of the view's middle
    QStringList expandedGroups; // group labels
    // The Profile dock's settings; an empty device: none saved (a session from before they were).
    QString profileDevice;
    int profileIters = 10;
    int profileWarmup = 2;
    SymbolValues profileSymbols; // the values the user gave, by symbol

    std::string toJson() const;
    static Result<SessionState> fromJson(std::string_view text, const std::string &fileName);
};

// Writes to a temporary file renamed over `path`: a kill leaves the previous session whole.
Status saveSessionFile(const QString &path, const SessionState &state);
Result<SessionState> loadSessionFile(const QString &path);

} // namespace fxs
