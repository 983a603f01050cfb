#pragma once
// The layout the canvas draws: the top level (single nodes and collapsed groups as boxes, expanded
// groups as frames) composed with the interior layout of every expanded group. Each group's interior
// is laid out on its own, once, and cached: expanding a group lays out that group and the small
// group-level graph only. Edges that cross into an expanded group enter it through a port on its
// frame, so the interior does not depend on what else is expanded.

#include "flat_layout.h"
#include "node_grouping.h"
#include "node_label.h"

#include <map>
#include <memory>
#include <vector>

namespace fxs {

class Graph;

// One group laid out on its own, in coordinates relative to its interior's top-left corner.
struct GroupInterior {
    size_t group = 0;
    // Items: the group's nodes in NodeGroup::nodes order, then the ports.
    FlatLayout layout;
    // Per port (item index - nodeCount): the top-level unit on the other side, and its direction.
    std::vector<size_t> portUnit;
    std::vector<bool> portIsInput;
    size_t nodeCount = 0;
};

using InteriorCache = std::map<size_t, std::shared_ptr<const GroupInterior>>;

enum class SceneItemKind {
    Node, // index: node index
    CollapsedGroup, // index: group index
    GroupFrame, // index: group index; its nodes and ports are items of their own
    Port, // index: group index of the frame it sits on
};

struct SceneItem {
    SceneItemKind kind = SceneItemKind::Node;
    size_t index = 0;
    LayoutRect rect;
    int frame = -1; // the GroupFrame item this item lies in, or -1 at the top level
};

struct SceneEdge {
    LayoutEdge path; // from / to are SceneItem indices
    int count = 1; // graph edges this edge stands for (aggregated between groups)
    // Not routed by Graphviz (it spans many ranks of the group-level graph): a plain curve that the
    // canvas shows when one of its ends is hovered or selected.
    bool longRange = false;
};

struct SceneLayout {
    std::vector<SceneItem> items;
    std::vector<SceneEdge> edges;
    LayoutRect bounds;
    std::vector<int> nodeItem; // per node index: its Node item, or -1 while its group is collapsed
    std::vector<int> groupItem; // per group: its CollapsedGroup or GroupFrame item
};

struct SceneMetrics {
    static constexpr double kFramePadding = 12;
    static constexpr double kFrameTitle = 22;
    static constexpr double kPortSize = 6;
    // Group-level edges between units further apart in graph order are long-range (see SceneEdge).
    static constexpr int kBackboneSpan = 6;
};

// Moves the end (start) of a spline onto `to`, bending its last (first) control point so that it arrives (leaves)
// vertically: direction -1 arrives from above, +1 leaves downwards.
void moveEdgeEnd(LayoutEdge &edge, LayoutPoint to, double direction);
void moveEdgeStart(LayoutEdge &edge, LayoutPoint to, double direction);

// Pairs of boxes (nodes, collapsed groups, frames) of one frame, or of the top level, that overlap by more than
// `tolerance` points both ways. A laid-out scene has none.
size_t countOverlappingBoxes(const SceneLayout &scene, double tolerance = 0.5);

// The size of a collapsed group's box.
NodeBoxSize groupBoxSize(const NodeGroup &group);

// Lays out one group's interior. Cancellable between steps through fxs::reportProgress.
Result<std::shared_ptr<const GroupInterior>> layoutGroupInterior(
    const Graph &graph, const Grouping &grouping, size_t group);

// Lays out what is visible with `expanded` (per group). Interiors missing from `cache` are laid out
// and added to it. Reports progress per interior; returns canceledError() when canceled.
Result<SceneLayout> layoutScene(
    const Graph &graph, const Grouping &grouping, const std::vector<bool> &expanded, InteriorCache &cache);

} // namespace fxs
