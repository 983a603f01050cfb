#pragma once
// `fxscope-cli profile GRAPH --ranks N`: the graph run on N ranks of a real process group, one worker process per
// rank (runtime/rank_launcher.h). GRAPH, --inputs and --expected may hold {r}, replaced by each rank's number
// (a glob after that picks torch's per-rank TORCH_TRACE log: 'trace/dedicated_log_torch_trace_rank_{r}_*.log').

#include "command_line.h"
#include "patterns/pattern_registry.h"
#include "runtime/runtime_library.h"

#include <memory>
#include <string>
#include <vector>

namespace fxs::cli {

struct RanksRequest {
    int ranks = 2;
    double timeoutSeconds = 60;
    ProfileOptions options; // the inputs and expected paths may hold {r}
    std::vector<std::string> patternSpecs;
    std::shared_ptr<PatternRegistry> registry;
};

int runProfileRanks(const CommandLine &cmd, const RanksRequest &request);

// `path` for rank r: {r} replaced, then a glob (* ? [) resolved to its one match.
Result<std::string> rankPath(const std::string &path, int rank);

} // namespace fxs::cli
