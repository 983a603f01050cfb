#pragma once
// CPU reference kernels for torch_npu's fusion ops (npu_rms_norm, npu_add_rms_norm, npu_add_rms_norm_cast,
// _npu_dtype_cast, npu_dynamic_quant, npu_add_rms_norm_dynamic_quant, npu_swiglu, npu_rotary_mul,
// npu_mm_all_reduce_base over a registered process group)
// under their real schemas in the `npu` namespace, so fused graphs run where torch_npu is not loaded.

#include <string>

namespace fxs {

// Registers the kernels once, unless torch_npu (or anything else) already defined the op. Idempotent.
void registerNpuReferenceKernels();

// Whether a node's target ("torch.ops.npu.npu_swiglu.default") runs on one of these kernels: fxscope defined the op,
// so its time is the CPU reference's, not the device's (outputs are still checked).
bool runsOnReferenceKernel(const std::string &target);

} // namespace fxs
