#pragma once
// fxscope-cli passes GRAPH --pass NAME... [--steps N] [--check-each] [--patterns FILE...]
//   [--supported T,T... | --partition TARGETS_FILE] [--allow-single-node] [-o OUT] [--json]:
// runs a pipeline through the PassManager on a Session (each changing pass is a step), prints the passes run, the
// steps, the per-op diff table and, with an operator-support set, the proposed partitions and why every other call
// node is outside them.

#include <string>
#include <vector>

namespace fxs::cli {

int runPasses(const std::vector<std::string> &args);

} // namespace fxs::cli
