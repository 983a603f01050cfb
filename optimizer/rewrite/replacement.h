#pragma once
// ReplacementPatternEntry.replace_with_graph as Inductor does it: the replacement graph is inlined before the
// earliest matched output, outputs are mapped pairwise (or one output to the whole tuple, rewiring its getitem
// users), matched nodes left without users are erased in reverse post-order, dead replacement nodes are dropped,
// and a stable topological sort follows when the insertion broke the order. Each new node records its provenance
// (pattern, anchor, the nodes it replaced) in meta.extra["fxscope_provenance"].

#include "graph_editor.h"
#include "match/match.h"
#include "patterns/pattern_entry.h"

#include <string>
#include <vector>

namespace fxs {

class PatternMatcher;

struct ReplacementResult {
    std::vector<std::string> removed; // matched nodes erased, in erase order
    std::vector<std::string> added; // replacement nodes that remain, in graph order
};

// Re-derives the Match of `entry` at `anchor` on the current graph as the matcher does (generic stage, the specific
// stage at the first output, the user's extra_check); an error says which stage failed.
Result<Match> matchAt(const PatternEntry &entry, Node *anchor, const PatternMatcher &matcher);

// Applies `match` of `entry` through `editor`. Errors (nothing is left half done only where noted): a replacement
// without a graph, a missing argname binding, an unhandled replacement op (get_attr, call_module), an output-count
// mismatch, a non-getitem use that cannot take the tuple, a cycle.
Result<ReplacementResult> applyReplacement(
    GraphEditor &editor, const PatternEntry &entry, const Match &match, const std::string &anchor);

// True for operator.getitem in any spelling the parsers produce.
bool isGetitem(const Node &node);

} // namespace fxs
