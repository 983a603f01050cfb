#pragma once
// fxscope-cli diff A B [--graph-a N] [--graph-b N] [--json]: the structural diff of two graphs (two files, or two
// graphs of one TORCH_TRACE log): what paired, what changed, and the regions only one side has. Exit 0 when the
// graphs are equal up to names, 5 when they differ.

#include <string>
#include <vector>

namespace fxs::cli {

inline constexpr int kGraphsDiffer = 5;

int runDiff(const std::vector<std::string> &args);

} // namespace fxs::cli
