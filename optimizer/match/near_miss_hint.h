#pragma once
// A verified near-miss hint (issue 25): the changes to a pattern that make it match where it was rejected, each
// with the line of the user's search_fn it concerns, and how many of the pattern's candidates the changed pattern
// then matches, as fxscope's matcher found by re-running it on the changed pattern, and of those how many the
// pattern's own extra_check accepts. A value type, like Verdict.

#include "util/json.h"

#include <string>
#include <vector>

namespace fxs {

struct HintChange {
    std::string kind; // view_reshape, overload, literal, cast, extra_op, remove_op, outside_user, argument
    std::string what; // what to change, in words
    std::string file; // the search_fn line it concerns; empty when the search graph has no source
    int line = 0;
    std::string code;
};

struct NearMissHint {
    std::string stage; // "generic" (the pattern's structure) or "specific" (the literals of the re-trace)
    std::vector<HintChange> changes;
    std::string foundAt; // the candidate anchor whose rejection it answers
    size_t wouldMatch = 0; // candidates the changed pattern matches...
    size_t candidates = 0; // ...of these
    std::vector<std::string> matchedAnchors;
    // Whether the pattern's extra_check ran on those matches, the ones it accepted, and why it refused the first
    // it refused (its last explained line, or what it raised).
    bool checked = false;
    std::vector<std::string> acceptedAnchors;
    std::string refusal;

    // "would accept 3 of 4 candidates (found at mul_7): use reshape where the pattern has view [rms.py:12
    // `x.view(-1, d)`]"; "would match" where no extra_check ran.
    std::string text() const;
    Json toJson() const;
};

} // namespace fxs
