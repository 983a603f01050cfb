#pragma once
// TorchAir's own built-in patterns. TorchAir registers them into its pass when it first applies it
// (torchair/patterns/pattern_util.py, _apply_pattern_passes), so after every pattern of the user's; each file
// registers only where torch_npu is present, so on an NPU machine. fxscope adds them the same way, from TorchAir's
// own files, to a pattern set that registers through TorchAir.

#include "pattern_registry.h"

#include <string>

namespace fxs {

class TorchairBuiltins {
public:
    // The folder of TorchAir's pattern files: $FXSCOPE_TORCHAIR_PATTERNS (set but empty: none), else the one of
    // torch_npu (torch_npu/dynamo/torchair/patterns) or of torchair (torchair/patterns) beside the torch fxscope
    // was built with; empty when there is none.
    static std::string folder();

    // A copy of `registry` with TorchAir's built-ins after every other entry, where one of them registers through
    // TorchAir and the folder holds them; built-ins appended earlier are taken out first, so that a pattern file
    // loaded later still comes before them. In the order _apply_pattern_passes registers them in TorchAir's
    // default mode (max-autotune): add_rms_norm_dynamic_quant.py, then add_rms_norm_cast.py.
    static Result<std::shared_ptr<PatternRegistry>> arrange(const PatternRegistry &registry);

    // Whether `entry` is one of them.
    static bool isBuiltin(const PatternEntry &entry) { return entry.torchairBuiltin; }
};

} // namespace fxs
