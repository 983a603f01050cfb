#pragma once
// What one session step did to a graph, as primitive edits (insert, erase, set args, set meta, reorder of a window)
// that can be replayed backwards (undo) and forwards (redo). Nodes are named, never pointed to, so a record stays
// valid while the nodes it mentions are erased and re-created; its size is proportional to the step, not the graph.

#include "ir/graph.h"
#include "util/result.h"

#include <memory>
#include <string>
#include <vector>

namespace fxs {

// Arguments with their node references kept by name (in forEachNode order), so they survive node re-creation.
struct StoredArgs {
    std::vector<Argument> args; // node references inside are stale; resolved through `refs`
    Kwargs kwargs;
    std::vector<std::string> refs;

    static StoredArgs capture(const std::vector<Argument> &args, const Kwargs &kwargs);
    // The arguments with every reference resolved by name in `graph`; false when a name is missing.
    bool resolve(const Graph &graph, std::vector<Argument> &args, Kwargs &kwargs) const;
};

struct EditOp {
    enum class Kind { Insert, Erase, SetArgs, SetMeta, Reorder, SetTarget, AddSubgraph, RemoveSubgraph };
    Kind kind = Kind::Insert;
    std::string name; // the node (all but Reorder); the nested graph for Add/RemoveSubgraph
    size_t index = 0; // Add/RemoveSubgraph: its position among the nested graphs
    std::string next; // Insert: the node it went in before; Erase: the node that followed it ("" = the end)
    OpKind op = OpKind::CallFunction; // Insert/Erase
    std::string target; // Insert/Erase; SetTarget: after
    std::string targetBefore; // SetTarget
    // Add/RemoveSubgraph: a snapshot of the nested graph (what fusing a partition creates or inlining removes).
    std::shared_ptr<const Graph> subgraph;
    StoredArgs args; // Insert/Erase: the node's args; SetArgs: after
    StoredArgs argsBefore; // SetArgs
    NodeMeta meta; // Erase: the node's meta; SetMeta: after
    NodeMeta metaBefore; // SetMeta
    std::vector<std::string> orderBefore, orderAfter; // Reorder: the window's names
};

class EditRecord {
public:
    void add(EditOp op) { m_ops.push_back(std::move(op)); }
    const std::vector<EditOp> &ops() const { return m_ops; }
    size_t size() const { return m_ops.size(); }
    bool empty() const { return m_ops.empty(); }
    // Nodes the record mentions (inserted, erased, changed, reordered): what undo/redo touch.
    size_t nodeCount() const;

    // Replays the inverse edits, last first; the graph must be in the state right after the step.
    Status undo(Graph &graph) const;
    // Replays the edits in order; the graph must be in the state right before the step.
    Status redo(Graph &graph) const;

private:
    std::vector<EditOp> m_ops;
};

} // namespace fxs
