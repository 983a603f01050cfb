#pragma once
// How two paired nodes differ: target, args, kwargs and the parts of meta["val"] (shape, dtype, stride, device),
// each with both sides' text. A reference to a paired node compares by partner; one to an unpaired node is part
// of a region (reported there), not a change of the node that reads it.

#include "indexed_graph.h"
#include "node_pairing.h"

#include <string>
#include <vector>

namespace fxs {

struct FieldChange {
    std::string field; // "target", "args", "kwargs", "shape", "dtype", "stride", "device", "value"
    std::string a, b; // the field as each side spells it
};

struct NodeChange {
    uint32_t a = 0, b = 0; // positions in A and B
    std::vector<FieldChange> fields;
};

// Empty when the paired nodes agree.
std::vector<FieldChange> compareFields(
    const IndexedGraph &a, uint32_t i, const IndexedGraph &b, uint32_t j, const NodePairing &pairing);

} // namespace fxs
