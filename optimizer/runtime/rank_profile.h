#pragma once
// A graph profiled on every rank of a process group (profile --ranks N): each rank's report, and one report over
// the ranks with the slowest rank per node, the time in collectives against compute, and outputs compared per rank
// (docs/ranks.md has the JSON). Torch-free: the ranks run in worker processes (RankLauncher).

#include "rank_launcher.h"
#include "runtime_library.h"
#include "util/json.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace fxs {

struct RanksReport {
    std::vector<ProfileReport> ranks; // by rank
    Json json; // the report over the ranks: DESIGN.md's profile keys, plus "ranks", "per_rank", "collectives"
};

// Runs jobs[r] as rank r of one process group.
Result<RanksReport> runtimeProfileRanks(const std::vector<RankJob> &jobs, const RankLauncher::Options &options);

// `path` for rank r: {r} replaced by the rank, then a glob (* ? [) resolved to its one match (torch's per-rank
// TORCH_TRACE logs: 'trace/dedicated_log_torch_trace_rank_{r}_*.log'). Shared by fxscope-cli and the Profile dock.
Result<std::string> rankFilePath(const std::string &path, int rank);

// The report over the ranks from each rank's runtime report (exposed for tests).
Json mergeRankReports(const std::vector<Json> &reports);

} // namespace fxs
