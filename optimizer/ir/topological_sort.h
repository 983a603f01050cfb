#pragma once
// stable_topological_sort as Inductor has it: keeps the current order wherever it is already valid and
// moves a node only as far as needed to follow its inputs. Iterative, O(nodes + edges).

#include "graph.h"

namespace fxs {

// Returns false (and leaves the graph unchanged) when the graph has a cycle.
bool stableTopologicalSort(Graph &graph);

} // namespace fxs
