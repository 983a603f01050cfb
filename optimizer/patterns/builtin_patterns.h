#pragma once
// fxscope's built-in fusion patterns, registered through the same registerReplacement API users call: decomposed
// RMSNorm (plain and with LLaMA's float32 casts) → npu_rms_norm, add + npu_rms_norm → npu_add_rms_norm (TorchAir's
// documented example, with its last-dim == 7168 extra_check), SwiGLU silu·mul → npu_swiglu, LayerNorm via
// var_mean → native_layer_norm, mm + add → addmm. Search graphs are written as the readable code make_fx prints.

#include "register_replacement.h"

#include <string>
#include <vector>

namespace fxs {

struct BuiltinPattern {
    std::string name; // "rms_norm"
    std::string description;
};

const std::vector<BuiltinPattern> &builtinPatterns();

// Registers one built-in by name, or all of them for an empty name. Errors name the unknown pattern.
Status registerBuiltinPatterns(PatternRegistry &registry, const std::string &name = {});

} // namespace fxs
