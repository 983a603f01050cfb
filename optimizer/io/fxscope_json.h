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
// One node of that JSON, and the graph's keys besides its nodes (subgraphs, symbol_hints).
Json nodeToJson(const Node &node);
Json argumentToJson(const Argument &argument); // a node argument as "args" holds it
Json metaToJson(const NodeMeta &meta); // a node's "meta" object (empty when it holds nothing)
Json graphLevelToJson(const Graph &graph);
// One graph object ({"nodes": [...]}) of that JSON, already parsed (the torch host's replies carry them); errors
// name `label` (their offsets are the reply's).
Result<std::unique_ptr<Graph>> parseGraphJson(const Json &graph, const std::string &label);
// The same for a graph parsed from `text`, so errors are at FILE:LINE:COL of that text.
Result<std::unique_ptr<Graph>> parseGraphJson(const Json &graph, std::string_view text, const std::string &label);
// One argument in that JSON's encoding, as a literal (a node reference is an error).
Result<Argument> parseArgumentJson(const Json &argument, const std::string &label);

} // namespace fxs
