#pragma once
// Inductor's PatternExpr as the torch host writes it (_pattern_tree.py: every expression once, referred to by
// index, so a sub-pattern shared by two parents stays one PatternExpr) -> fxscope's PatternExpr. Targets are kept
// exactly as torch listed them (overload packets already expanded by torch), never re-expanded here.

#include "patterns/pattern_expr.h"
#include "util/json.h"
#include "util/result.h"

namespace fxs {

Result<PatternPtr> patternFromTree(const Json &tree, const std::string &label);

} // namespace fxs
