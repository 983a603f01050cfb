#pragma once
// Which stage of torch.compile a graph was captured at, as far as patterns care: Dynamo's graph calls torch.*
// functions, tensor methods and modules; the AOT and post-grad graphs call aten operators, which is what
// register_replacement's patterns (and fxscope's built-ins) are traced to. A Dynamo graph matched with aten
// patterns finds nothing, so the match report says why instead of showing empty results.

#include "ir/graph.h"
#include "patterns/pattern_registry.h"

#include <string>

namespace fxs {

struct GraphLevel {
    size_t atenCalls = 0; // call_function of an aten or prims operator (torch.ops.aten.*, aten.*)
    size_t dynamoCalls = 0; // call_function of a torch.* function, call_method, call_module

    bool isDynamoLevel() const { return atenCalls == 0 && dynamoCalls > 0; }
};

GraphLevel graphLevel(const Graph &graph);
// graphLevel(graph).atenCalls > 0, stopping at the first aten call.
bool hasAtenCall(const Graph &graph);

// The match report's warning when some of `registry`'s patterns are aten-level and `graph` is Dynamo-level;
// empty otherwise.
std::string dynamoLevelWarning(const Graph &graph, const PatternRegistry &registry);

} // namespace fxs
