#pragma once
// The part of a graph one fusion step changed, before and after, as two standalone graphs: the same inputs (the
// nodes outside the part that it reads, as placeholders of the same names and meta) and the same outputs in the
// same order (the values read outside it: a replaced node and what took its place there). Running both on the same
// inputs says whether the step kept the graph's numbers (issue 25), without running the rest of the graph.

#include "util/json.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace fxs {

class Graph;

struct FusionRegion {
    Json before; // fxscope JSON graphs ({"nodes": [...]}), ready for parseGraphJson
    Json after;
    std::vector<std::string> inputs; // placeholder names: nodes outside the region that it reads
    std::vector<std::string> outputs; // the replaced nodes read outside it, in the order both graphs return them
};

// `removed` and `added` are a step's node names (SessionStep), `before` and `after` the graphs around it.
Result<FusionRegion> fusionRegion(const Graph &before, const Graph &after, const std::vector<std::string> &removed,
    const std::vector<std::string> &added);

} // namespace fxs
