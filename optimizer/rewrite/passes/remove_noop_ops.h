#pragma once
// Inductor's post_grad.remove_noop_ops: a full slice, a view to the same shape, a convert_element_type to the same
// dtype, clone/alias, pow(x, 1), repeat by ones, zero padding, a one-tensor cat, copy ... replaced by its source
// where the node's meta equals its source's (sizes, dtype, device and strides, as same_meta) and no new aliasing
// between inputs and outputs appears. fwd_only runs it on every traced pattern; TorchAir runs it on the graph
// before its pattern pass. Without meta nothing is removed.

#include "rewrite/graph_editor.h"

namespace fxs {

Result<bool> removeNoopOps(GraphEditor &editor);
// Whether removeNoopOps would change `graph` (without changing it).
bool hasNoopOps(const Graph &graph);

} // namespace fxs
