#pragma once
// What an extra_check sees: proxies of Inductor's Match and torch.fx Node backed by fxscope's real graph nodes,
// with meta["val"] / meta["tensor_meta"] as fake tensors (shape, dtype, device, stride, size(), dim(), numel()).

#include "match/match.h"
#include "py_value.h"

namespace fxs {

PyValue pyNodeProxy(Node *node);
PyValue pyArgumentValue(PyInterpreter &interp, const Argument &a);
PyValue pyMatchProxy(PyInterpreter &interp, const Match &match);

} // namespace fxs
