#pragma once
// What fwd_only runs on the graph make_fx traced: post_grad.remove_noop_ops (a full slice, a view to the same
// shape, a convert_element_type to the same dtype, clone/alias, pow(x, 1), a one-tensor cat ... removed where the
// node's meta equals its source's and no new input/output aliasing appears), then eliminate_dead_code.

#include "ir/graph.h"

namespace fxs {

class PyTraceCleanup {
public:
    static void removeNoopOps(Graph &graph);
    static void eliminateDeadCode(Graph &graph);
};

} // namespace fxs
