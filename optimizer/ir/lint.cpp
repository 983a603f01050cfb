#include "lint.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

void lintOne(const Graph &graph, const std::string &prefix, std::vector<std::string> &problems)
{
    std::unordered_set<std::string> names;
    std::unordered_map<const Node *, size_t> position;
    size_t outputs = 0;
    for (size_t i = 0; i < graph.nodes().size(); ++i) {
        const Node *n = graph.nodes()[i].get();
        position[n] = i;
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
            auto it = position.find(input);
            if (input->graph() != &graph)
                problems.push_back(prefix + "node '" + n->name() + "' uses '" + input->name() + "' of another graph");
            else if (it == position.end())
                problems.push_back(prefix + "node '" + n->name() + "' uses '" + input->name()
                                   + "' before it is defined");
            const auto &users = input->users();
            if (std::find(users.begin(), users.end(), n) == users.end())
                problems.push_back(prefix + "'" + input->name() + "' does not list its user '" + n->name() + "'");
        }
        for (const Node *user : n->users()) {
            auto inputs = user->inputNodes();
            if (std::find(inputs.begin(), inputs.end(), n) == inputs.end())
                problems.push_back(prefix + "'" + n->name() + "' lists user '" + user->name()
                                   + "' that does not use it");
        }
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
