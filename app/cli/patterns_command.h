#pragma once
// fxscope-cli patterns PATTERN_FILE... [--json]: what each pattern file registers, in the order Inductor tries it.

#include <string>
#include <vector>

namespace fxs::cli {

int runPatterns(const std::vector<std::string> &args);

} // namespace fxs::cli
