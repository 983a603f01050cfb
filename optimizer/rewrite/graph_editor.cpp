#include "graph_editor.h"

#include "ir/topological_sort.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace fxs {

void substituteNode(Argument &arg, const Node *from, const Argument &to)
{
    if (arg.isNode()) {
        if (arg.node() == from)
            arg = to;
        return;
    }
    for (auto &item : arg.items())
        substituteNode(item, from, to);
}

Node *GraphEditor::insertBefore(
    Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    EditOp e;
    e.kind = EditOp::Kind::Insert;
    e.name = name;
    e.op = op;
    e.target = target;
    e.args = StoredArgs::capture(args, kwargs);
    if (before)
        e.next = before->name();
    Node *n = m_graph.insertBefore(before, op, std::move(name), std::move(target), std::move(args), std::move(kwargs));
    m_record.add(std::move(e));
    return n;
}

bool GraphEditor::erase(Node *node)
{
    if (!node || !node->users().empty())
        return false;
    EditOp e;
    e.kind = EditOp::Kind::Erase;
    e.name = node->name();
    if (const Node *next = Graph::next(node))
        e.next = next->name();
    e.op = node->op();
    e.target = node->target();
    e.args = StoredArgs::capture(node->args(), node->kwargs());
    e.meta = node->meta();
    if (!m_graph.erase(node))
        return false;
    m_record.add(std::move(e));
    return true;
}

void GraphEditor::setArgs(Node *node, std::vector<Argument> args, Kwargs kwargs)
{
    EditOp e;
    e.kind = EditOp::Kind::SetArgs;
    e.name = node->name();
    e.argsBefore = StoredArgs::capture(node->args(), node->kwargs());
    e.args = StoredArgs::capture(args, kwargs);
    m_graph.setArgs(node, std::move(args), std::move(kwargs));
    m_record.add(std::move(e));
}

void GraphEditor::setMeta(Node *node, NodeMeta meta)
{
    EditOp e;
    e.kind = EditOp::Kind::SetMeta;
    e.name = node->name();
    e.metaBefore = node->meta();
    e.meta = meta;
    m_graph.setMeta(node, std::move(meta));
    m_record.add(std::move(e));
}

void GraphEditor::setTarget(Node *node, std::string target)
{
    EditOp e;
    e.kind = EditOp::Kind::SetTarget;
    e.name = node->name();
    e.targetBefore = node->target();
    e.target = target;
    m_graph.setTarget(node, std::move(target));
    m_record.add(std::move(e));
}

Graph *GraphEditor::addSubgraph(std::string name, std::unique_ptr<Graph> graph)
{
    EditOp e;
    e.kind = EditOp::Kind::AddSubgraph;
    e.name = name;
    e.index = m_graph.subgraphs().size();
    e.subgraph = graph->clone();
    Graph *raw = m_graph.addSubgraph(std::move(name), std::move(graph));
    m_record.add(std::move(e));
    return raw;
}

bool GraphEditor::removeSubgraph(const std::string &name)
{
    EditOp e;
    e.kind = EditOp::Kind::RemoveSubgraph;
    e.name = name;
    std::unique_ptr<Graph> g = m_graph.takeSubgraph(name, &e.index);
    if (!g)
        return false;
    e.subgraph = std::move(g);
    m_record.add(std::move(e));
    return true;
}

void GraphEditor::replaceUses(Node *from, const Argument &to, const std::unordered_set<const Node *> &skip)
{
    std::vector<Node *> users = from->users();
    for (Node *user : users) {
        if (skip.count(user))
            continue;
        std::vector<Argument> args = user->args();
        Kwargs kwargs = user->kwargs();
        for (auto &a : args)
            substituteNode(a, from, to);
        for (auto &kv : kwargs)
            substituteNode(kv.second, from, to);
        setArgs(user, std::move(args), std::move(kwargs));
    }
}

void GraphEditor::stampPassProvenance(const std::string &pass)
{
    // Passes rewrite one place at a time: insert the new nodes, rewire, erase the old ones (an inlined call, a
    // fused partition). So the record splits into units at an insertion that follows an erasure, and a new node
    // replaced the nodes erased in its unit. Two rewrites in one pass stay apart even when one feeds the other.
    struct Unit {
        std::vector<std::string> inserted, erased;
    };
    std::vector<Unit> units(1);
    std::unordered_set<std::string> inserted;
    for (const EditOp &op : m_record.ops()) {
        if (op.kind == EditOp::Kind::Insert) {
            if (!units.back().erased.empty())
                units.emplace_back();
            units.back().inserted.push_back(op.name);
            inserted.insert(op.name);
        } else if (op.kind == EditOp::Kind::Erase && !inserted.count(op.name)) {
            units.back().erased.push_back(op.name);
        }
    }
    for (const Unit &unit : units)
        for (const auto &name : unit.inserted) {
            Node *n = m_graph.find(name);
            if (!n || (n->meta().extra.isObject() && n->meta().extra.find(kProvenanceKey)))
                continue;
            Json list = Json::array();
            for (const auto &r : unit.erased)
                list.push(r);
            NodeMeta meta = n->meta();
            if (!meta.extra.isObject())
                meta.extra = Json::object();
            meta.extra.set(kProvenanceKey, Json::object({{"pass", pass}, {"replaced", std::move(list)}}));
            setMeta(n, std::move(meta));
        }
}

Status GraphEditor::sortIfNeeded(const std::vector<Node *> &touched)
{
    // Only a touched node can have an input at or after it (the graph was in order before the change). The sort
    // moves nodes only within [first such node, its latest input], which is what a stable topological sort of the
    // whole graph would change too, since everything outside that window is already in order.
    Node *first = nullptr, *last = nullptr;
    for (Node *n : touched)
        for (Node *input : n->inputNodes())
            if (input && !Graph::precedes(input, n)) {
                if (!first || Graph::precedes(n, first))
                    first = n;
                if (!last || Graph::precedes(last, input))
                    last = input;
            }
    if (!first)
        return Ok{};
    std::vector<Node *> before;
    for (Node *n = first;; n = Graph::next(n)) {
        before.push_back(n);
        if (n == last)
            break;
    }
    auto after = stableTopologicalOrder(before);
    if (!after)
        return Error{"", 0, 0, "the rewritten graph has a cycle; stable_topological_sort cannot order it"};
    std::vector<Node *> &order = *after;
    // Record just the part that moved.
    size_t lo = 0, hi = order.size();
    while (lo < hi && order[lo] == before[lo])
        ++lo;
    while (hi > lo && order[hi - 1] == before[hi - 1])
        --hi;
    if (lo == hi)
        return Ok{};
    EditOp e;
    e.kind = EditOp::Kind::Reorder;
    for (size_t i = lo; i < hi; ++i) {
        e.orderBefore.push_back(before[i]->name());
        e.orderAfter.push_back(order[i]->name());
    }
    std::vector<Node *> window(order.begin() + std::ptrdiff_t(lo), order.begin() + std::ptrdiff_t(hi));
    if (!m_graph.reorderRun(window))
        return Error{"", 0, 0, "stable_topological_sort: the window to reorder changed under it"};
    m_record.add(std::move(e));
    return Ok{};
}

} // namespace fxs
