#include "lint.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

struct EdgeHash {
    size_t operator()(const std::pair<const Node *, const Node *> &e) const
    {
        return std::hash<const Node *>()(e.first) * 31 + std::hash<const Node *>()(e.second);
    }
};

void lintOne(const Graph &graph, const std::string &prefix, std::vector<std::string> &problems)
{
    std::unordered_set<std::string> names;
    std::unordered_set<const Node *> defined;
    // Every (input, user) edge the arguments imply; users() must list exactly these.
    std::unordered_set<std::pair<const Node *, const Node *>, EdgeHash> edges;
    size_t outputs = 0;
    for (size_t i = 0; i < graph.nodes().size(); ++i) {
        const Node *n = graph.nodes()[i].get();
        if (!names.insert(n->name()).second)
            problems.push_back(prefix + "duplicate node name '" + n->name() + "'");
        if (graph.find(n->name()) != n)
            problems.push_back(prefix + "node '" + n->name() + "' is not found by its name");
        if (n->index() != i)
            problems.push_back(prefix + "node '" + n->name() + "' has a stale index");
        if (n->op() == OpKind::Output)
            ++outputs;
        for (const Node *input : n->inputNodes()) {
            if (!input) {
                problems.push_back(prefix + "node '" + n->name() + "' references a missing node");
                continue;
            }
            if (input->graph() != &graph)
                problems.push_back(prefix + "node '" + n->name() + "' uses '" + input->name() + "' of another graph");
            else if (!defined.count(input))
                problems.push_back(
                    prefix + "node '" + n->name() + "' uses '" + input->name() + "' before it is defined");
            edges.insert({input, n});
        }
        defined.insert(n);
    }
    size_t listed = 0;
    for (const auto &owned : graph.nodes()) {
        const Node *n = owned.get();
        std::unordered_set<const Node *> seen;
        for (const Node *user : n->users()) {
            ++listed;
            if (!seen.insert(user).second)
                problems.push_back(prefix + "'" + n->name() + "' lists user '" + user->name() + "' twice");
            else if (!edges.count({n, user}))
                problems.push_back(
                    prefix + "'" + n->name() + "' lists user '" + user->name() + "' that does not use it");
        }
    }
    if (listed < edges.size())
        for (const auto &e : edges) {
            const auto &users = e.first->users();
            if (std::find(users.begin(), users.end(), e.second) == users.end())
                problems.push_back(
                    prefix + "'" + e.first->name() + "' does not list its user '" + e.second->name() + "'");
        }
    if (outputs != 1)
        problems.push_back(prefix + "graph has " + std::to_string(outputs) + " output nodes, expected 1");
    else if (graph.nodes().back()->op() != OpKind::Output)
        problems.push_back(prefix + "the output node is not the last node");
    for (const auto &sub : graph.subgraphs())
        lintOne(*sub.second, prefix + sub.first + ": ", problems);
}

} // namespace

std::vector<std::string> lint(const Graph &graph)
{
    std::vector<std::string> problems;
    // Nested graphs are few levels deep; recursion here is over nesting, never over node count.
    lintOne(graph, "", problems);
    return problems;
}

} // namespace fxs
