#include "graph.h"

#include <algorithm>
#include <cctype>

namespace fxs {

Node *Graph::append(OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    return insertAt(m_nodes.size(), op, std::move(name), std::move(target), std::move(args), std::move(kwargs));
}

Node *Graph::insertBefore(
    Node *before, OpKind op, std::string name, std::string target, std::vector<Argument> args, Kwargs kwargs)
{
    size_t index = before ? before->m_index : m_nodes.size();
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
    Node *raw = node.get();
    m_byName[raw->m_name] = raw;
    m_nodes.insert(m_nodes.begin() + std::ptrdiff_t(index), std::move(node));
    if (index + 1 == m_nodes.size())
        raw->m_index = index;
    else
        renumberFrom(index);
    addUses(raw);
    return raw;
}

void Graph::renumberFrom(size_t index)
{
    for (size_t i = index; i < m_nodes.size(); ++i)
        m_nodes[i]->m_index = i;
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
    size_t index = node->m_index;
    m_byName.erase(node->m_name);
    m_nodes.erase(m_nodes.begin() + std::ptrdiff_t(index));
    renumberFrom(index);
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
    renumberFrom(0);
    // Users are kept in graph order.
    for (auto &n : m_nodes)
        std::sort(n->m_users.begin(), n->m_users.end(), [](Node *a, Node *b) { return a->m_index < b->m_index; });
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
    index = std::min(index, m_subgraphs.size());
    m_subgraphs.emplace(m_subgraphs.begin() + std::ptrdiff_t(index), std::move(name), std::move(graph));
    return raw;
}

std::unique_ptr<Graph> Graph::takeSubgraph(std::string_view name, size_t *index)
{
    for (size_t i = 0; i < m_subgraphs.size(); ++i)
        if (m_subgraphs[i].first == name) {
            std::unique_ptr<Graph> g = std::move(m_subgraphs[i].second);
            m_subgraphs.erase(m_subgraphs.begin() + std::ptrdiff_t(i));
            if (index)
                *index = i;
            return g;
        }
    return nullptr;
}

Graph *Graph::subgraph(std::string_view name) const
{
    for (const auto &s : m_subgraphs)
        if (s.first == name)
            return s.second.get();
    return nullptr;
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
