#pragma once
// Writes a graph as print(gm.graph) text (PyTorch >= 2.1 spelling, `[num_users=N]`), which parseFxText
// reads back to an equal graph.

#include "../ir/graph.h"

#include <string>

namespace fxs {

// Graphs read from inductor fragments (they hold placeholders marked {"implicit": true}) are written back
// as a `# Graph fragment:` comment block. Nodes with meta['val'] carry the `Tensor "f32[4][1]cpu"`
// annotation newer PyTorch prints with include_tensor_metadata, so no information is lost. Strings that
// print(gm.graph) would print ambiguously (a string 'cpu', 'None' or 'a b') are quoted.
std::string writeFxText(const Graph &graph);

} // namespace fxs
