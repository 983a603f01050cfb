#pragma once
// matcher_utils.InternalMatch: one match of a pattern graph in a larger graph, as SubgraphMatcher returns it and
// as replace_pattern_with_filters hands it to match filters. Holds pointers into both graphs, so it is valid
// only while they live unchanged; verdicts (subgraph_verdict.h) carry names instead.

#include "ir/graph.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

// What a pattern node is bound to: a graph node, or (for a pattern placeholder) a literal argument.
struct SubgraphBinding {
    const Node *node = nullptr;
    Argument literal;
    bool isLiteral() const { return node == nullptr; }
};

struct InternalMatch {
    std::vector<const Node *> anchors; // graph nodes the pattern anchors matched
    std::vector<std::pair<const Node *, SubgraphBinding>> nodesMap; // pattern node -> binding, pattern order
    std::vector<SubgraphBinding> placeholderNodes; // per pattern placeholder, in order
    std::vector<const Node *> returningNodes; // per node the pattern output returns

    // The binding of a pattern node; nullptr when unbound.
    const SubgraphBinding *find(const Node *patternNode) const
    {
        for (const auto &kv : nodesMap)
            if (kv.first == patternNode)
                return &kv.second;
        return nullptr;
    }
    // The matched graph nodes of the pattern's compute nodes (neither placeholder nor output), pattern order.
    std::vector<const Node *> computeNodes() const
    {
        std::vector<const Node *> out;
        for (const auto &kv : nodesMap)
            if (kv.first->op() != OpKind::Placeholder && kv.first->op() != OpKind::Output && kv.second.node)
                out.push_back(kv.second.node);
        return out;
    }
};

// A match filter's answer: Python's bool plus the reason fxscope shows when it is false.
struct FilterVerdict {
    bool ok = true;
    std::string reason;
};

// replace_pattern_with_filters' match_filters: Callable[[InternalMatch, Graph, Graph], bool], named for the report.
struct MatchFilter {
    std::string name;
    std::function<FilterVerdict(const InternalMatch &match, const Graph &original, const Graph &pattern)> fn;
};

} // namespace fxs
