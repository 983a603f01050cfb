#pragma once
// Removes view, reshape, expand (and _unsafe_view) whose result has its input's shape, as Inductor's
// remove_noop_ops does, when meta["val"] shows it: both shapes known and equal, dtype and device equal, strides
// equal where both are known. Without meta nothing is removed: a no-op is never guessed.

#include "rewrite/graph_editor.h"

namespace fxs {

// True when `node` is such a view of its first input.
bool isNoopView(const Node &node);

Result<bool> removeNoopViews(GraphEditor &editor);

} // namespace fxs
