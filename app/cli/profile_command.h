#pragma once
// fxscope-cli profile GRAPH [--patterns FILE...] [--device D] [--iters N] [--warmup N] [--inputs F] [--json]: runs the
// graph and its fused form (the patterns applied to the end) through LibTorch, per-node and per-graph medians side
// by side, the speedup, and whether the outputs still match (the `profile` JSON contract of DESIGN.md).

#include <string>
#include <vector>

namespace fxs::cli {

int runProfile(const std::vector<std::string> &args);

} // namespace fxs::cli
