#pragma once
// fxscope's answer for one (pattern, candidate anchor): accepted or rejected, the stage that decided, the
// disagreement that decided it and the reasons in words. A value type: it names graph nodes by name, so it
// crosses threads and outlives the graph it was computed on.

#include "match.h"
#include "util/json.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

enum class MatchStage {
    Generic, // stage 1: structure of the generic pattern (Ignored literals)
    MutationStream, // PatternMatcherPass.apply filters: mutation barrier, stream boundary; TorchAir's stream label
    Retrace, // register_replacement's re-trace with the matched values (inputs, requires_grad)
    Specific, // stage 2: the specific pattern with the real literals
    ExtraCheck, // the user's extra_check
    Overlap, // an earlier accepted match already replaced these nodes
    Error, // the user's extra_check raised: Inductor's pass (and the compile) stops there
    Accepted, // every stage passed
};

const char *matchStageName(MatchStage stage); // "generic", "mutation_stream", ...

struct Verdict {
    std::string anchor;
    bool accepted = false;
    MatchStage stage = MatchStage::Generic;
    std::vector<std::string> nodes; // matched graph nodes, post-order
    std::vector<std::pair<std::string, std::string>> bindings; // KeywordArg name -> node name or literal
    std::vector<std::string> reasons; // stage reasons added as they are decided
    std::optional<MatchFailure> failure; // generic/specific failures
    std::vector<std::string> checkTrace; // extra_check's evaluation steps
    std::string overlapWith; // "<pattern> at <anchor>"
    std::vector<std::string> externalUsers;

    // Every reason in words: a generic/specific failure rendered from `failure` (kept structured, so the thousands
    // of anchors rejected at their first node cost no text until shown), then `reasons`.
    std::vector<std::string> reasonTexts() const;
    Json toJson() const;
};

// "code: reason (path: a → b)" for one MatchFailure.
std::string failureReason(const MatchFailure &failure);

} // namespace fxs
