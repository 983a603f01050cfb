#pragma once
// What an extra_check sees: proxies of Inductor's Match and torch.fx Node backed by fxscope's real graph nodes,
// with meta["val"] / meta["tensor_meta"] as fake tensors (shape, dtype, device, stride, size(), dim(), numel()).

#include "match/match.h"
#include "py_value.h"

#include <functional>

namespace fxs {

PyValue pyNodeProxy(Node *node);
// A node argument as a Python value: literals as they are, graph nodes as `node` makes them (Node proxies for an
// extra_check; PyTorchHost's traced tensors where PyOpMeta reads their meta).
PyValue pyArgumentValue(const Argument &a, const std::function<PyValue(Node *)> &node = pyNodeProxy);
PyValue pyMatchProxy(const Match &match);

} // namespace fxs
