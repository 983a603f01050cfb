#pragma once
// What changed between two revisions of a graph: nodes removed, added (with the pattern and the nodes they
// replaced, from their provenance) and changed (target, args, meta), and a per-op count table before/after.
// Nodes are the same node when they have the same name and the same provenance, so a new node that reuses a
// removed node's name is still reported as removed + added.

#include "ir/graph.h"
#include "util/json.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

struct DiffNode {
    std::string name;
    std::string target; // op kind for placeholder/output
    std::string pattern; // added: the pattern that created it (provenance); empty otherwise
    std::string pass; // added: the pass that created it (provenance); empty otherwise
    std::vector<std::string> replaced; // added: the nodes it replaced (provenance)
};

struct DiffChange {
    std::string name;
    std::string field; // "target", "args" or "meta"
    std::string before, after;
};

struct GraphDiff {
    std::vector<DiffNode> removed; // in the old graph's order
    std::vector<DiffNode> added; // in the new graph's order
    std::vector<DiffChange> changed;
    std::map<std::string, std::pair<size_t, size_t>> opCounts; // opKey -> (before, after)
    size_t nodesBefore = 0, nodesAfter = 0;

    bool empty() const { return removed.empty() && added.empty() && changed.empty(); }
    Json toJson() const;
    // The per-op table: rows whose count changed first, "op  before  after  delta".
    std::string opTable(bool changedOnly = true) const;
};

GraphDiff diffGraphs(const Graph &before, const Graph &after);

// The key a node is counted under in the op table: a call_function's target as canonicalTarget spells it
// ("aten.cat.default" for torch.ops.aten.cat.default too), a method's or module's target, else its op kind.
std::string opKey(const Node &node);

} // namespace fxs
