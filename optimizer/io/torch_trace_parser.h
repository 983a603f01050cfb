#pragma once
// Parser for TORCH_TRACE structured logs: every graph-bearing record becomes a named graph.

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseTorchTrace(std::string_view text, const std::string &fileName);

} // namespace fxs
