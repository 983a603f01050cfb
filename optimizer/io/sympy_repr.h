#pragma once
// torch.export (2.x) writes a symbolic size as sympy's srepr: "Symbol('s77', positive=True, integer=True)",
// "Mul(Integer(2), Symbol('s0', integer=True))". fxscope keeps symbolic sizes as Python text, the way print(gm.graph)
// and the readable dumps spell them ("s77", "2*s0"), so those are what this turns srepr into.

#include <string>
#include <string_view>

namespace fxs {

// The Python text of an srepr expression; any other text (already "2*s0 + 1", or not understood) is returned as it is.
std::string sympyReprToText(std::string_view expr);

} // namespace fxs
