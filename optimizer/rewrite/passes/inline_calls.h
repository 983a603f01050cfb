#pragma once
// Inlines composite calls: a call_module whose target names a nested graph owned by the caller (a captured
// submodule, a fused partition), a torch.ops.higher_order.wrap call of a nested graph (dynamo's wrap bodies), and a
// call_function of an fx.wrap'ed composite whose graph a CompositeLibrary gives, are replaced by that graph's nodes.
// Placeholders take the call's arguments (positionally, then by name), getitem users of a tuple result take the
// element, other users the whole result. Nested graphs of the inlined graph move to the caller (renamed when taken);
// get_attr targets of the body get the submodule's path ("sub.weight"). A nested graph no longer called is removed.
// Node names stay where free, else get FX's _1, _2 suffixes.

#include "rewrite/graph_editor.h"

#include <map>
#include <memory>
#include <string>

namespace fxs {

// Composite functions by name (an fx.wrap'ed function's full target or its last dotted name) -> the graph they run.
using CompositeLibrary = std::map<std::string, std::shared_ptr<const Graph>>;

// Inlines every such call (only the one named `only` when it is not empty); returns whether any was inlined.
Result<bool> inlineCalls(GraphEditor &editor, const std::string &only = {}, const CompositeLibrary *library = nullptr);

} // namespace fxs
