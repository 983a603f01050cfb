#include "topological_sort.h"

#include <unordered_map>
#include <unordered_set>

namespace fxs {

bool stableTopologicalSort(Graph &graph)
{
    // Walk nodes in current order; a node whose inputs are not all placed yet waits, and is placed
    // right after its last missing input gets placed (Kahn's algorithm with the current order as priority,
    // as torch._inductor.pattern_matcher.stable_topological_sort does).
    const auto &nodes = graph.nodes();
    std::unordered_map<Node *, size_t> pending; // inputs not yet placed
    std::unordered_map<Node *, std::vector<Node *>> waiting;
    std::unordered_set<Node *> placed;
    std::vector<Node *> order;
    order.reserve(nodes.size());

    std::vector<Node *> stack;
    for (const auto &owned : nodes) {
        Node *n = owned.get();
        size_t missing = 0;
        for (Node *in : n->inputNodes())
            if (in && !placed.count(in)) {
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
            placed.insert(ready);
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
        return false;
    graph.reorder(order);
    return true;
}

} // namespace fxs
