#pragma once
// Dead code elimination as Graph.eliminate_dead_code does it: nodes without users are erased, last first, unless
// they are impure (placeholders, the output, mutating or side-effecting calls).

#include "graph_editor.h"

#include <string>
#include <vector>

namespace fxs {

// Node.is_impure: placeholder, output, an in-place or out= op (its schema mutates, or its name ends in '_'), and
// FX's side-effectful functions (asserts, print, profiler ranges, RNG state).
bool isImpure(const Node &node);

// Erases every dead node through `editor`; returns their names in erase order.
std::vector<std::string> eliminateDeadCode(GraphEditor &editor);

} // namespace fxs
