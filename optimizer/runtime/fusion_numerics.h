#pragma once
// Is one fusion right: the part of the graph it replaced and its replacement, run on the same inputs (generated
// from meta and seeded, or read from a capture, as `profile` makes them) on the profile device, their outputs
// compared as `profile` compares whole graphs (dtype tolerances, NaN rules). Issue 25's numerics per match.

#include "runtime_library.h"
#include "util/json.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

class Graph;
class PatternRegistry;
class Session;

struct FusionNumerics {
    bool ran = false; // false: the two parts could not be run (why in `detail`)
    bool equal = false;
    double maxAbsDiff = 0; // over the places where both outputs are finite
    std::string detail; // where the outputs differ first (a replaced node's name, the index, both values), or why not run
    size_t inputs = 0, outputs = 0; // of the replaced part
    double ms = 0; // what the check cost, both parts prepared and run
    bool inTorchHost = false; // ran in the torch host: LibTorch could not (an op only the sources' Python defines)
    bool ifAccepted = false; // a candidate its extra_check refused, fused as if the check had accepted

    // "equal (max |Δ| 3.1e-05)", "mul_3 differs first at [0, 2]: the replacement gives 0.5, the replaced nodes
    // 0.25", "not run: ..."
    std::string text() const;
    Json toJson() const;
    bool differs() const { return ran && !equal; }
};

// Runs a fusion's two parts (fxscope JSON graphs reading the same input nodes) on inputs made from meta with `seed`,
// where fxscope's LibTorch cannot: in the torch host, whose Python defines the ops pattern sources register with
// torch.library. Its reply: {"equal", "max_abs_diff", "detail"}.
using PythonNumerics = std::function<Result<Json>(const Json &before, const Json &after, uint64_t seed)>;

// The numerics of one step: `before` and `after` are the graphs around it, `removed` and `added` its nodes.
// `options` chooses the device, seed, inputs file and symbol values; one untimed run of each part. What LibTorch
// cannot run goes through `python` when given (on the CPU, with generated inputs).
FusionNumerics checkFusionNumerics(const Graph &before, const Graph &after, const std::vector<std::string> &removed,
    const std::vector<std::string> &added, const ProfileOptions &options, const PythonNumerics &python = {});

// The numerics of each step of a session up to its revision, in order; a pass step (TorchAir's pipeline) has none.
std::vector<std::optional<FusionNumerics>> sessionNumerics(
    const Session &session, const ProfileOptions &options, const PythonNumerics &python = {});

// Each accepted candidate of a match of `graph`, as the sweep applies it (a session run to the end on a copy; only
// `onlyPattern` when not empty), by (pattern, anchor).
using CandidateNumerics = std::map<std::pair<std::string, std::string>, FusionNumerics>;

// Counts of a CandidateNumerics: the fusions the sweep applies, and apart the refused candidates fused as if accepted.
struct NumericsTally {
    size_t fused = 0, differ = 0; // applied fusions, and those whose outputs differ
    size_t refused = 0, refusedDiffer = 0; // ifAccepted ones
};
NumericsTally tallyNumerics(const CandidateNumerics &numerics);
CandidateNumerics candidateNumerics(const PatternRegistry &registry, const Graph &graph, const std::string &onlyPattern,
    const ProfileOptions &options, const PythonNumerics &python = {});

// A candidate its extra_check refused (a MatchStage::ExtraCheck verdict of `pattern` at `anchor`), fused alone on a
// copy of `graph` as if the check had accepted (the torch host traces the replacement check_fn would then trace),
// and its numerics: does the check keep a wrong fusion out, or a right one? ifAccepted is set.
FusionNumerics refusedCandidateNumerics(const PatternRegistry &registry, const Graph &graph, const std::string &pattern,
    const std::string &anchor, const ProfileOptions &options, const PythonNumerics &python = {});
// refusedCandidateNumerics of every candidate of `report` (a match of `graph`) its extra_check refused.
CandidateNumerics refusedCandidatesNumerics(const struct MatchReport &report, const PatternRegistry &registry,
    const Graph &graph, const ProfileOptions &options, const PythonNumerics &python = {});

} // namespace fxs
