#pragma once
// Writes a graph in Graphviz DOT: one box per node coloured by op kind, labelled with name, target and
// shape; nested graphs as clusters.

#include "../ir/graph.h"

#include <string>

namespace fxs {

std::string writeDot(const Graph &graph, const std::string &name = "fx");

} // namespace fxs
