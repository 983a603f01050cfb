#pragma once
// Ops that PyTorch registers from Python only, so LibTorch's C++ dispatcher never has them: Inductor's random prims
// (torch/_inductor/inductor_prims.py, in post-grad graphs) and torch.tensor of a Dynamo-level graph (a Python
// function with no aten op). Registered under their real schemas with kernels that do what PyTorch's eager
// implementations do; the executor then finds them by schema like any op. Every other op of a graph is LibTorch's.

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <string>
#include <vector>

namespace fxs {

// Registers each fallback whose op this LibTorch does not already have. Once per process; idempotent.
void registerOpFallbacks();

// The overloads of fxscope::NAME: a torch.* function of a Dynamo-level graph that has no aten op of its name
// (torch.tensor). Empty when there is none.
std::vector<c10::OperatorHandle> functionFallbacks(const std::string &name);

} // namespace fxs
