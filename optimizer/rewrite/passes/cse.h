#pragma once
// Common subexpression elimination as the seeds' fx_graph_cse does it: a pure call whose op, target, args and kwargs
// equal an earlier node's is replaced by that node. Never merged: placeholders, get_attr, call_module (purity
// unknown), impure or mutating calls (isImpure, or a schema with a Tensor(a!) argument) and random ops.

#include "patterns/op_schema_table.h"
#include "rewrite/graph_editor.h"

namespace fxs {

// True when CSE may merge `node` with an identical earlier node.
bool isCseCandidate(const Node &node, const OpSchemaTable &schemas);

// Returns whether anything was merged.
Result<bool> eliminateCommonSubexpressions(
    GraphEditor &editor, const OpSchemaTable &schemas = OpSchemaTable::instance());

} // namespace fxs
