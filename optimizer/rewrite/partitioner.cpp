#include "partitioner.h"

#include "passes/example_passes.h"
#include "patterns/op_schema.h"
#include "replacement.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

OperatorSupport::OperatorSupport(std::vector<std::string> targets)
{
    for (auto &t : targets)
        m_targets.insert(canonicalTarget(t));
}

bool OperatorSupport::isSupported(const Node &node) const
{
    if (node.op() != OpKind::CallFunction && node.op() != OpKind::CallMethod && node.op() != OpKind::CallModule)
        return false;
    if (m_predicate)
        return m_predicate(node);
    if (node.op() != OpKind::CallFunction)
        return m_targets.count(node.target()) > 0;
    std::string t = canonicalTarget(node.target());
    if (m_targets.count(t))
        return true;
    // "aten.add.Tensor" is covered by the packet "aten.add".
    auto dot = t.rfind('.');
    return dot != std::string::npos && m_targets.count(t.substr(0, dot));
}

const char *placementKindName(NodePlacement::Kind kind)
{
    switch (kind) {
    case NodePlacement::Kind::InPartition: return "in_partition";
    case NodePlacement::Kind::NotACall: return "not_a_call";
    case NodePlacement::Kind::Unsupported: return "unsupported";
    case NodePlacement::Kind::Cycle: return "cycle";
    case NodePlacement::Kind::SingleNode: return "single_node";
    case NodePlacement::Kind::GetitemOfOutside: return "getitem_of_outside";
    }
    return "";
}

const NodePlacement *ProposedPartitions::find(const std::string &node) const
{
    for (const auto &p : nodes)
        if (p.node == node)
            return &p;
    return nullptr;
}

Json ProposedPartitions::toJson() const
{
    Json parts = Json::array();
    for (size_t i = 0; i < partitions.size(); ++i) {
        Json names = Json::array();
        for (const Node *n : partitions[i])
            names.push(n->name());
        parts.push(Json::object({{"id", i}, {"nodes", std::move(names)}}));
    }
    Json outside = Json::array();
    for (const auto &p : nodes) {
        if (p.kind == NodePlacement::Kind::InPartition || p.kind == NodePlacement::Kind::NotACall)
            continue;
        Json o = Json::object({{"node", p.node}, {"kind", placementKindName(p.kind)}, {"reason", p.reason}});
        if (!p.cyclePath.empty()) {
            Json path = Json::array();
            for (const auto &s : p.cyclePath)
                path.push(s);
            o.set("cycle_path", std::move(path));
        }
        outside.push(std::move(o));
    }
    return Json::object({{"partitions", std::move(parts)}, {"outside", std::move(outside)},
        {"merges_refused_for_cycles", mergesRefused}});
}

CapabilityBasedPartitioner::CapabilityBasedPartitioner(
    const Graph &graph, OperatorSupport support, PartitionerOptions options)
    : m_graph(graph), m_support(std::move(support)), m_options(std::move(options))
{
}

namespace {

struct Part {
    std::vector<Node *> nodes;
    std::unordered_set<Node *> users; // users outside the partition
    size_t minIndex = 0, maxIndex = 0;
    bool alive = true;
};

// The state of one proposal: partitions by id, the assignment by node index, and the cycle test.
class Proposal {
public:
    explicit Proposal(const Graph &graph) : m_graph(graph), m_assignment(graph.size(), -1), m_stamp(graph.size(), 0) { }

    int assignment(const Node *n) const { return m_assignment[n->index()]; }

    int create(Node *n)
    {
        Part p;
        p.nodes = {n};
        for (Node *u : n->users())
            p.users.insert(u);
        p.minIndex = p.maxIndex = n->index();
        m_parts.push_back(std::move(p));
        int id = int(m_parts.size() - 1);
        m_assignment[n->index()] = id;
        m_byMin.insert({n->index(), id});
        return id;
    }

    // maybe_merge_partition: the merged id, or -1 with `path` set when merging would close a cycle.
    int merge(int a, int b, std::vector<std::string> &path)
    {
        if (a == b)
            return a;
        if (closesCycle(a, b, path))
            return -1;
        int big = m_parts[a].nodes.size() >= m_parts[b].nodes.size() ? a : b;
        int small = big == a ? b : a;
        Part &from = m_parts[size_t(small)];
        Part &to = m_parts[size_t(big)];
        m_byMin.erase({to.minIndex, big});
        m_byMin.erase({from.minIndex, small});
        for (Node *n : from.nodes) {
            m_assignment[n->index()] = big;
            to.users.erase(n);
        }
        for (Node *u : from.users)
            if (m_assignment[u->index()] != big)
                to.users.insert(u);
        to.nodes.insert(to.nodes.end(), from.nodes.begin(), from.nodes.end());
        to.minIndex = std::min(to.minIndex, from.minIndex);
        to.maxIndex = std::max(to.maxIndex, from.maxIndex);
        m_byMin.insert({to.minIndex, big});
        from = Part{};
        from.alive = false;
        return big;
    }

    std::vector<int> &raw() { return m_assignment; }

private:
    bool closesCycle(int a, int b, std::vector<std::string> &path)
    {
        const Part &pa = m_parts[size_t(a)], &pb = m_parts[size_t(b)];
        auto inMerged = [&](const Node *n) {
            int id = m_assignment[n->index()];
            return id == a || id == b;
        };
        // Nothing past `bound` can lead back: every later node is either unassigned or in a partition that starts
        // past the bound, and edges as well as the jumps through a contracted partition only go further.
        size_t bound = std::max(pa.maxIndex, pb.maxIndex);
        for (auto it = m_byMin.begin(); it != m_byMin.end() && it->first <= bound; ++it)
            bound = std::max(bound, m_parts[size_t(it->second)].maxIndex);

        ++m_round;
        std::unordered_map<const Node *, const Node *> parent; // how the walk reached a node
        std::unordered_set<int> expanded;
        std::deque<const Node *> queue;
        auto visit = [&](const Node *n, const Node *from) {
            if (n->index() > bound || m_stamp[n->index()] == m_round)
                return;
            m_stamp[n->index()] = m_round;
            parent[n] = from;
            queue.push_back(n);
        };
        for (const Part *p : {&pa, &pb})
            for (Node *u : p->users)
                if (!inMerged(u)) {
                    const Node *src = nullptr;
                    for (const Node *in : u->inputNodes())
                        if (inMerged(in))
                            src = in;
                    visit(u, src);
                }
        while (!queue.empty()) {
            const Node *n = queue.front();
            queue.pop_front();
            if (inMerged(n)) {
                for (const Node *p = n; p; p = parent.count(p) ? parent[p] : nullptr)
                    path.push_back(p->name());
                std::reverse(path.begin(), path.end());
                return true;
            }
            int id = m_assignment[n->index()];
            if (id >= 0) {
                // Fused, the whole partition is one node: anything downstream of any of its nodes follows it.
                if (!expanded.insert(id).second)
                    continue;
                for (Node *u : m_parts[size_t(id)].users)
                    visit(u, n);
            } else {
                for (Node *u : n->users())
                    visit(u, n);
            }
        }
        return false;
    }

    const Graph &m_graph;
    std::vector<Part> m_parts;
    std::vector<int> m_assignment;
    std::set<std::pair<size_t, int>> m_byMin;
    std::vector<uint32_t> m_stamp;
    uint32_t m_round = 0;

public:
    const Part &part(int id) const { return m_parts[size_t(id)]; }
};

std::string joinPath(const std::vector<std::string> &path)
{
    std::string out;
    for (const auto &s : path)
        out += (out.empty() ? "" : " -> ") + s;
    return out;
}

} // namespace

ProposedPartitions CapabilityBasedPartitioner::proposePartitions() const
{
    const Graph &g = m_graph;
    const size_t n = g.size();
    Proposal proposal(g);
    std::vector<std::string> cycleReason(n);
    std::vector<std::vector<std::string>> cyclePath(n);
    size_t refused = 0;
    for (size_t i = n; i-- > 0;) {
        Node *node = g.nodes()[i].get();
        // Candidates by a member node: an earlier merge may absorb a partition into another id.
        std::vector<const Node *> candidates;
        std::vector<int> seenIds;
        if (m_support.isSupported(*node) && proposal.assignment(node) < 0) {
            seenIds.push_back(proposal.create(node));
            candidates.push_back(node);
        }
        for (const Node *u : node->users()) {
            int id = proposal.assignment(u);
            if (id >= 0 && std::find(seenIds.begin(), seenIds.end(), id) == seenIds.end()) {
                seenIds.push_back(id);
                candidates.push_back(u);
            }
        }
        for (size_t k = 1; k < candidates.size(); ++k) {
            int self = proposal.assignment(candidates[0]);
            int other = proposal.assignment(candidates[k]);
            if (self == other)
                continue;
            std::vector<std::string> path;
            if (proposal.merge(self, other, path) >= 0)
                continue;
            ++refused;
            if (proposal.assignment(node) >= 0 && cycleReason[i].empty()) {
                cycleReason[i] = "merging with the partition of '" + candidates[k]->name()
                    + "' would close a cycle: " + joinPath(path);
                cyclePath[i] = path;
            }
        }
    }

    // getitems follow their producer's partition, to a fixed point (nested getitem chains).
    std::vector<int> assignment = proposal.raw();
    std::vector<bool> getitemOfOutside(n, false);
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto &owned : g.nodes()) {
            const Node *node = owned.get();
            bool tupleOutput = true;
            for (const Node *u : node->users())
                tupleOutput = tupleOutput && isGetitem(*u);
            if (!tupleOutput)
                continue;
            int id = assignment[node->index()];
            for (const Node *u : node->users())
                if (assignment[u->index()] != id) {
                    assignment[u->index()] = id;
                    getitemOfOutside[u->index()] = id < 0;
                    changed = true;
                }
        }
    }

    // Partitions in the order of their first node.
    std::unordered_map<int, size_t> order;
    std::vector<std::vector<Node *>> parts;
    for (const auto &owned : g.nodes()) {
        int id = assignment[owned->index()];
        if (id < 0)
            continue;
        auto [it, fresh] = order.emplace(id, parts.size());
        if (fresh)
            parts.emplace_back();
        parts[it->second].push_back(owned.get());
    }
    std::set<std::string> nonCompute = {"aten.view", "operator.getitem"};
    for (const auto &t : m_options.nonComputeOps)
        nonCompute.insert(canonicalTarget(t));
    std::set<std::string> allowedSingle;
    for (const auto &t : m_options.allowedSingleNodePartitionOps)
        allowedSingle.insert(canonicalTarget(t));
    auto inSet = [](const std::set<std::string> &set, const std::string &target) {
        std::string t = canonicalTarget(target);
        auto dot = t.rfind('.');
        return set.count(t) || (dot != std::string::npos && set.count(t.substr(0, dot)));
    };
    std::vector<bool> dropped(parts.size(), false);
    if (!m_options.allowsSingleNodePartition)
        for (size_t p = 0; p < parts.size(); ++p) {
            size_t compute = 0;
            for (const Node *node : parts[p])
                if (node->op() == OpKind::CallFunction) {
                    compute += !inSet(nonCompute, node->target());
                    compute += inSet(allowedSingle, node->target());
                }
            dropped[p] = compute <= 1;
        }

    ProposedPartitions out;
    out.mergesRefused = refused;
    std::vector<int> finalIndex(parts.size(), -1);
    for (size_t p = 0; p < parts.size(); ++p)
        if (!dropped[p]) {
            finalIndex[p] = int(out.partitions.size());
            out.partitions.push_back(parts[p]);
        }
    for (const auto &owned : g.nodes()) {
        const Node *node = owned.get();
        size_t i = node->index();
        NodePlacement pl;
        pl.node = node->name();
        int id = assignment[i];
        if (id >= 0 && finalIndex[order[id]] >= 0) {
            pl.partition = finalIndex[order[id]];
        } else if (getitemOfOutside[i]) {
            pl.kind = NodePlacement::Kind::GetitemOfOutside;
            pl.reason = "a getitem of '" + node->inputNodes().front()->name()
                + "', which is outside every partition: getitems follow their producer";
        } else if (id >= 0) {
            const auto &members = parts[order[id]];
            pl.kind = cycleReason[i].empty() ? NodePlacement::Kind::SingleNode : NodePlacement::Kind::Cycle;
            pl.reason = "its partition {";
            for (size_t k = 0; k < members.size(); ++k)
                pl.reason += (k ? ", " : "") + members[k]->name();
            pl.reason += "} has at most one compute node and single-node partitions are not allowed";
            if (!cycleReason[i].empty())
                pl.reason = cycleReason[i] + "; " + pl.reason;
            pl.cyclePath = cyclePath[i];
        } else if (node->op() != OpKind::CallFunction && node->op() != OpKind::CallMethod
            && node->op() != OpKind::CallModule) {
            pl.kind = NodePlacement::Kind::NotACall;
            pl.reason = std::string(opKindName(node->op())) + " nodes stay outside partitions";
        } else {
            pl.kind = NodePlacement::Kind::Unsupported;
            pl.reason = "unsupported: '" + node->target() + "' is not in the operator-support set";
        }
        out.nodes.push_back(std::move(pl));
    }
    return out;
}

Result<std::vector<std::string>> fusePartitions(
    GraphEditor &editor, const std::vector<std::vector<std::string>> &partitions, const std::string &prefix)
{
    Graph &graph = editor.graph();
    std::vector<std::string> modules;
    for (size_t p = 0; p < partitions.size(); ++p) {
        std::vector<Node *> nodes;
        std::unordered_set<const Node *> members;
        for (const auto &name : partitions[p]) {
            Node *n = graph.find(name);
            if (!n)
                return Error{"", 0, 0, "fuse: partition " + std::to_string(p) + " names a missing node '" + name + "'"};
            if (n->op() == OpKind::Placeholder || n->op() == OpKind::Output)
                return Error{"", 0, 0,
                    "fuse: partition " + std::to_string(p) + " holds the " + opKindName(n->op()) + " '" + name + "'"};
            if (members.insert(n).second)
                nodes.push_back(n);
        }
        if (nodes.empty())
            continue;
        // Order keys, not positions: the fusions before this one left positions to renumber.
        std::sort(nodes.begin(), nodes.end(), Graph::precedes);
        // validate_partition: no path leaves the partition and comes back. Walk downstream from the nodes' outside
        // users, never past the last member.
        const Node *last = nodes.back();
        std::vector<const Node *> stack;
        std::unordered_set<const Node *> seen;
        for (const Node *n : nodes)
            for (const Node *u : n->users())
                if (!members.count(u) && Graph::precedes(u, last) && seen.insert(u).second)
                    stack.push_back(u);
        while (!stack.empty()) {
            const Node *x = stack.back();
            stack.pop_back();
            for (const Node *u : x->users()) {
                if (members.count(u))
                    return Error{"", 0, 0,
                        "fuse: Invalid partition, found dependency cycles (partition " + std::to_string(p)
                            + " through '" + x->name() + "')"};
                if (Graph::precedes(u, last) && seen.insert(u).second)
                    stack.push_back(u);
            }
        }
        // Inputs in order of first use, outputs in graph order.
        std::vector<Node *> inputs, outputs;
        std::unordered_set<const Node *> inputSet;
        for (const Node *n : nodes)
            for (Node *in : n->inputNodes())
                if (!members.count(in) && inputSet.insert(in).second)
                    inputs.push_back(in);
        for (Node *n : nodes)
            for (const Node *u : n->users())
                if (!members.count(u)) {
                    outputs.push_back(n);
                    break;
                }
        auto body = std::make_unique<Graph>();
        std::unordered_map<const Node *, Node *> map;
        for (Node *in : inputs) {
            Node *ph = body->append(OpKind::Placeholder, in->name(), in->name());
            ph->meta().val = in->meta().val;
            map[in] = ph;
        }
        for (Node *n : nodes) {
            std::vector<Argument> args = n->args();
            Kwargs kwargs = n->kwargs();
            auto remap = [&](Node *old) { return map.at(old); };
            for (auto &a : args)
                a.remapNodes(remap);
            for (auto &kv : kwargs)
                kv.second.remapNodes(remap);
            Node *c = body->append(n->op(), n->name(), n->target(), std::move(args), std::move(kwargs));
            c->meta() = n->meta();
            map[n] = c;
        }
        std::vector<Argument> results;
        for (Node *o : outputs)
            results.push_back(Argument::ofNode(map.at(o)));
        Argument result = results.size() == 1 ? results.front() : Argument::tuple(results);
        body->append(OpKind::Output, "output", "output", {result});

        std::string module = prefix + std::to_string(p);
        for (int k = 1; graph.subgraph(module) || graph.find(module); ++k)
            module = prefix + std::to_string(p) + "_" + std::to_string(k);
        editor.addSubgraph(module, std::move(body));
        std::vector<Argument> callArgs;
        for (Node *in : inputs)
            callArgs.push_back(Argument::ofNode(in));
        Node *call = editor.insertBefore(nodes.back(), OpKind::CallModule, module, module, std::move(callArgs));
        std::vector<Node *> touched{call};
        if (outputs.size() == 1) {
            editor.setMeta(call, outputs.front()->meta());
            editor.replaceUses(outputs.front(), Argument::ofNode(call), members);
        } else {
            NodeMeta meta;
            ValueMeta tuple;
            tuple.kind = ValueMeta::Kind::Tuple;
            bool known = !outputs.empty();
            for (Node *o : outputs) {
                known = known && o->meta().val.has_value();
                if (known)
                    tuple.items.push_back(*o->meta().val);
            }
            if (known)
                meta.val = tuple;
            editor.setMeta(call, std::move(meta));
            for (size_t i = 0; i < outputs.size(); ++i) {
                Node *get = editor.insertBefore(nodes.back(), OpKind::CallFunction, graph.uniqueName("getitem"),
                    "operator.getitem", {Argument::ofNode(call), Argument::ofInt(int64_t(i))});
                NodeMeta gm;
                gm.val = outputs[i]->meta().val;
                editor.setMeta(get, std::move(gm));
                editor.replaceUses(outputs[i], Argument::ofNode(get), members);
                touched.push_back(get);
            }
        }
        // The nodes that now read the call: the ones a stable sort may have to move.
        for (size_t k = 0, end = touched.size(); k < end; ++k)
            for (Node *u : touched[k]->users())
                if (!members.count(u))
                    touched.push_back(u);
        for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
            if (!editor.erase(*it))
                return Error{"", 0, 0, "fuse: '" + (*it)->name() + "' still has users outside its partition"};
        // legalize_graph: users placed between the partition's nodes now precede the call.
        if (auto st = editor.sortIfNeeded(touched); !st)
            return st.error();
        modules.push_back(module);
    }
    return modules;
}

} // namespace fxs
