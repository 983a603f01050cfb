#pragma once
// Parser for torch.export .pt2 zip archives: finds the ExportedProgram JSON inside, in the 2023
// torch.export.save layout ([<folder>/]serialized_exported_program.json) or the PT2 archive layout
// ([<folder>/]models/<model>.json, one graph per model), and reads it with parseExportJson.
// The archive is read from memory; entries over 1 GiB or with zip-bomb ratios are refused. Errors inside
// an entry name it as "<archive>/<entry>:LINE:COL".

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parsePt2Archive(std::string_view bytes, const std::string &fileName);

} // namespace fxs
