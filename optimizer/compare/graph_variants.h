#pragma once
// Copies of a graph whose pairing with the original is known, for tests and the diff benchmark: the same graph
// under other names, and a graph with fxscope's provenance removed (as if it came from elsewhere).

#include "ir/graph.h"

#include <memory>

namespace fxs {

enum class Renaming {
    Fresh, // every node gets a new name: t0, t1, ... in order
    RotatedWithinOp, // each non-placeholder node takes the name of the next node with the same op key
};

std::unique_ptr<Graph> renamedCopy(const Graph &graph, Renaming renaming);
// Drops meta.extra's fxscope_provenance from every node.
void stripProvenance(Graph &graph);

} // namespace fxs
