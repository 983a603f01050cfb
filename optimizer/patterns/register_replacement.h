#pragma once
// register_replacement as a C++ API. Python traces search_fn into a graph; here the caller passes that graph
// (from the capture backend, a JSON pattern file, or readable code), and fxToPattern turns it into the generic
// pattern (int/float/list/device/dtype leaves Ignored) and the specific second-stage pattern (real literals),
// exactly as Inductor's fx_to_pattern does with and without ignore_types.

#include "pattern_registry.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

struct FxToPatternOptions {
    bool ignoreTypes = true; // the generic stage's ignore_types
    std::vector<std::string> argnames; // placeholder names; empty = all placeholders
    std::vector<std::pair<std::string, double>> scalarWorkaround; // name -> value, matched by value
    std::vector<std::string> exclusiveArgNames;
    // Integers (>= 2) that equal a dimension of an example input: in the specific pattern they become Ignored,
    // for patterns that cannot be re-traced per match (Inductor's re-trace would put the match's own sizes there).
    std::vector<int64_t> shapeLiterals;
};

// fx_to_pattern over a traced search graph. Errors for call_method/call_module/get_attr nodes (NotImplementedError
// in Inductor), an output that is a bare input, and duplicate scalar_workaround values.
Result<PatternPtr> fxToPattern(const Graph &search, const FxToPatternOptions &options);

struct ReplacementSpec {
    std::string name;
    std::string source = "C++ API";
    std::shared_ptr<const Graph> search; // the traced search_fn
    std::shared_ptr<const Graph> replace; // the traced replace_fn (kept for display and rewriting)
    std::vector<ExampleInput> exampleInputs;
    ExtraCheck extraCheck; // empty: _return_true
    RetraceFn retrace; // re-traces search_fn per match (the Python loader); empty: the search graph's literals
    std::string extraCheckSource;
    bool extraCheckEvaluated = true;
    PatternPtr searchFnPattern; // used for both stages when given
    std::vector<std::string> argnames; // search_fn's parameters, for a searchFnPattern without a search graph
    std::vector<std::string> signature; // search_fn's parameters, each of which check_fn needs bound (Python files)
    std::vector<std::pair<std::string, double>> scalarWorkaround;
    std::vector<std::string> exclusiveArgNames;
    bool torchairStreamCheck = true; // TorchAir's register_replacement wraps the check with it
    PatternApi api = PatternApi::Fxscope;
    bool shapeDerivedLiterals = false; // no re-trace possible (an exported graph): see FxToPatternOptions
    bool prepend = false;
    bool skipDuplicates = false;
    std::vector<std::string> warnings; // load warnings (where PyTorch's tracer would record something else)
};

// register_replacement(search_fn, replace_fn, example_inputs, trace_fn, pass_dicts, extra_check,
// scalar_workaround, exclusive_arg_names, search_fn_pattern, skip_duplicates): builds the entry and adds it.
// A duplicate is skipped (Ok) with skipDuplicates, else an error naming the earlier pattern.
Status registerReplacement(PatternRegistry &registry, ReplacementSpec spec);

} // namespace fxs
