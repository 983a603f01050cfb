#pragma once
// A stable, complete text form of a graph (nodes, arguments, users, meta, nested graphs) for golden
// tests and diffs. Two graphs print the same iff they hold the same information.

#include "graph.h"

#include <string>

namespace fxs {

std::string printCanonical(const Graph &graph);

} // namespace fxs
