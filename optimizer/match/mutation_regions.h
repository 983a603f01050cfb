#pragma once
// Inductor's mutation regions (PM-main compute_mutation_region_ids): a counter that grows after every mutating
// node; a match whose nodes lie in two regions crosses a mutation barrier and is discarded.

#include "ir/graph.h"
#include "patterns/op_schema_table.h"

#include <vector>

namespace fxs {

// is_mutation_op: a known schema that mutates an input, else the name rule
// (?<!_)(_$|_[.]|(\b|_)(set|enter|exit|seed)(\b|_))(?!_) on the op's name, else an out= kwarg.
bool isMutationOp(const Node &node, const OpSchemaTable &schemas);

// Region id per node, indexed by Node::index().
std::vector<int> computeMutationRegions(const Graph &graph, const OpSchemaTable &schemas);

} // namespace fxs
