#pragma once
// Parser for torch.export serialized JSON (ExportedProgram).

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseExportJson(std::string_view text, const std::string &fileName);

} // namespace fxs
