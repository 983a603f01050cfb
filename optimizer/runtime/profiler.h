#pragma once
// Profiles a graph before and after fusion: warm-up, N timed iterations, per-node and per-graph medians, and the
// two graphs' outputs compared with a tolerance by dtype. JSON in, JSON out (the module's C entry passes it on).

#include "util/json.h"

#include <functional>

namespace fxs {

// request: {"unfused": fxscope JSON text, "fused": text or null, "device", "iters", "warmup", "seed",
// "inputs": safetensors path, "expected_outputs": safetensors path, "return_outputs": bool}.
// Result: DESIGN.md's `profile` object, or {"error": text} ({"canceled": true} too when `progress` returned false).
// progress: the fraction of the job done, every few hundred nodes; false cancels.
Json runProfile(const Json &request, const std::function<bool(double)> &progress = {});

struct RankSlot;
// One rank of a multi-rank profile (a rank worker): request as runProfile's plus "rank": {rank, world_size, host,
// port, listen_fd, timeout_ms, group_names}. Joins the process group, then profiles with the ranks starting each run
// together; `slot` (shared with the launcher) follows the phase, graph, iteration and node. Result: runProfile's,
// with "rank" and "backend".
Json runRankProfile(const Json &request, RankSlot *slot, const std::function<bool(double)> &progress = {});

} // namespace fxs
