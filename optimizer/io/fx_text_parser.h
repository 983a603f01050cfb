#pragma once
// Parser for print(gm.graph) text, including inductor '# Graph fragment' comments and log prefixes.

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

Result<GraphFile> parseFxText(std::string_view text, const std::string &fileName);

} // namespace fxs
