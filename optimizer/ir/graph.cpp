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

} // namespace

size_t refreshNodeIndex(const Node &node)
{
    const Graph &g = *node.m_graph;
    std::lock_guard<std::mutex> lock(g.m_renumbering);
    const size_t size = g.m_nodes.size();
    for (size_t i = g.m_indexedBelow.load(std::memory_order_relaxed); i < size; ++i)
        g.m_nodes[i]->m_index.store(i, std::memory_order_relaxed);
    g.m_indexedBelow.store(size, std::memory_order_release);
    return node.m_index.load(std::memory_order_relaxed);
}

Node *Graph::append(OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    return insertAt(m_nodes.size(), op, std::move(name), std::move(target), std::move(args), std::move(kwargs));
}

Node *Graph::insertBefore(
    Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    size_t index = before ? positionOf(before) : m_nodes.size();
    return insertAt(index, op, std::move(name), std::move(target), std::move(args), std::move(kwargs));
}

Node *Graph::insertAt(
    size_t index, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    std::unique_ptr<Node> node(new Node);
    node->m_name = std::move(name);
    node->m_op = op;
    node->m_target = std::move(target);
    node->m_args = std::move(args);
    node->m_kwargs = std::move(kwargs);
    node->m_graph = this;
    node->m_indexedBelow = &m_indexedBelow;
    Node *raw = node.get();
    m_byName[raw->m_name] = raw;
    const bool appending = index == m_nodes.size();
    m_nodes.insert(m_nodes.begin() + std::ptrdiff_t(index), std::move(node));
    raw->m_index.store(index, std::memory_order_relaxed);
    if (appending && m_indexedBelow.load(std::memory_order_relaxed) == index)
        m_indexedBelow.store(index + 1, std::memory_order_release); // everything stays exact
    else
        markStale(index);
    assignOrder(index);
    addUses(raw);
    return raw;
}

void Graph::markStale(size_t position)
{
    if (position < m_indexedBelow.load(std::memory_order_relaxed))
        m_indexedBelow.store(position, std::memory_order_release);
}

void Graph::assignOrder(size_t position)
{
    Node *n = m_nodes[position].get();
    const uint64_t lo = position ? m_nodes[position - 1]->m_order : 0;
    if (position + 1 == m_nodes.size()) {
        if (lo <= UINT64_MAX - kOrderGap) {
            n->m_order = lo + kOrderGap;
            return;
        }
    } else {
        const uint64_t hi = m_nodes[position + 1]->m_order;
        if (hi - lo >= 2) {
            n->m_order = lo + (hi - lo) / 2;
            return;
        }
    }
    relabelAround(position);
}

void Graph::relabelAround(size_t position)
{
    // Spread the keys of a window around `position` evenly, doubling the window until its keys are far enough
    // apart; amortised O(log n) per insertion, as in list-labelling order maintenance.
    const size_t size = m_nodes.size();
    for (size_t radius = 8;; radius *= 2) {
        size_t first = position > radius ? position - radius : 0;
        size_t last = std::min(size - 1, position + radius);
        uint64_t lo = first ? m_nodes[first - 1]->m_order : 0;
        uint64_t hi = last + 1 < size ? m_nodes[last + 1]->m_order : UINT64_MAX;
        uint64_t count = last - first + 1;
        uint64_t step = (hi - lo) / (count + 1);
        if (step >= kMinRelabelGap || (first == 0 && last + 1 == size)) {
            for (size_t i = first; i <= last; ++i)
                m_nodes[i]->m_order = lo + (i - first + 1) * step;
            return;
        }
    }
}

size_t Graph::positionOf(const Node *node) const
{
    const size_t below = m_indexedBelow.load(std::memory_order_acquire);
    const size_t i = node->m_index.load(std::memory_order_relaxed);
    if (i < below)
        return i;
    // Exact positions hold the smallest keys; the rest are found by key.
    auto it = std::lower_bound(m_nodes.begin() + std::ptrdiff_t(std::min(below, m_nodes.size())), m_nodes.end(),
        node->m_order, [](const std::unique_ptr<Node> &n, uint64_t key) { return n->m_order < key; });
    return size_t(it - m_nodes.begin());
}

Node *Graph::next(const Node *node) const
{
    size_t i = positionOf(node) + 1;
    return i < m_nodes.size() ? m_nodes[i].get() : nullptr;
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
}

bool Graph::erase(Node *node)
{
    if (!node || node->m_graph != this || !node->m_users.empty())
        return false;
    removeUses(node);
    size_t index = positionOf(node);
    m_byName.erase(node->m_name);
    m_nodes.erase(m_nodes.begin() + std::ptrdiff_t(index));
    markStale(index);
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
    std::unordered_map<Node *, std::unique_ptr<Node>> owned;
    for (auto &n : m_nodes)
        owned.emplace(n.get(), std::move(n));
    m_nodes.clear();
    for (Node *n : order) {
        auto it = owned.find(n);
        if (it != owned.end() && it->second) {
            m_nodes.push_back(std::move(it->second));
        }
    }
    // Anything the caller left out keeps its relative order at the end rather than being dropped.
    for (auto &kv : owned)
        if (kv.second)
            m_nodes.push_back(std::move(kv.second));
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        m_nodes[i]->m_index.store(i, std::memory_order_relaxed);
        m_nodes[i]->m_order = (i + 1) * kOrderGap;
    }
    m_indexedBelow.store(m_nodes.size(), std::memory_order_release);
    // Users are kept in graph order.
    for (auto &n : m_nodes)
        std::sort(n->m_users.begin(), n->m_users.end(), precedes);
}

bool Graph::reorderRange(size_t start, const std::vector<Node *> &window)
{
    if (start > m_nodes.size() || window.size() > m_nodes.size() - start)
        return false;
    std::unordered_map<const Node *, size_t> slot; // where each node of the range is now
    for (size_t i = 0; i < window.size(); ++i)
        slot.emplace(m_nodes[start + i].get(), start + i);
    for (const Node *n : window)
        if (!slot.count(n))
            return false;
    if (slot.size() != window.size())
        return false;
    std::vector<uint64_t> keys; // the range's keys, increasing: handed out again in the new order
    std::vector<std::unique_ptr<Node>> owned;
    for (size_t i = 0; i < window.size(); ++i) {
        keys.push_back(m_nodes[start + i]->m_order);
        owned.push_back(std::move(m_nodes[start + i]));
    }
    for (size_t i = 0; i < window.size(); ++i) {
        m_nodes[start + i] = std::move(owned[slot.at(window[i]) - start]);
        m_nodes[start + i]->m_order = keys[i];
    }
    markStale(start);
    // Users are kept in graph order: re-sort the lists that hold a moved node.
    std::unordered_set<Node *> inputs;
    for (const Node *n : window)
        for (Node *in : n->inputNodes())
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
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
        if ((*it)->m_op == OpKind::Output)
            return it->get();
    return nullptr;
}

std::vector<Node *> Graph::placeholders() const
{
    std::vector<Node *> out;
    for (const auto &n : m_nodes)
        if (n->m_op == OpKind::Placeholder)
            out.push_back(n.get());
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
    for (const auto &n : m_nodes) {
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
        map[n.get()] = c;
    }
    copy->m_nameCounters = m_nameCounters;
    for (const auto &s : m_subgraphs)
        copy->addSubgraph(s.first, s.second->clone());
    return copy;
}

} // namespace fxs
