#pragma once
// The structural diff of two graphs that need not share names or history: which node is which (and what said
// so), how paired nodes differ, the regions that exist on one side only, and per-op counts. An immutable value,
// safe to hand across threads: it names nodes by position and keeps their names, never pointers.

#include "compare_regions.h"
#include "util/json.h"

#include <map>
#include <string>
#include <vector>

namespace fxs {

struct ComparedSide {
    std::vector<std::string> names; // per node, in graph order
    std::vector<std::string> ops; // per node: its op key (aten.add.Tensor, placeholder, ...)
};

struct GraphComparison {
    ComparedSide a, b;
    NodePairing pairing;
    std::vector<NodeChange> changes; // pairs that differ, in A's order
    std::vector<CompareRegion> regions; // in A's order
    std::map<std::string, std::pair<size_t, size_t>> opCounts; // op key -> (in A, in B)

    size_t pairedCount() const;
    size_t onlyInA() const { return a.names.size() - pairedCount(); }
    size_t onlyInB() const { return b.names.size() - pairedCount(); }
    // Equal up to names: every node paired and no pair differs.
    bool equal() const { return changes.empty() && onlyInA() == 0 && onlyInB() == 0; }
    size_t pairedBy(PairedBy how) const;
    // The change of the pair A node i belongs to, or nullptr.
    const NodeChange *changeOfA(uint32_t i) const;

    // The JSON documented in docs/diff.md (without the "a"/"b" file descriptions the caller adds).
    Json toJson() const;
};

GraphComparison compareGraphs(const Graph &a, const Graph &b);

} // namespace fxs
