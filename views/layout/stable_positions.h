#pragma once
// After a fusion step the new revision is laid out by Graphviz from scratch, which moves nodes the step did not
// touch. keepPreviousPositions puts every unchanged node back where it was relative to its group's frame (or to
// the scene, for a graph without groups), places each new node in free space nearest the places of the nodes it
// replaced (else its neighbours), grows frames to hold their nodes (moving what lies below or right of a grown frame
// out of its way), keeps the previous drawing of edges whose ends kept their places and has Graphviz route the
// others around the boxes.

#include "node_grouping.h"
#include "scene_layout.h"

namespace fxs {

class Graph;

struct StablePositionsStats {
    size_t kept = 0; // unchanged nodes put back at their previous position
    size_t placed = 0; // new nodes placed in free space near their provenance or neighbours
    size_t rerouted = 0; // edges redrawn because an end moved
    size_t reused = 0; // of those: the previous revision's drawing, moved with its ends
    size_t routed = 0; // of those: routed by Graphviz around the boxes (the rest are plain curves)
};

// Per group of the next revision: the group of the previous one that most of its nodes (by name) were in, -1 when
// none was. A step can relabel groups and split or merge runs, and several groups can share a label (a module
// whose nodes come in several runs), so labels do not say which group is which.
std::vector<int> matchPreviousGroups(
    const Graph &nextGraph, const Grouping &nextGrouping, const Graph &previousGraph, const Grouping &previousGrouping);

StablePositionsStats keepPreviousPositions(SceneLayout &next, const Graph &nextGraph, const Grouping &nextGrouping,
    const SceneLayout &previous, const Graph &previousGraph, const Grouping &previousGrouping);

} // namespace fxs
