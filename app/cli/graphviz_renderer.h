#pragma once
// Renders DOT text to SVG or PNG bytes with Graphviz's dot layout (cgraph + gvc).

#include "util/result.h"

#include <string>

namespace fxs::cli {

// format is "svg" or "png".
Result<std::string> renderDot(const std::string &dot, const std::string &format);

} // namespace fxs::cli
