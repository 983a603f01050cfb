#pragma once
// Parser for torch.export .pt2 zip archives (the ExportedProgram JSON inside).

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parsePt2Archive(std::string_view text, const std::string &fileName);

} // namespace fxs
