#pragma once
// Matches one pattern at one graph node with the semantics of Inductor's MatchContext/_TargetArgsExpr._match:
// memoised bindings, the _users count rule, schema-normalised kwargs, order-sensitive arg specs, pytree list/tuple
// equivalence and Python-equality literals. Recursion follows the pattern's depth only (patterns are bounded by
// kMaxPatternDepth when they are registered), never the graph's size.

#include "match.h"
#include "patterns/op_schema_table.h"
#include "patterns/pattern_expr.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

inline constexpr int kMaxPatternDepth = 512;

class PatternMatcher {
public:
    explicit PatternMatcher(const OpSchemaTable &schemas = OpSchemaTable::instance()) : m_schemas(schemas) { }

    // PatternExpr.match(node): a fresh context whose outputs are the pattern (or a MultiOutput's outputs).
    // Not for concurrent calls on one instance: it caches pattern reprs (give each thread its own matcher).
    MatchResult match(const PatternExpr &pattern, Node *node) const;

    // repr(120) and repr() of pattern nodes, computed once per matcher: a failure's text names its pattern node,
    // and re-printing the pattern for each of thousands of rejected anchors dominated the matcher's time.
    struct ReprCache {
        // pattern -> (short repr for patternNode, full repr for FailedMatch messages)
        std::unordered_map<const PatternExpr *, std::pair<std::string, std::shared_ptr<const std::string>>> map;
        const std::pair<std::string, std::shared_ptr<const std::string>> &get(const PatternExpr &p);
    };

private:
    const OpSchemaTable &m_schemas;
    mutable ReprCache m_reprs;
};

// Python's == on two literals: 1 == 1.0 == True, [1] != (1,), a node never equals a literal.
bool pythonEquals(const Argument &a, const Argument &b);

// Longest chain of nested sub-patterns, computed without recursion.
int patternDepth(const PatternExpr &pattern);

} // namespace fxs
