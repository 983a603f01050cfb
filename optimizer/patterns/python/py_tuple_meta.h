#pragma once
// print_readable (and so TORCH_LOGS and TORCH_TRACE code) annotates a node only when its value is one tensor or
// SymInt: a multi-output op (npu_add_rms_norm, var_mean) has no annotation, though its getitems do. The tuple is
// inferred here with the tracer's meta rules (PyOpMeta) from the inputs' annotations, as meta["val"] would hold it.

#include "ir/graph.h"

namespace fxs {

class PyTupleMeta {
public:
    // Fills meta["val"] of call_function nodes without one whose users are all getitems, where the op's meta rule
    // gives every output and agrees with the getitems' own annotations. Returns how many nodes were filled.
    static size_t inferMissing(Graph &graph);
};

} // namespace fxs
