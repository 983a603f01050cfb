#pragma once
// A graph profiled on several ranks, as the Profile dock shows it: each rank's own report, the report over the ranks
// (each node's time on its slowest rank, as a step waits for it) and the merged JSON of docs/ranks.md that the
// rank table and the exports read. Immutable once made; crosses from the profiling thread as a shared pointer.

#include "runtime/runtime_library.h"
#include "util/json.h"

#include <memory>
#include <vector>

namespace fxs {

struct RanksProfile {
    std::vector<std::shared_ptr<const ProfileReport>> ranks; // by rank
    std::shared_ptr<const ProfileReport> overRanks; // the max over ranks, DESIGN.md's profile keys
    Json json; // mergeRankReports's: "ranks", "backend", "per_rank" with collective and compute times, ...
};

} // namespace fxs
