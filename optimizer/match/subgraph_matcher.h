#pragma once
// torch.fx's SubgraphMatcher (torch/fx/passes/utils/matcher_utils.py) and the matching side of
// subgraph_rewriter.replace_pattern_with_filters, explaining every candidate. Semantics follow the schema-normalising
// version (reference/anchors-matcher.md §2.1): anchors are the pattern output's inputs with one user (or the output
// with matchOutput), placeholders are wildcards unless matchPlaceholder, the mapping is injective, literals compare
// type-strictly unless ignoreLiterals, candidates are tried by backtracking over the anchors, then the filters run
// in PyTorch's order: contained → acyclic → non-overlapping → match filters.
// Unlike PyTorch, nothing recurses: node matching, the anchor backtracking and the cycle check use explicit stacks,
// so a 100k-node graph or a 1000-node chain pattern is fine.

#include "internal_match.h"
#include "patterns/op_schema_table.h"
#include "subgraph_verdict.h"
#include "util/result.h"

#include <memory>
#include <vector>

namespace fxs {

struct SubgraphMatcherOptions {
    bool matchOutput = false;
    bool matchPlaceholder = false;
    bool removeOverlappingMatches = true;
    bool ignoreLiterals = false;
};

struct SubgraphMatchResult {
    std::vector<InternalMatch> matches; // what SubgraphMatcher.match (then the filters) returns, in order
    SubgraphReport report; // every candidate with its verdict
};

class SubgraphMatcher {
public:
    // Checks what PyTorch's constructor checks: a non-empty pattern without dead code, ending in an output.
    static Result<std::unique_ptr<SubgraphMatcher>> create(const Graph &pattern, SubgraphMatcherOptions options = {},
        const OpSchemaTable &schemas = OpSchemaTable::instance());

    // SubgraphMatcher.match(graph), then each match filter as replace_pattern_with_filters applies them. The graph
    // must be in topological order (every loader and rewrite keeps it so). Cancellable through ProgressScope.
    Result<SubgraphMatchResult> match(const Graph &graph, const std::vector<MatchFilter> &filters = {}) const;

    const std::vector<const Node *> &patternAnchors() const { return m_anchors; }

private:
    SubgraphMatcher(const Graph &pattern, SubgraphMatcherOptions options, const OpSchemaTable &schemas);

    const Graph &m_pattern;
    SubgraphMatcherOptions m_options;
    const OpSchemaTable &m_schemas;
    std::vector<const Node *> m_placeholders;
    std::vector<const Node *> m_returning;
    std::vector<const Node *> m_anchors;
    int targetId(const std::string &canonical);

    std::vector<std::string> m_targets; // canonical targets of pattern nodes, by index
    std::vector<int> m_targetIds; // call nodes' target ids, by index (-1 for other ops)
    std::vector<std::string> m_targetKeys; // by target id: the canonical target
    std::vector<std::vector<std::string>> m_targetSpellings; // by target id: raw target texts that canonicalise to it
    friend class SubgraphMatchRun;
};

} // namespace fxs
