#pragma once
// A graph flattened for comparison: per node its position, the nodes its arguments reference (in order), its
// users with the argument position they read it at, its op key and two hashes of what the node is on its own
// (strict: op, target, literal arguments, meta; loose: op, target, number of inputs). Built once, read-only.

#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxs {

struct IndexedUse {
    uint32_t user = 0;
    uint32_t position = 0; // which of the user's node references reads this node
};

class IndexedGraph {
public:
    explicit IndexedGraph(const Graph &graph);

    const Graph &graph() const { return m_graph; }
    size_t size() const { return m_nodes.size(); }
    const Node &node(size_t i) const { return *m_nodes[i]; }
    const std::vector<uint32_t> &inputs(size_t i) const { return m_inputs[i]; }
    const std::vector<IndexedUse> &uses(size_t i) const { return m_uses[i]; }
    const std::string &opKey(size_t i) const { return m_opKeys[i]; }
    uint64_t strictSignature(size_t i) const { return m_strict[i]; }
    uint64_t looseSignature(size_t i) const { return m_loose[i]; }
    // Position of the node called `name`, or -1.
    int64_t find(std::string_view name) const;

private:
    const Graph &m_graph;
    std::vector<const Node *> m_nodes;
    std::vector<std::vector<uint32_t>> m_inputs;
    std::vector<std::vector<IndexedUse>> m_uses;
    std::vector<std::string> m_opKeys;
    std::vector<uint64_t> m_strict, m_loose;
};

// Hash mixing shared by the signatures and the pairing (splitmix64's finaliser over a running combination).
uint64_t mixHash(uint64_t seed, uint64_t value);
uint64_t hashText(std::string_view text);

} // namespace fxs
