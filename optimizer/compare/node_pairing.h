#pragma once
// Which node of graph A is which node of graph B. Evidence is taken in order of trust: fxscope's provenance (a
// node a fusion made is new, the nodes it names are gone), then equal names where the node and its inputs agree
// too, then structure: hashes of each unpaired node's upstream cone (from the placeholders) and downstream cone
// (from the output) paired where they are unique on both sides, propagated from every pair to its inputs and
// users, first with the strict signature (literals and meta must agree) then the loose one (op and target), so a
// renamed or changed but identical subgraph still pairs. Iterative throughout and near-linear in nodes + edges.

#include "indexed_graph.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace fxs {

enum class PairedBy : uint8_t { None, Provenance, Name, Structure };
const char *pairedByName(PairedBy how); // "provenance", "name", "structure"

struct NodePairing {
    std::vector<int32_t> partnerOfA; // per A node: its B partner, or -1
    std::vector<int32_t> partnerOfB; // per B node: its A partner, or -1
    std::vector<PairedBy> pairedBy; // per A node
    // (A node, B node): provenance says the B node replaced the A node; both are unpaired.
    std::vector<std::pair<uint32_t, uint32_t>> replacedBy;
};

NodePairing pairNodes(const IndexedGraph &a, const IndexedGraph &b);

} // namespace fxs
