#pragma once
// lint() for one step: checks the invariants lint() checks (names resolvable, indices current, inputs defined
// before use, users consistent with args, the output node last) on just the nodes a step's EditRecord touched,
// their inputs and their users. Every edge a step adds or removes has a touched end, so on a graph that linted
// clean before the step this finds what lint() would, at the cost of the step instead of the graph.

#include "edit_record.h"

#include <string>
#include <vector>

namespace fxs {

// Violations around the nodes `record` touched, as lint() words them; empty when there are none.
std::vector<std::string> lintEdited(const Graph &graph, const EditRecord &record);

} // namespace fxs
