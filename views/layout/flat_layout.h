#pragma once
// One Graphviz `dot` layout of a small flat graph of boxes (a group's interior or the group-level
// graph), copied into plain structs. Graphviz is not thread-safe: every call is serialised by one
// process-wide mutex, so any thread may call layoutFlat().

#include "layout_types.h"

#include "util/result.h"

#include <vector>

namespace fxs {

struct FlatLayoutInput {
    struct Item {
        double width = 0; // points
        double height = 0; // points
    };
    struct Edge {
        int from = -1;
        int to = -1;
        int weight = 1; // heavier edges are kept shorter and straighter
    };
    std::vector<Item> items;
    std::vector<Edge> edges;
    double nodeSeparation = 14; // points between boxes of one rank
    double rankSeparation = 28; // points between ranks
    // When set (one centre per item), the boxes stay where they are and only the edges are routed around them as
    // splines (Graphviz neato -n2); the boxes must not overlap.
    std::vector<LayoutPoint> pinnedCentres;
};

struct FlatLayout {
    std::vector<LayoutRect> items; // same order as the input's items; top-left corners
    std::vector<LayoutEdge> edges; // same order as the input's edges
    LayoutRect bounds; // contains every item and every edge point; starts at (0, 0)
};

// Layouts of this many boxes or more run in a layout server, a child process forked once (by warmUpGraphviz, while
// this process is small) that answers layouts over a socket: a crash inside Graphviz then costs that one layout (an
// error), not the program, and the server is forked again for the next one; cancelling kills it. Smaller layouts
// run in this process.
// FXSCOPE_LAYOUT_IN_PROCESS=1 runs every layout here.
constexpr size_t kIsolateFromItems = 8;

// Lays out with dot, top to bottom (or routes the edges between pinned boxes). Checks fxs::progressCanceled() before
// starting and returns canceledError() then; an isolated layout is also cancelled while it runs (its child is killed).
Result<FlatLayout> layoutFlat(const FlatLayoutInput &input);

// Lays out two boxes once, so Graphviz's context and dot plugin are loaded now (with dlopen, ~10 ms). Called once
// before anything else loads a big library: a dlopen running LibTorch's static initialisers holds the loader lock for
// half a second, and a first layout that needed the plugins then waited for it.
// Also starts the layout server.
void warmUpGraphviz();

// The layout server's process id, or -1 when none runs (tests, diagnostics).
int layoutServerProcess();

} // namespace fxs
