#pragma once
// The worker side of a multi-rank profile: what `fxscope-cli rank-worker REQUEST` runs in each process a
// RankLauncher starts. Torch-free: it loads the runtime module like any command.

#include <string>
#include <vector>

namespace fxs {

// args: the request file. Maps the slots from descriptor 3, runs the rank through the runtime, writes the report to
// the request's result_path and ends the process (LibTorch's teardown could wait on peers that are gone). Returns
// only on a usage error.
int runRankWorker(const std::vector<std::string> &args);

} // namespace fxs
