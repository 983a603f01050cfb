#pragma once
// Inductor's real PatternMatcherPass as a second opinion: the JSON that `python -m fxscope_capture.inductor_check
// GRAPH --no-run --json --patterns F...` prints, compared per candidate with fxscope's verdicts. fxscope-cli match
// --check-with-torch and the GUI's Torch column both use it; running the Python is the caller's business.

#include "util/json.h"

#include <string>
#include <vector>

namespace fxs {

struct MatchReport;

// Compares fxscope's candidates with torch's, pattern by pattern in registration order. root is a
// MatchReport::toJson() (its "patterns" those torch registered too); adds "torch" and "torch_agrees" to each of its
// candidates and returns the disagreements as text.
std::vector<std::string> compareWithTorch(Json &root, const Json &torch);

// What torch says of one candidate.
struct TorchVerdict {
    bool known = false; // false: torch's check says nothing of this candidate (a built-in pattern's)
    bool agrees = false;
    bool fxscopeAccepted = false; // fxscope's verdict with the pattern files alone, as torch registers them
    bool replaced = false;
    std::string stage; // torch's: "replaced", "not_an_anchor", an extra_check's rejection, ...
    std::string reason;
    // "agrees", or "disagrees: <stage>: <reason>" (torch's side); empty when not known
    std::string text() const;
};

struct TorchComparison {
    // Per pattern of the report, per candidate; empty for the patterns torch did not see (built-ins).
    std::vector<std::vector<TorchVerdict>> verdicts;
    std::vector<std::string> disagreements;
    // "PATTERN @ ANCHOR": accepted with the pattern files alone, not in `shown` (a built-in pattern decided first).
    std::vector<std::string> acceptedAloneOnly;
    std::string torchVersion;
};

// The GUI's case: `shown` matched fxscope's built-ins (its first firstPattern patterns) and then the pattern files;
// `alone` matched the pattern files alone, as torch's pass registers them. compareWithTorch compares `alone`; its
// verdicts land on shown's patterns from firstPattern on, candidate by anchor.
TorchComparison compareReportWithTorch(
    const MatchReport &shown, size_t firstPattern, const MatchReport &alone, const Json &torch);

} // namespace fxs
