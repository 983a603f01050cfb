#include "step_lint.h"

#include "ir/lint.h"

#include <algorithm>
#include <unordered_set>

namespace fxs {

namespace {

bool resolves(const Graph &graph, const Node *n)
{
    return n && n->graph() == &graph && graph.find(n->name()) == n;
}

void checkNode(const Graph &graph, const Node *n, std::vector<std::string> &problems)
{
    // Linked both ways with increasing order keys (Node::index() would renumber the whole graph).
    const Node *prev = Graph::prev(n), *next = Graph::next(n);
    if ((prev ? Graph::next(prev) != n || !Graph::precedes(prev, n) : graph.first() != n)
        || (next ? Graph::prev(next) != n || !Graph::precedes(n, next) : graph.last() != n))
        problems.push_back("node '" + n->name() + "' is out of place in the node order");
    for (const Node *input : n->inputNodes()) {
        if (input->graph() != &graph) {
            problems.push_back("node '" + n->name() + "' uses '" + input->name() + "' of another graph");
            continue;
        }
        if (!resolves(graph, input))
            problems.push_back("node '" + n->name() + "' references a missing node");
        else if (!Graph::precedes(input, n))
            problems.push_back("node '" + n->name() + "' uses '" + input->name() + "' before it is defined");
        const auto &users = input->users();
        size_t listed = size_t(std::count(users.begin(), users.end(), n));
        if (listed == 0)
            problems.push_back("'" + input->name() + "' does not list its user '" + n->name() + "'");
        else if (listed > 1)
            problems.push_back("'" + input->name() + "' lists user '" + n->name() + "' twice");
    }
    std::vector<Node *> inputs;
    for (const Node *user : n->users()) {
        if (!resolves(graph, user)) {
            problems.push_back("'" + n->name() + "' lists a user that is not in the graph");
            continue;
        }
        inputs = user->inputNodes();
        if (std::find(inputs.begin(), inputs.end(), n) == inputs.end())
            problems.push_back("'" + n->name() + "' lists user '" + user->name() + "' that does not use it");
    }
    if (n->op() == OpKind::Output && graph.last() != n)
        problems.push_back("the output node is not the last node");
}

} // namespace

std::vector<std::string> lintEdited(const Graph &graph, const EditRecord &record)
{
    std::vector<std::string> problems;
    std::unordered_set<const Node *> touched, check;
    auto touch = [&](const Node *n) {
        if (!n || !touched.insert(n).second)
            return;
        check.insert(n);
        for (const Node *in : n->inputNodes())
            check.insert(in);
        for (const Node *u : n->users())
            check.insert(u);
    };
    auto touchName = [&](const std::string &name) { touch(graph.find(name)); };
    for (const EditOp &op : record.ops()) {
        switch (op.kind) {
        case EditOp::Kind::Reorder:
            for (const auto &name : op.orderAfter)
                touchName(name);
            break;
        case EditOp::Kind::AddSubgraph:
        case EditOp::Kind::RemoveSubgraph:
            // A nested graph is a snapshot of the step's own size: check it whole.
            if (const Graph *sub = graph.subgraph(op.name))
                for (auto &p : lint(*sub))
                    problems.push_back(op.name + ": " + p);
            break;
        default:
            touchName(op.name);
            // An erased node's inputs lost a user, a rewired node's old inputs too.
            for (const auto &ref : op.args.refs)
                touchName(ref);
            for (const auto &ref : op.argsBefore.refs)
                touchName(ref);
            break;
        }
    }
    // Nodes the record says exist must be found by name, the ones it erased must be gone.
    std::unordered_set<std::string> erased;
    for (const EditOp &op : record.ops())
        if (op.kind == EditOp::Kind::Erase)
            erased.insert(op.name);
        else if (op.kind == EditOp::Kind::Insert)
            erased.erase(op.name);
    for (const auto &name : erased)
        if (graph.find(name))
            problems.push_back("node '" + name + "' was erased but is still found by its name");
    std::vector<const Node *> ordered(check.begin(), check.end());
    std::sort(ordered.begin(), ordered.end(), Graph::precedes);
    for (const Node *n : ordered)
        checkNode(graph, n, problems);
    if (!graph.last() || graph.last()->op() != OpKind::Output)
        problems.push_back("the output node is not the last node");
    return problems;
}

} // namespace fxs
