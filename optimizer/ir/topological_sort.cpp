#include "topological_sort.h"

#include <unordered_map>
#include <unordered_set>

namespace fxs {

std::optional<std::vector<Node *>> stableTopologicalOrder(const std::vector<Node *> &nodes)
{
    // Walk nodes in current order; a node whose inputs are not all placed yet waits, and is placed
    // right after its last missing input gets placed (Kahn's algorithm with the current order as priority,
    // as torch._inductor.pattern_matcher.stable_topological_sort does).
    std::unordered_set<const Node *> unplaced(nodes.begin(), nodes.end());
    std::unordered_map<Node *, size_t> pending; // inputs not yet placed
    std::unordered_map<Node *, std::vector<Node *>> waiting;
    std::vector<Node *> order;
    order.reserve(nodes.size());

    std::vector<Node *> stack;
    for (Node *n : nodes) {
        size_t missing = 0;
        for (Node *in : n->inputNodes())
            if (in && unplaced.count(in)) {
                ++missing;
                waiting[in].push_back(n);
            }
        if (missing) {
            pending[n] = missing;
            continue;
        }
        stack.push_back(n);
        while (!stack.empty()) {
            Node *ready = stack.back();
            stack.pop_back();
            unplaced.erase(ready);
            order.push_back(ready);
            auto it = waiting.find(ready);
            if (it == waiting.end())
                continue;
            // Release waiters in reverse so the stack pops them in their original order.
            auto &ws = it->second;
            for (auto w = ws.rbegin(); w != ws.rend(); ++w)
                if (--pending[*w] == 0)
                    stack.push_back(*w);
            waiting.erase(it);
        }
    }
    if (order.size() != nodes.size())
        return std::nullopt;
    return order;
}

bool stableTopologicalSort(Graph &graph)
{
    std::vector<Node *> nodes;
    nodes.reserve(graph.size());
    for (const auto &owned : graph.nodes())
        nodes.push_back(owned.get());
    auto order = stableTopologicalOrder(nodes);
    if (!order)
        return false;
    graph.reorder(*order);
    return true;
}

} // namespace fxs
