#pragma once
// Parser for Python code forms: print_readable, gm.code, TORCH_LOGS, depyf, black-formatted, print(ep).

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseReadable(std::string_view text, const std::string &fileName);

} // namespace fxs
