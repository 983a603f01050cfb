#pragma once
// Everything one matcher run found: for every registered pattern, every candidate anchor and its verdict.
// toJson() is the `match` contract of fxscope-cli (DESIGN.md).

#include "verdict.h"

#include <string>
#include <vector>

namespace fxs {

struct PatternReport {
    std::string name;
    std::string source;
    std::string pattern; // repr of the generic pattern
    std::string extraCheckSource;
    std::vector<std::string> warnings; // the entry's load warnings (where PyTorch would trace differently, ...)
    std::vector<Verdict> candidates; // in the order tried: anchors last-to-first

    size_t acceptedCount() const;
};

struct MatchReport {
    std::vector<PatternReport> patterns;
    std::vector<std::string> warnings; // the registry's file-level load warnings (a _register_ function not called)
    size_t graphNodes = 0;
    size_t anchorsVisited = 0;
    // Set when an extra_check raised: the sweep stopped at that candidate, as Inductor's pass would.
    std::string stoppedBy;

    const PatternReport *find(std::string_view name) const;
    Json toJson() const;
};

} // namespace fxs
