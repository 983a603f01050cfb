#pragma once
// The seeds' example transformations (torch.fx docs and pass-infra tests), as session passes: replace op A with op B,
// insert an op after every call of another, remove detach, and turn scalar operands into tensors.

#include "rewrite/graph_editor.h"

#include <string>

namespace fxs {

// True when `node` calls `target`: the same canonical target, or an overload of the packet `target` names.
bool callsTarget(const Node &node, const std::string &target);

// Every call of `from` now calls `to` (FX's `node.target = to`): names, args, users and meta are kept.
Result<bool> replaceOp(GraphEditor &editor, const std::string &from, const std::string &to);

// After every call of `after`, inserts `op(node)` and hands it the node's users (docs' "insert after" example).
Result<bool> insertOpAfter(GraphEditor &editor, const std::string &after, const std::string &op);

// detach (aten.detach, torch.detach, Tensor.detach) is an identity for inference graphs: users take its input.
Result<bool> removeDetach(GraphEditor &editor);

// aten.X.Scalar(t, 2.0) -> aten.X.Tensor(t, scalar_tensor(2.0, dtype=...)) for the binary ops with a Tensor
// overload (add, sub, mul, div, comparisons, pow, remainder, fmod). The new node's val is exact: a 0-dim tensor of
// the dtype it is given, on cpu.
Result<bool> scalarsToTensors(GraphEditor &editor);

} // namespace fxs
