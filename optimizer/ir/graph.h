#pragma once
// An FX graph: nodes in topological order with O(1) lookup by name, and the nested graphs of
// higher-order ops (cond branches, flex-attention score_mod, wrap bodies) that it owns by attribute name.
// Nodes form a linked list with order keys (gaps left for insertions), so inserting, erasing and comparing order
// cost O(1) (amortised; a crowded spot relabels a small window). The vector that nodes() returns, and the positions
// Node::index() returns, are rebuilt on the first call after an edit: a step pays O(step), and the readers that
// want positions pay O(graph) once.

#include "node.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace fxs {

class Graph {
public:
    Graph();
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
    void setTarget(Node *node, std::string target);
    // Replaces a node's meta. Edits of a node already in the graph go through here: a write through Node::meta()
    // is not in the change log.
    void setMeta(Node *node, NodeMeta meta);
    // Removes a node that has no users.
    bool erase(Node *node);
    // Replaces every use of `from` by `to`.
    void replaceAllUses(Node *from, Node *to);
    // Reorders nodes to `order`, which must be a permutation of nodes().
    void reorder(const std::vector<Node *> &order);
    // Reorders a run of consecutive nodes to `window`, a permutation of that run, in O(window). False (nothing
    // changed) when `window` is not a permutation of consecutive nodes.
    bool reorderRun(const std::vector<Node *> &window);

    // For whoever follows this graph by diffs (the torch host's mirror): from the first followChanges() on, the
    // names of the nodes added, erased, moved, or given other arguments, target or meta go to changeLog() in the
    // order that happened (with repeats), and the follower reads on from where it stopped; followChanges() returns
    // where the log stands. serial() tells this graph from every other one, so a follower knows the log it read.
    size_t followChanges() const;
    const std::vector<std::string> &changeLog() const { return m_changeLog; }
    uint64_t serial() const { return m_serial; }

    // Whether `a` comes before `b` in this graph's order, in O(1) at any time.
    static bool precedes(const Node *a, const Node *b) { return a->m_order < b->m_order; }
    // Neighbours in order, in O(1) at any time; nullptr past either end.
    static Node *next(const Node *node) { return node->m_next; }
    static Node *prev(const Node *node) { return node->m_prev; }
    Node *first() const { return m_first; }
    Node *last() const { return m_last; }

    Node *find(std::string_view name) const;
    // Every node in order (rebuilt here after edits, in O(n)).
    const std::vector<std::unique_ptr<Node>> &nodes() const
    {
        if (!m_ordered.load(std::memory_order_acquire))
            restoreOrder();
        return m_nodes;
    }
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

    // The size each symbol of the graph's dynamic shapes had when it was traced (s0 -> 8), where the dump says:
    // torch.export's SymExpr hints, TORCH_TRACE's create_symbol records. They prefill the values a run needs.
    const std::map<std::string, int64_t> &symbolHints() const { return m_symbolHints; }
    void setSymbolHints(std::map<std::string, int64_t> hints) { m_symbolHints = std::move(hints); }

private:
    void link(Node *node, Node *before);
    void unlink(Node *node);
    void assignOrder(Node *node);
    void relabelAround(Node *node);
    void addUses(Node *node);
    void removeUses(Node *node);
    void restoreOrder() const;
    void logChange(const Node *node)
    {
        if (m_followed)
            m_changeLog.push_back(node->m_name);
    }
    friend size_t refreshNodeIndex(const Node &node);

    // Owns every node. In list order, with each node's m_index its position, while m_ordered holds; after an edit
    // it is a bag (each node's m_index is still its slot) until restoreOrder() rebuilds it.
    mutable std::vector<std::unique_ptr<Node>> m_nodes;
    mutable std::atomic<bool> m_ordered{true};
    mutable std::mutex m_ordering;
    Node *m_first = nullptr;
    Node *m_last = nullptr;
    std::unordered_map<std::string, Node *> m_byName;
    std::unordered_map<std::string, int> m_nameCounters;
    std::vector<std::pair<std::string, std::unique_ptr<Graph>>> m_subgraphs;
    std::unordered_map<std::string, Graph *> m_subgraphByName;
    std::map<std::string, int64_t> m_symbolHints;
    mutable bool m_followed = false;
    std::vector<std::string> m_changeLog;
    const uint64_t m_serial;
};

} // namespace fxs
