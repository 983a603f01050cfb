#include "edit_record.h"

namespace fxs {

StoredArgs StoredArgs::capture(const std::vector<Argument> &args, const Kwargs &kwargs)
{
    StoredArgs s;
    s.args = args;
    s.kwargs = kwargs;
    auto collect = [&](Node *n) { s.refs.push_back(n ? n->name() : std::string()); };
    for (const auto &a : args)
        a.forEachNode(collect);
    for (const auto &kv : kwargs)
        kv.second.forEachNode(collect);
    return s;
}

bool StoredArgs::resolve(const Graph &graph, std::vector<Argument> &outArgs, Kwargs &outKwargs) const
{
    outArgs = args;
    outKwargs = kwargs;
    size_t i = 0;
    bool ok = true;
    // remapNodes visits references in the order forEachNode collected them.
    auto map = [&](Node *) -> Node * {
        Node *n = i < refs.size() && !refs[i].empty() ? graph.find(refs[i]) : nullptr;
        if (!n)
            ok = false;
        ++i;
        return n;
    };
    for (auto &a : outArgs)
        a.remapNodes(map);
    for (auto &kv : outKwargs)
        kv.second.remapNodes(map);
    return ok && i == refs.size();
}

size_t EditRecord::nodeCount() const
{
    size_t n = 0;
    for (const auto &op : m_ops)
        n += op.kind == EditOp::Kind::Reorder ? op.orderBefore.size() : 1;
    return n;
}

namespace {

Error replayError(const EditOp &op, const std::string &what)
{
    return Error{"", 0, 0, "cannot replay the edit of node '" + op.name + "': " + what};
}

Status insertNode(Graph &graph, const EditOp &op, const NodeMeta *meta)
{
    if (graph.find(op.name))
        return replayError(op, "a node of that name exists");
    // Replayed in order, the graph is as it was when the edit was made, so the node that followed is there.
    Node *before = op.next.empty() ? nullptr : graph.find(op.next);
    if (!op.next.empty() && !before)
        return replayError(op, "the node it goes before, '" + op.next + "', is missing");
    std::vector<Argument> args;
    Kwargs kwargs;
    if (!op.args.resolve(graph, args, kwargs))
        return replayError(op, "an input is missing");
    Node *n = graph.insertBefore(before, op.op, op.name, op.target, std::move(args), std::move(kwargs));
    if (meta)
        n->meta() = *meta;
    return Ok{};
}

Status eraseNode(Graph &graph, const EditOp &op)
{
    Node *n = graph.find(op.name);
    if (!n)
        return replayError(op, "it does not exist");
    if (!graph.erase(n))
        return replayError(op, "it still has users");
    return Ok{};
}

Status setArgs(Graph &graph, const EditOp &op, const StoredArgs &stored)
{
    Node *n = graph.find(op.name);
    std::vector<Argument> args;
    Kwargs kwargs;
    if (!n || !stored.resolve(graph, args, kwargs))
        return replayError(op, "it or one of its inputs is missing");
    graph.setArgs(n, std::move(args), std::move(kwargs));
    return Ok{};
}

Status setMeta(Graph &graph, const EditOp &op, const NodeMeta &meta)
{
    Node *n = graph.find(op.name);
    if (!n)
        return replayError(op, "it does not exist");
    graph.setMeta(n, meta);
    return Ok{};
}

Status setWindow(Graph &graph, const EditOp &op, const std::vector<std::string> &window)
{
    std::vector<Node *> order;
    order.reserve(window.size());
    for (const auto &name : window) {
        Node *n = graph.find(name);
        if (!n)
            return replayError(op, "'" + name + "' of the reordered window is missing");
        order.push_back(n);
    }
    if (!graph.reorderRun(order))
        return replayError(op, "the reordered window does not hold the same nodes");
    return Ok{};
}

Status setTarget(Graph &graph, const EditOp &op, const std::string &target)
{
    Node *n = graph.find(op.name);
    if (!n)
        return replayError(op, "it does not exist");
    graph.setTarget(n, target);
    return Ok{};
}

Status addSubgraph(Graph &graph, const EditOp &op)
{
    if (graph.subgraph(op.name) || !op.subgraph)
        return Error{"", 0, 0, "cannot replay adding the nested graph '" + op.name + "': it exists"};
    graph.addSubgraph(op.name, op.subgraph->clone(), op.index);
    return Ok{};
}

Status removeSubgraph(Graph &graph, const EditOp &op)
{
    if (!graph.takeSubgraph(op.name))
        return Error{"", 0, 0, "cannot replay removing the nested graph '" + op.name + "': it does not exist"};
    return Ok{};
}

} // namespace

Status EditRecord::undo(Graph &graph) const
{
    for (auto it = m_ops.rbegin(); it != m_ops.rend(); ++it) {
        const EditOp &op = *it;
        Status st = Ok{};
        switch (op.kind) {
        case EditOp::Kind::Insert: st = eraseNode(graph, op); break;
        case EditOp::Kind::Erase: st = insertNode(graph, op, &op.meta); break;
        case EditOp::Kind::SetArgs: st = setArgs(graph, op, op.argsBefore); break;
        case EditOp::Kind::SetMeta: st = setMeta(graph, op, op.metaBefore); break;
        case EditOp::Kind::Reorder: st = setWindow(graph, op, op.orderBefore); break;
        case EditOp::Kind::SetTarget: st = setTarget(graph, op, op.targetBefore); break;
        case EditOp::Kind::AddSubgraph: st = removeSubgraph(graph, op); break;
        case EditOp::Kind::RemoveSubgraph: st = addSubgraph(graph, op); break;
        }
        if (!st)
            return st;
    }
    return Ok{};
}

Status EditRecord::redo(Graph &graph) const
{
    for (const EditOp &op : m_ops) {
        Status st = Ok{};
        switch (op.kind) {
        case EditOp::Kind::Insert: st = insertNode(graph, op, nullptr); break;
        case EditOp::Kind::Erase: st = eraseNode(graph, op); break;
        case EditOp::Kind::SetArgs: st = setArgs(graph, op, op.args); break;
        case EditOp::Kind::SetMeta: st = setMeta(graph, op, op.meta); break;
        case EditOp::Kind::Reorder: st = setWindow(graph, op, op.orderAfter); break;
        case EditOp::Kind::SetTarget: st = setTarget(graph, op, op.target); break;
        case EditOp::Kind::AddSubgraph: st = addSubgraph(graph, op); break;
        case EditOp::Kind::RemoveSubgraph: st = removeSubgraph(graph, op); break;
        }
        if (!st)
            return st;
    }
    return Ok{};
}

} // namespace fxs
