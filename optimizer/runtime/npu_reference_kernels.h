#pragma once
// CPU reference kernels for torch_npu's fusion ops (npu_rms_norm, npu_add_rms_norm, npu_swiglu, npu_rotary_mul)
// under their real schemas in the `npu` namespace, so fused graphs run where torch_npu is not loaded.

namespace fxs {

// Registers the kernels once, unless torch_npu (or anything else) already defined the op. Idempotent.
void registerNpuReferenceKernels();

} // namespace fxs
