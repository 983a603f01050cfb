#pragma once
// print_readable (and so TORCH_LOGS and TORCH_TRACE code) annotates a node only when its value is one tensor or
// SymInt, and never a get_attr line. What meta["val"] would hold is inferred here where the code says it:
// - a multi-output op (npu_add_rms_norm, var_mean), whose getitems are annotated: the tuple from the tracer's meta
//   rules (PyOpMeta) and the inputs' annotations;
// - a constant (`_tensor_constant0 = self._tensor_constant0`) read only through copies (lift_fresh_copy, clone,
//   alias, detach): their annotation, which is the constant's.

#include "ir/graph.h"

namespace fxs {

class PyReadableMeta {
public:
    // Fills meta["val"] of call_function nodes without one whose users are all getitems, where the op's meta rule
    // gives every output and agrees with the getitems' own annotations, and of get_attr nodes whose users are all
    // copies annotated alike. Returns how many nodes were filled.
    static size_t inferMissing(Graph &graph);
};

} // namespace fxs
