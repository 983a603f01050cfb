#pragma once
// Everything one matcher run found: for every registered pattern, every candidate anchor and its verdict.
// toJson() is the `match` contract of fxscope-cli (DESIGN.md).

#include "near_miss_hint.h"
#include "verdict.h"

#include <string>
#include <vector>

namespace fxs {

// A graph pass of the pipeline the patterns run in, and what it did to the graph matched (nothing for a pass
// after the patterns: it runs once they are applied).
struct PipelinePass {
    std::string name;
    bool beforePatterns = true;
    std::vector<std::string> removed, added, changed; // changed: args or target
    bool didNothing() const { return removed.empty() && added.empty() && changed.empty(); }
};

struct PatternReport {
    std::string name;
    std::string source;
    std::string api; // "torchair", "inductor" or "fxscope": whose pass the verdicts follow
    std::string pattern; // repr of the generic pattern
    std::string extraCheckSource;
    std::vector<std::string> warnings; // the entry's load warnings (where PyTorch would trace differently, ...)
    std::vector<Verdict> candidates; // in the order tried: anchors last-to-first
    std::vector<NearMissHint> hints; // addNearMissHints (match --hints); empty unless asked for

    size_t acceptedCount() const;
};

struct MatchReport {
    std::vector<PatternReport> patterns;
    std::vector<std::string> warnings; // the registry's file-level load warnings (a _register_ function not called)
    size_t graphNodes = 0;
    size_t anchorsVisited = 0;
    // "inductor": one PatternMatcherPass.apply; "torchair": TorchAir's pipeline around it (pipelineWhy says which
    // registration chose it), whose passes are listed with what they changed.
    std::string pipeline = "inductor";
    std::string pipelineWhy;
    std::vector<PipelinePass> pipelinePasses;
    // Set when an extra_check raised: the sweep stopped at that candidate, as Inductor's pass would.
    std::string stoppedBy;

    const PatternReport *find(std::string_view name) const;
    Json toJson() const;
};

} // namespace fxs
