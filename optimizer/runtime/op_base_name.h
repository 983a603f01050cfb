#pragma once
// The bare name of the op a node calls, whatever the graph's level. Torch-free.

#include <string>

namespace fxs {

class Node;

// torch.ops.aten.embedding.default, aten.index_select.default, torch.nn.functional.embedding, torch.gather,
// operator.sub, a method "expand", <built-in function getitem> -> embedding, index_select, embedding, gather, sub,
// expand, getitem.
std::string opBaseName(const Node &node);

} // namespace fxs
