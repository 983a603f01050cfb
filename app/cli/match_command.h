#pragma once
// fxscope-cli match GRAPH --patterns FILE... [--pattern NAME] [--json]: every candidate of every pattern, with
// its verdict, the stage that decided and the reasons (the `match` JSON contract of DESIGN.md).

#include <string>
#include <vector>

namespace fxs::cli {

int runMatch(const std::vector<std::string> &args);

} // namespace fxs::cli
