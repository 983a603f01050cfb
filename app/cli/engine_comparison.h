#pragma once
// match --compare-engines: the torch host's verdicts against fxscope's sandbox on the same graph and sources.

#include "match/match_report.h"
#include "util/json.h"

#include <string>
#include <vector>

namespace fxs::cli {

// One candidate (pattern, anchor) on which the engines differ: its verdict, its stage or the nodes it matched,
// or a candidate (or a whole pattern) only one engine has. `torch`/`sandbox` say what each engine found.
struct EngineDifference {
    std::string pattern;
    std::string anchor; // empty: the whole pattern is only one engine's
    std::string torch;
    std::string sandbox;

    std::string toString() const;
    Json toJson() const;
};

std::vector<EngineDifference> compareEngines(const MatchReport &torch, const MatchReport &sandbox);

} // namespace fxs::cli
