#pragma once
// Ops that newer PyTorch puts in graphs but the LibTorch fxscope links (Debian's 1.13) lacks, registered under their
// real schemas with kernels that are PyTorch's own decompositions of them (torch/_refs, torch/_decomp,
// torch/_inductor/inductor_prims.py) into ops this LibTorch has. The executor then finds them by schema like any op.

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <string>
#include <vector>

namespace fxs {

// Registers each fallback whose op this LibTorch does not already have. Once per process; idempotent.
void registerOpFallbacks();

// aten._safe_softmax as torch/_decomp defines it (also the softmax of scaled_dot_product_attention and
// flex_attention): rows of nothing but -inf give zeros rather than NaN.
at::Tensor safeSoftmax(const at::Tensor &self, int64_t dim, c10::optional<at::ScalarType> dtype);

// The overloads of fxscope::NAME: a torch.* function of a Dynamo-level graph that has no aten op of its name
// (torch.tensor). Empty when there is none.
std::vector<c10::OperatorHandle> functionFallbacks(const std::string &name);

} // namespace fxs
