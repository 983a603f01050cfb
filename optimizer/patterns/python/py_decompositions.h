#pragma once
// Inductor's decomposition table (select_decomp_table) as fwd_only's make_fx applies it while tracing a pattern:
// an op with an entry is recorded as the ops its decomposition calls (silu as neg/exp/add/div with an f32 upcast
// for half types, softmax as amax/sub/exp/sum/div, layer_norm as var_mean/rsqrt/..., square as pow), node for node
// and literal for literal as torch 2.13's trace gives them.

#include "patterns/op_schema.h"
#include "py_torch_host.h"

#include <optional>
#include <string>
#include <vector>

namespace fxs {

class PyDecompositions {
public:
    // Records schema's decomposition into trace and returns its result; nullopt when the op is recorded as itself
    // (no entry in the table, or a form of it not reproduced: then a warning says so).
    static std::optional<PyValue> decompose(PyInterpreter &interp, PyTraceGraph &trace, const OpSchema &schema,
        const std::vector<const PyValue *> &values, const std::string &spelledAs);
};

} // namespace fxs
