#pragma once
// fxscope-cli info GRAPH [--graph NAME|INDEX] [--json]: format, and per graph its node counts by op,
// inputs and outputs.

#include <string>
#include <vector>

namespace fxs::cli {

int runInfo(const std::vector<std::string> &args);

} // namespace fxs::cli
