#pragma once
// Checks the invariants every graph must keep: names unique and resolvable, inputs defined before
// use, users consistent with args, exactly one output node and it last, nested graphs valid too.

#include "graph.h"

#include <string>
#include <vector>

namespace fxs {

// Every violation found, in graph order; empty when the graph is valid.
std::vector<std::string> lint(const Graph &graph);

} // namespace fxs
