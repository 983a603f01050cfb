#pragma once
// fxscope-cli apply GRAPH --patterns FILE... [--steps N] [--all] [-o OUT] [--json]: runs the patterns step by step
// through a Session (Inductor's order, lint after every step), prints each step and the per-op diff table, and
// writes the fused graph (the `apply` JSON contract of DESIGN.md).

#include <string>
#include <vector>

namespace fxs::cli {

int runApply(const std::vector<std::string> &args);

} // namespace fxs::cli
