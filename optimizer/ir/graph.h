#pragma once
// An FX graph: nodes in topological order with O(1) lookup by name, and the nested graphs of
// higher-order ops (cond branches, flex-attention score_mod, wrap bodies) that it owns by attribute name.
// Inserting or erasing a node costs O(log n) plus moving pointers: nodes carry order keys with gaps (compared in
// O(1), located by binary search), and Node::index() renumbers the positions an edit made stale on its first call.

#include "node.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

class Graph {
public:
    Graph() = default;
    Graph(const Graph &) = delete;
    Graph &operator=(const Graph &) = delete;

    // Appends a node. name must be unique in this graph (see uniqueName); args may reference only
    // nodes of this graph.
    Node *append(OpKind op, std::string name, std::string target, std::vector<Argument> args = {}, Kwargs kwargs = {});
    // Inserts a node just before `before` (nullptr appends).
    Node *insertBefore(Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args = {},
        Kwargs kwargs = {});
    void setArgs(Node *node, std::vector<Argument> args, Kwargs kwargs);
    void setArgs(Node *node, std::vector<Argument> args) { setArgs(node, std::move(args), node->kwargs()); }
    // Changes what a node calls, keeping its name, arguments and users (FX's `node.target = ...`).
    void setTarget(Node *node, std::string target) { node->m_target = std::move(target); }
    // Removes a node that has no users.
    bool erase(Node *node);
    // Replaces every use of `from` by `to`.
    void replaceAllUses(Node *from, Node *to);
    // Reorders nodes to `order`, which must be a permutation of nodes().
    void reorder(const std::vector<Node *> &order);
    // Reorders the nodes at positions [start, start + window.size()) to `window`, a permutation of them; O(window).
    // False (nothing changed) when it is not one.
    bool reorderRange(size_t start, const std::vector<Node *> &window);

    // Where a node is, in O(log n) without renumbering (Node::index() is O(1) but renumbers after edits).
    size_t positionOf(const Node *node) const;
    // Whether `a` comes before `b` in this graph's order, in O(1) at any time.
    static bool precedes(const Node *a, const Node *b) { return a->m_order < b->m_order; }
    // The node after `node` in order, or nullptr for the last one.
    Node *next(const Node *node) const;

    Node *find(std::string_view name) const;
    const std::vector<std::unique_ptr<Node>> &nodes() const { return m_nodes; }
    size_t size() const { return m_nodes.size(); }
    Node *outputNode() const; // the last output node, or nullptr
    std::vector<Node *> placeholders() const;

    // A name not used in this graph, derived from base the way FX's _Namespace does (add, add_1, ...).
    std::string uniqueName(std::string_view base);

    // Nested graphs, in insertion order; `index` (clamped) puts one back where it was.
    Graph *addSubgraph(std::string name, std::unique_ptr<Graph> graph, size_t index = size_t(-1));
    // Removes a nested graph and hands it over (nullptr when absent); `index` receives where it was.
    std::unique_ptr<Graph> takeSubgraph(std::string_view name, size_t *index = nullptr);
    Graph *subgraph(std::string_view name) const;
    const std::vector<std::pair<std::string, std::unique_ptr<Graph>>> &subgraphs() const { return m_subgraphs; }

    std::unique_ptr<Graph> clone() const;

private:
    Node *insertAt(
        size_t index, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs);
    void addUses(Node *node);
    void removeUses(Node *node);
    void markStale(size_t position);
    void assignOrder(size_t position);
    void relabelAround(size_t position);
    friend size_t refreshNodeIndex(const Node &node);

    std::vector<std::unique_ptr<Node>> m_nodes;
    // Positions below this are exact in every node's m_index (see Node::index()).
    mutable std::atomic<size_t> m_indexedBelow{0};
    mutable std::mutex m_renumbering;
    std::unordered_map<std::string, Node *> m_byName;
    std::unordered_map<std::string, int> m_nameCounters;
    std::vector<std::pair<std::string, std::unique_ptr<Graph>>> m_subgraphs;
    std::unordered_map<std::string, Graph *> m_subgraphByName;
};

} // namespace fxs
