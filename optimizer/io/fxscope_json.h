#pragma once
// Parser for fxscope's own lossless JSON.

#include "../ir/graph_file.h"
#include "../util/json.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseFxscopeJson(std::string_view text, const std::string &fileName);

} // namespace fxs

namespace fxs {

// The canonical JSON of every graph of a file; parseFxscopeJson reads it back losslessly.
std::string writeFxscopeJson(const GraphFile &file);
Json graphToJson(const Graph &graph);

} // namespace fxs
