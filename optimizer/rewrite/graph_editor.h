#pragma once
// Changes a graph through the Graph API while recording every change as an EditRecord, so that rewrites and
// passes written against it get undo/redo for free.

#include "edit_record.h"

#include <unordered_set>

namespace fxs {

// meta.extra key of a new node's provenance: {"pattern", "anchor", "replaced", "origin"} from a pattern's
// replacement, {"pass", "replaced"} from a pass. "replaced" names the nodes the step removed; "origin" the nodes of
// the graph as loaded that they stood for (a fusion of nodes that an earlier fusion made goes back to the nodes
// that one replaced), so a fused region compares with what the unfused graph ran.
inline constexpr const char *kProvenanceKey = "fxscope_provenance";

class GraphEditor {
public:
    explicit GraphEditor(Graph &graph) : m_graph(graph) { }

    Graph &graph() { return m_graph; }
    const Graph &graph() const { return m_graph; }

    Node *insertBefore(Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args = {},
        Kwargs kwargs = {});
    // Records the node's args and meta, then erases it; false (nothing recorded) when it still has users.
    bool erase(Node *node);
    void setArgs(Node *node, std::vector<Argument> args, Kwargs kwargs);
    void setMeta(Node *node, NodeMeta meta);
    void setTarget(Node *node, std::string target);
    // Nested graphs: a snapshot is kept in the record, so the cost is that graph's size (the step's size).
    Graph *addSubgraph(std::string name, std::unique_ptr<Graph> graph);
    bool removeSubgraph(const std::string &name);
    // Replaces the uses of `from` by `to` (a node, a literal, a tuple of nodes) in every user not in `skip`.
    void replaceUses(Node *from, const Argument &to, const std::unordered_set<const Node *> &skip = {});

    // Inductor's stable_topological_sort after a change, run only when an edge of a `touched` node points
    // backwards (otherwise it would keep the order). Records just the window of nodes that moved.
    Status sortIfNeeded(const std::vector<Node *> &touched);

    // Stamps every node inserted through this editor that is still in the graph and has no provenance yet (a
    // pattern's replacement records its own) with {"pass": name, "replaced": [...]} in meta.extra: the nodes erased
    // in its part of the edit (a part starts at an insertion that follows an erasure). Recorded like any edit, so
    // undo removes it with the node.
    void stampPassProvenance(const std::string &pass);

    const EditRecord &record() const { return m_record; }
    EditRecord take() { return std::move(m_record); }

private:
    Graph &m_graph;
    EditRecord m_record;
};

// Substitutes `to` for every reference to `from` inside `arg`, recursively through lists, tuples and dicts.
void substituteNode(Argument &arg, const Node *from, const Argument &to);

} // namespace fxs
