#pragma once
// fxscope-cli convert GRAPH -o OUT.{json,py,dot,svg,png} [--graph NAME|INDEX]

#include <string>
#include <vector>

namespace fxs::cli {

int runConvert(const std::vector<std::string> &args);

} // namespace fxs::cli
