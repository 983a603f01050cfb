#pragma once
// Near-miss hints (issue 25, item 2): for a pattern whose candidates were rejected by their structure or their
// re-traced literals, find the smallest change among the usual blockers (a view where the graph reshapes, another
// overload, a cast or a no-op op the graph has and the pattern lacks or the other way round, an intermediate used
// outside the match, an optional argument, a literal) that makes the pattern match there, and keep it only when
// re-running the matcher on the changed pattern matches: the hint says how many candidates it would then match.

#include "match_report.h"
#include "patterns/pattern_registry.h"

namespace fxs {

struct NearMissOptions {
    size_t maxHintsPerPattern = 3;
    size_t maxCandidatesTried = 64; // rejected candidates analysed per pattern, deepest failure first
    size_t maxAnchorsCounted = 2000; // candidates the changed pattern is counted on
};

// Fills PatternReport::hints of every pattern of `report` (a Matcher run over `graph`) that accepted nothing or has
// candidates rejected by their structure; `graph` is the graph as matched (not replaced).
void addNearMissHints(MatchReport &report, const PatternRegistry &registry, const Graph &graph,
    const NearMissOptions &options = {});

} // namespace fxs
