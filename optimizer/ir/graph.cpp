#include "graph.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace fxs {

namespace {

// Spacing of order keys when nodes are appended or relabelled: 2^32 leaves room for 32 insertions at one spot
// before a local relabelling, and 2^32 keys per node last for 4 billion nodes.
constexpr uint64_t kOrderGap = uint64_t(1) << 32;
// A relabelled window is grown until its keys can be this far apart.
constexpr uint64_t kMinRelabelGap = uint64_t(1) << 16;

std::atomic<uint64_t> g_graphSerials{0};

} // namespace

Graph::Graph()
    : m_serial(++g_graphSerials)
{
}

size_t Graph::followChanges() const
{
    m_followed = true;
    return m_changeLog.size();
}

size_t refreshNodeIndex(const Node &node)
{
    node.m_graph->restoreOrder();
    return node.m_index.load(std::memory_order_relaxed);
}

void Graph::restoreOrder() const
{
    std::lock_guard<std::mutex> lock(m_ordering);
    if (m_ordered.load(std::memory_order_relaxed))
        return; // another reader did it
    std::vector<std::unique_ptr<Node>> ordered;
    ordered.reserve(m_nodes.size());
    for (Node *n = m_first; n; n = n->m_next) {
        ordered.push_back(std::move(m_nodes[n->m_index.load(std::memory_order_relaxed)]));
        n->m_index.store(ordered.size() - 1, std::memory_order_relaxed);
    }
    m_nodes.swap(ordered);
    m_ordered.store(true, std::memory_order_release);
}

Node *Graph::append(OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    return insertBefore(nullptr, op, std::move(name), std::move(target), std::move(args), std::move(kwargs));
}

Node *Graph::insertBefore(
    Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    std::unique_ptr<Node> node(new Node);
    node->m_name = std::move(name);
    node->m_op = op;
    node->m_target = std::move(target);
    node->m_args = std::move(args);
    node->m_kwargs = std::move(kwargs);
    node->m_graph = this;
    node->m_ordered = &m_ordered;
    Node *raw = node.get();
    m_byName[raw->m_name] = raw;
    // Appending keeps the vector in order; anything else makes it a bag until someone asks for the order.
    if (before)
        m_ordered.store(false, std::memory_order_relaxed);
    raw->m_index.store(m_nodes.size(), std::memory_order_relaxed);
    m_nodes.push_back(std::move(node));
    link(raw, before);
    assignOrder(raw);
    addUses(raw);
    logChange(raw);
    return raw;
}

void Graph::link(Node *node, Node *before)
{
    Node *after = before ? before->m_prev : m_last;
    node->m_prev = after;
    node->m_next = before;
    (after ? after->m_next : m_first) = node;
    (before ? before->m_prev : m_last) = node;
}

void Graph::unlink(Node *node)
{
    (node->m_prev ? node->m_prev->m_next : m_first) = node->m_next;
    (node->m_next ? node->m_next->m_prev : m_last) = node->m_prev;
    node->m_prev = node->m_next = nullptr;
}

void Graph::assignOrder(Node *node)
{
    const uint64_t lo = node->m_prev ? node->m_prev->m_order : 0;
    if (!node->m_next) {
        if (lo <= UINT64_MAX - kOrderGap) {
            node->m_order = lo + kOrderGap;
            return;
        }
    } else if (const uint64_t hi = node->m_next->m_order; hi - lo >= 2) {
        node->m_order = lo + (hi - lo) / 2;
        return;
    }
    relabelAround(node);
}

void Graph::relabelAround(Node *node)
{
    // Spread the keys of a window around `node` evenly, doubling the window until its keys are far enough apart:
    // amortised O(log n) per insertion, as in list-labelling order maintenance.
    Node *first = node, *last = node;
    uint64_t count = 1;
    for (size_t radius = 8;; radius *= 2) {
        for (size_t i = 0; i < radius && first->m_prev; ++i, ++count)
            first = first->m_prev;
        for (size_t i = 0; i < radius && last->m_next; ++i, ++count)
            last = last->m_next;
        const uint64_t lo = first->m_prev ? first->m_prev->m_order : 0;
        const uint64_t hi = last->m_next ? last->m_next->m_order : UINT64_MAX;
        const uint64_t step = (hi - lo) / (count + 1);
        if (step >= kMinRelabelGap || (!first->m_prev && !last->m_next)) {
            uint64_t key = lo;
            for (Node *n = first;; n = n->m_next) {
                key += step;
                n->m_order = key;
                if (n == last)
                    return;
            }
        }
    }
}

void Graph::addUses(Node *node)
{
    for (Node *input : node->inputNodes())
        if (input)
            input->m_users.push_back(node);
}

void Graph::removeUses(Node *node)
{
    for (Node *input : node->inputNodes())
        if (input) {
            auto &u = input->m_users;
            u.erase(std::remove(u.begin(), u.end(), node), u.end());
        }
}

void Graph::setArgs(Node *node, std::vector<Argument> args, Kwargs kwargs)
{
    removeUses(node);
    node->m_args = std::move(args);
    node->m_kwargs = std::move(kwargs);
    addUses(node);
    logChange(node);
}

void Graph::setTarget(Node *node, std::string target)
{
    node->m_target = std::move(target);
    logChange(node);
}

void Graph::setMeta(Node *node, NodeMeta meta)
{
    node->m_meta = std::move(meta);
    logChange(node);
}

bool Graph::erase(Node *node)
{
    if (!node || node->m_graph != this || !node->m_users.empty())
        return false;
    removeUses(node);
    m_byName.erase(node->m_name);
    logChange(node);
    const bool wasLast = node == m_last;
    unlink(node);
    // Swap-remove from the vector: O(1); the order is rebuilt when asked for, unless the last node went.
    const size_t slot = node->m_index.load(std::memory_order_relaxed);
    const size_t back = m_nodes.size() - 1;
    if (slot != back) {
        m_nodes[slot] = std::move(m_nodes[back]);
        m_nodes[slot]->m_index.store(slot, std::memory_order_relaxed);
    }
    m_nodes.pop_back();
    if (!wasLast || slot != back)
        m_ordered.store(false, std::memory_order_relaxed);
    return true;
}

void Graph::replaceAllUses(Node *from, Node *to)
{
    std::vector<Node *> users = from->m_users;
    for (Node *user : users) {
        std::vector<Argument> args = user->m_args;
        Kwargs kwargs = user->m_kwargs;
        auto remap = [&](Node *n) { return n == from ? to : n; };
        for (auto &a : args)
            a.remapNodes(remap);
        for (auto &kv : kwargs)
            kv.second.remapNodes(remap);
        setArgs(user, std::move(args), std::move(kwargs));
    }
}

void Graph::reorder(const std::vector<Node *> &order)
{
    std::unordered_set<const Node *> placed;
    std::vector<Node *> all;
    all.reserve(m_nodes.size());
    for (Node *n : order)
        if (n && n->m_graph == this && placed.insert(n).second)
            all.push_back(n);
    // Anything the caller left out keeps its relative order at the end rather than being dropped.
    for (Node *n = m_first; n; n = n->m_next)
        if (!placed.count(n))
            all.push_back(n);
    m_first = m_last = nullptr;
    for (Node *n : all) {
        const Node *before = n->m_prev;
        link(n, nullptr);
        n->m_order = n->m_prev ? n->m_prev->m_order + kOrderGap : kOrderGap;
        if (n->m_prev != before)
            logChange(n);
    }
    m_ordered.store(false, std::memory_order_relaxed);
    restoreOrder();
    // Users are kept in graph order.
    for (auto &n : m_nodes)
        std::sort(n->m_users.begin(), n->m_users.end(), precedes);
}

bool Graph::reorderRun(const std::vector<Node *> &window)
{
    if (window.empty())
        return true;
    std::unordered_set<const Node *> members(window.begin(), window.end());
    Node *start = nullptr;
    for (Node *n : window) {
        if (!n || n->m_graph != this)
            return false;
        if (!start || precedes(n, start))
            start = n;
    }
    // The run must be exactly the window's nodes, consecutive.
    std::vector<uint64_t> keys; // the run's keys, increasing: handed out again in the new order
    Node *n = start;
    for (size_t i = 0; i < window.size(); ++i, n = n->m_next)
        if (!n || !members.count(n))
            return false;
        else
            keys.push_back(n->m_order);
    if (members.size() != window.size())
        return false;
    Node *before = n; // what follows the run, nullptr at the end
    for (Node *m : window)
        unlink(m);
    for (size_t i = 0; i < window.size(); ++i) {
        link(window[i], before);
        window[i]->m_order = keys[i];
        logChange(window[i]);
    }
    m_ordered.store(false, std::memory_order_relaxed);
    // Users are kept in graph order: re-sort the lists that hold a moved node.
    std::unordered_set<Node *> inputs;
    for (const Node *m : window)
        for (Node *in : m->inputNodes())
            if (inputs.insert(in).second)
                std::sort(in->m_users.begin(), in->m_users.end(), precedes);
    return true;
}

Node *Graph::find(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? nullptr : it->second;
}

Node *Graph::outputNode() const
{
    for (Node *n = m_last; n; n = n->m_prev)
        if (n->m_op == OpKind::Output)
            return n;
    return nullptr;
}

std::vector<Node *> Graph::placeholders() const
{
    std::vector<Node *> out;
    for (Node *n = m_first; n; n = n->m_next)
        if (n->m_op == OpKind::Placeholder)
            out.push_back(n);
    return out;
}

std::string Graph::uniqueName(std::string_view base)
{
    std::string candidate;
    for (char c : base)
        candidate += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    if (candidate.empty())
        candidate = "_unnamed";
    if (std::isdigit((unsigned char)candidate[0]))
        candidate = "_" + candidate;
    if (!find(candidate))
        return candidate;
    // Strip an existing numeric suffix so add_3 grows as add_4, add_5, ...
    std::string stem = candidate;
    auto underscore = stem.rfind('_');
    if (underscore != std::string::npos && underscore + 1 < stem.size()
        && std::all_of(stem.begin() + std::ptrdiff_t(underscore) + 1, stem.end(),
            [](char c) { return std::isdigit((unsigned char)c); }))
        stem = stem.substr(0, underscore);
    int &counter = m_nameCounters[stem];
    while (true) {
        std::string name = stem + "_" + std::to_string(++counter);
        if (!find(name))
            return name;
    }
}

Graph *Graph::addSubgraph(std::string name, std::unique_ptr<Graph> graph, size_t index)
{
    Graph *raw = graph.get();
    m_subgraphByName.emplace(name, raw); // a duplicate name keeps finding the first, as before
    index = std::min(index, m_subgraphs.size());
    m_subgraphs.emplace(m_subgraphs.begin() + std::ptrdiff_t(index), std::move(name), std::move(graph));
    return raw;
}

std::unique_ptr<Graph> Graph::takeSubgraph(std::string_view name, size_t *index)
{
    for (size_t i = 0; i < m_subgraphs.size(); ++i)
        if (m_subgraphs[i].first == name) {
            std::unique_ptr<Graph> g = std::move(m_subgraphs[i].second);
            const std::string key = m_subgraphs[i].first; // `name` may view the erased entry
            m_subgraphByName.erase(key);
            m_subgraphs.erase(m_subgraphs.begin() + std::ptrdiff_t(i));
            for (const auto &other : m_subgraphs)
                if (other.first == key) {
                    m_subgraphByName.emplace(other.first, other.second.get());
                    break;
                }
            if (index)
                *index = i;
            return g;
        }
    return nullptr;
}

Graph *Graph::subgraph(std::string_view name) const
{
    auto it = m_subgraphByName.find(std::string(name));
    return it == m_subgraphByName.end() ? nullptr : it->second;
}

std::unique_ptr<Graph> Graph::clone() const
{
    auto copy = std::make_unique<Graph>();
    std::unordered_map<const Node *, Node *> map;
    map.reserve(m_nodes.size());
    for (const Node *n = m_first; n; n = n->m_next) {
        std::vector<Argument> args = n->m_args;
        Kwargs kwargs = n->m_kwargs;
        auto remap = [&](Node *old) {
            auto it = map.find(old);
            return it == map.end() ? nullptr : it->second;
        };
        for (auto &a : args)
            a.remapNodes(remap);
        for (auto &kv : kwargs)
            kv.second.remapNodes(remap);
        Node *c = copy->append(n->m_op, n->m_name, n->m_target, std::move(args), std::move(kwargs));
        c->m_meta = n->m_meta;
        map[n] = c;
    }
    copy->m_nameCounters = m_nameCounters;
    copy->m_symbolHints = m_symbolHints;
    for (const auto &s : m_subgraphs)
        copy->addSubgraph(s.first, s.second->clone());
    return copy;
}

} // namespace fxs
