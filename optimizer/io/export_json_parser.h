#pragma once
// Parser for torch.export serialized JSON (ExportedProgram).
//
// Builds the FX graph torch.export's deserializer would: placeholders for graph.inputs (with
// NodeMeta::extra["input_spec"] = {"kind", "target", ...} from the GraphSignature), one call_function
// per serialized node (named by its Node.name when outputs do not name it), operator.getitem nodes for multi-output
// ops and for a HOP's one output unless it is marked is_hop_single_tensor_return, get_attr nodes plus owned
// subgraphs for as_graph arguments, and an output node returning a tuple unless the graph is marked
// is_single_tensor_return. Program-level data (range_constraints, signature, module_call_graph, schema
// and opset versions) is kept in the output node's NodeMeta::extra.
//
// Without operator schemas, inputs are placed by NamedArgument.kind (1 positional, 2 keyword); when
// kind is absent an input is positional until the first keyword one, HOP inputs are keyword when
// named, and Python callables (operator.*, math.*, torch.sym_*) take all inputs positionally.

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseExportJson(std::string_view text, const std::string &fileName);

// A serialized target as FX prints it: "_operator.add" -> "operator.add",
// "aten::add.Tensor" -> "torch.ops.aten.add.Tensor"; anything else unchanged.
std::string normalizeExportTarget(std::string_view target);

} // namespace fxs
