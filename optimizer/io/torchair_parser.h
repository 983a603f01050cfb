#pragma once
// Parser for TorchAir graph_dump .py files (their '## FX Code:' lines and ge.Data inputs).

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseTorchAirPy(std::string_view text, const std::string &fileName);

} // namespace fxs
