#pragma once
// stable_topological_sort as Inductor has it: keeps the current order wherever it is already valid and
// moves a node only as far as needed to follow its inputs. Iterative, O(nodes + edges).

#include "graph.h"

#include <optional>
#include <vector>

namespace fxs {

// Returns false (and leaves the graph unchanged) when the graph has a cycle.
bool stableTopologicalSort(Graph &graph);

// The same order for a run of consecutive nodes, inputs outside the run counting as placed already; nullopt when
// the run has a cycle. Sorting the run that holds every out-of-order edge sorts the whole graph.
std::optional<std::vector<Node *>> stableTopologicalOrder(const std::vector<Node *> &nodes);

} // namespace fxs
