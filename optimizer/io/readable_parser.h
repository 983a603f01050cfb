#pragma once
// Parser for Python code forms: print_readable, gm.code, TORCH_LOGS, depyf, black-formatted, print(ep).

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseReadable(std::string_view text, const std::string &fileName);

// The same for readable code that starts at line firstLine of fileName, such as a TORCH_TRACE payload whose
// lines each begin with a tab: errors, NamedGraph::line and NodeMeta::dumpLine then refer to the enclosing file.
Result<GraphFile> parseReadablePayload(std::string_view text, const std::string &fileName, int firstLine);

} // namespace fxs
