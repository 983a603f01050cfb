#pragma once
// Writes one graph to a file in the form its extension names (.json, .py, .dot, .svg, .png), atomically.
// Shared by convert, apply and passes, so every command writes the same forms the same way.

#include "ir/graph_file.h"

#include <string>

namespace fxs::cli {

// "json", "py", ... ; empty when the path has none.
std::string extensionOf(const std::string &path);
// True for the extensions writeGraphFile understands.
bool isGraphOutputExtension(const std::string &extension);
// `named` supplies the name, kind and line of the graph; `format` the source format recorded in JSON.
Status writeGraphFile(const std::string &path, const Graph &graph, const NamedGraph &named, const std::string &format);

} // namespace fxs::cli
