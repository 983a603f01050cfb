#pragma once
// A pattern set as one pass (Inductor's PatternMatcherPass.apply): one sweep over the matcher's accepted
// candidates in the order Inductor applies them (anchors last to first, patterns in registration order), each
// re-matched on the graph as earlier replacements left it. Session::step applies the same matches one at a time.

#include "patterns/pattern_registry.h"
#include "rewrite/graph_editor.h"

#include <memory>

namespace fxs {

// Returns whether any match was applied; `applied` (optional) counts them.
Result<bool> applyPatternSet(GraphEditor &editor, const PatternRegistry &registry, size_t *applied = nullptr);

} // namespace fxs
