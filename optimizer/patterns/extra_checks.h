#pragma once
// extra_check functions written in C++ that explain themselves: each step they compute is one trace line,
// so a rejection reads "a_shape[-1] == 7168 → False because a_shape[-1] is 4096" rather than a bare False.

#include "pattern_entry.h"

#include <string>

namespace fxs {

// TorchAir's example check: x = match.kwargs.get(input); a_shape = x.meta["val"].shape; a_shape[-1] == value.
ExtraCheck lastDimEquals(const std::string &input, int64_t value);

} // namespace fxs
