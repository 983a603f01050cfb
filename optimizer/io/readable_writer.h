#pragma once
// Writes a graph as print_readable() code (class GraphModule / def forward with quoted annotations and
// "# File:" comments), which fxscope's readable parser reads back to the same graph.

#include "../ir/graph.h"

#include <string>

namespace fxs {

std::string writeReadable(const Graph &graph, const std::string &className = "GraphModule");

} // namespace fxs
