#pragma once
// One registered pattern: what PatternEntry / ReplacementPatternEntry hold in Inductor (the generic pattern, the
// second-stage specific pattern, the user's extra_check) plus what fxscope shows about it (name, source, the
// search and replacement graphs, the extra_check's source text).

#include "ir/graph.h"
#include "ir/tensor_meta.h"
#include "match/match.h"
#include "pattern_expr.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

// What an extra_check decided and why: every line of `trace` is one computed step
// ("a_shape[-1] == 7168 → False because a_shape[-1] is 4096").
struct CheckVerdict {
    bool ok = true;
    std::vector<std::string> trace;
    std::string raised; // the exception the check raised (FILE:LINE:COL: Type: message); empty when it returned
};

using ExtraCheck = std::function<CheckVerdict(const Match &match)>;

// register_replacement's check_fn re-traces search_fn with the match's values (tensor inputs as their
// meta["val"], scalar inputs as the matched literals) and matches the resulting specific pattern. A Retrace is
// that pattern for one match, or the error that tracing raised; notes say where a value had to be taken from
// the example inputs instead (a dump without shapes).
struct Retrace {
    PatternPtr pattern;
    std::shared_ptr<const Graph> replace; // replace_fn traced with the same values, where it differs per match
    std::string error; // non-empty: tracing raised what check_fn turns into a rejection (FILE:LINE:COL: Type: message)
    std::string raised; // non-empty: tracing raised what Inductor does not catch (the pass stops)
    std::vector<std::string> notes;
};

using RetraceFn = std::function<Retrace(const Match &match)>;

// One example input of register_replacement: its name in the search graph and the fake tensor's meta.
struct ExampleInput {
    std::string name;
    std::optional<TensorMeta> meta; // none for a scalar
    bool requiresGrad = false;
};

// Whose register_replacement a pattern file called: it decides which pass the pattern joins (TorchAir's runs
// graph passes around the patterns, TorchairPipeline) and is named on the verdicts.
enum class PatternApi { Fxscope, Inductor, Torchair };

inline const char *patternApiName(PatternApi api)
{
    return api == PatternApi::Torchair ? "torchair" : api == PatternApi::Inductor ? "inductor" : "fxscope";
}

struct PatternEntry {
    std::string name;
    PatternApi api = PatternApi::Fxscope; // built-ins, JSON files and the C++ API
    bool torchairBuiltin = false; // one of TorchAir's own built-in patterns (TorchairBuiltins)
    std::string source; // "builtin:rms_norm", "patterns.json:3", "C++ API"
    PatternPtr pattern; // stage 1: the generic pattern the anchors are matched with
    PatternPtr specificPattern; // stage 2 (register_replacement); nullptr for a plain pattern entry
    RetraceFn retrace; // when set, stage 2 re-traces per match (Python files) instead of using specificPattern
    // The re-trace as if the user's extra_check accepted: the replacement torch traces only once the check accepts
    // (the torch host's check_fn), for the numerics of a candidate the check refused. Empty: retrace's replacement
    // does not depend on the check.
    RetraceFn forcedRetrace;
    std::vector<std::string> argnames; // search graph inputs, in order (normalize_args)
    // search_fn's parameters (argnames_static): check_fn raises when a match binds one of them to nothing.
    std::vector<std::string> requiredArgnames;
    std::vector<ExampleInput> exampleInputs;
    ExtraCheck extraCheck; // the user's check, run on the specific match; empty = _return_true
    // The user's check alone, on a match of any pattern (a near-miss hint's changed pattern), where extraCheck is
    // more than it (the torch host's is all of check_fn, re-trace included); empty: extraCheck is the user's check.
    ExtraCheck userCheck;
    std::string extraCheckSource; // shown to the user
    bool extraCheckEvaluated = true; // false when only the source is known (a JSON file's Python check)
    bool torchairStreamCheck = true; // TorchAir's _check_pattern_stream before the user's check
    std::shared_ptr<const Graph> searchGraph;
    std::shared_ptr<const Graph> replaceGraph;
    std::vector<std::string> warnings; // load warnings, e.g. where PyTorch's tracer would decompose differently
};

using PatternEntryPtr = std::shared_ptr<const PatternEntry>;

} // namespace fxs
