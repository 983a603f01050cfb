#pragma once
// The graph passes TorchAir's _optimize_fx (torchair/npu_fx_compiler.py) runs around its pattern pass, with its
// experimental_config defaults: remove_noop_ops, recover_view_inplace (TorchAir runs it with CANN >= 8.3.RC1, the
// NPU stack fxscope assumes) and optimize_sym_input before, view_to_reshape after. A pattern
// file that registers through TorchAir (torchair.register_replacement, _PatternPassManager.register_pattern)
// is matched inside this pipeline, as TorchAir would; one that registers through Inductor is not.

#include "rewrite/graph_editor.h"

#include <vector>

namespace fxs {

struct GraphPass {
    const char *name;
    Result<bool> (*run)(GraphEditor &editor);
};

class TorchairPipeline {
public:
    static const std::vector<GraphPass> &before(); // remove_noop_ops, recover_view_inplace, optimize_sym_input
    static const std::vector<GraphPass> &after(); // view_to_reshape
    // Whether a pass of before() would change `graph` (without changing it): the matcher copies it only then.
    static bool changesBefore(const Graph &graph);

    // recover_view_inplace_pattern: functionalization turned an in-place npu scatter into
    // placeholder -> view -> scatter_update -> view -> copy_(placeholder, ...) of one shape; the in-place op comes
    // back and the copy_ goes unless its result is used (npu.scatter_update, npu_scatter_nd_update,
    // npu_quant_scatter; as TorchAir in torch_npu 2.13 does).
    static Result<bool> recoverViewInplace(GraphEditor &editor);
    // _optimize_sym_input: a SymInt input's uses read it from the first tensor input with that size instead
    // (aten.sym_size(tensor, dim), inserted after that input).
    static Result<bool> optimizeSymInput(GraphEditor &editor);
    // Inductor's post_grad.view_to_reshape: every aten.view.default calls aten.reshape.default.
    static Result<bool> viewToReshape(GraphEditor &editor);
};

} // namespace fxs
