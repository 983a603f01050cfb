#pragma once
// After a fusion step the new revision is laid out by Graphviz from scratch, which moves nodes the step did not
// touch. keepPreviousPositions puts every unchanged node back where it was relative to its group's frame (or to
// the scene, for a graph without groups), places each new node between its unchanged neighbours, grows frames to
// hold their nodes and redraws the edges whose ends moved as straight curves.

#include "node_grouping.h"
#include "scene_layout.h"

namespace fxs {

class Graph;

struct StablePositionsStats {
    size_t kept = 0; // unchanged nodes put back at their previous position
    size_t placed = 0; // new nodes placed between their neighbours
    size_t rerouted = 0; // edges redrawn because an end moved
};

StablePositionsStats keepPreviousPositions(SceneLayout &next, const Graph &nextGraph, const Grouping &nextGrouping,
    const SceneLayout &previous, const Graph &previousGraph, const Grouping &previousGrouping);

} // namespace fxs
