#pragma once
// fxscope-cli devices [--json]: the LibTorch version and the devices graphs can run on.

#include <string>
#include <vector>

namespace fxs::cli {

int runDevices(const std::vector<std::string> &args);

} // namespace fxs::cli
