#pragma once
// JSON pattern files: register_replacement calls as data, written by the capture backend (search and replace traced
// by real PyTorch) or by hand. Format, version 1:
//
//   {"fxscope_patterns": 1,
//    "patterns": [{
//      "name": "add_rms_norm",                       required, unique in the registry
//      "search":  GRAPH,                             required: a fxscope JSON document ({"fxscope": 1, "graphs":
//      [...]}, "replace": GRAPH,                               first graph used) or a string of any dump form, e.g.
//      readable code "example_inputs": [{"name": "x1", "dtype": "torch.float16", "shape": [1, 1, 2], "device": "npu",
//                          "requires_grad": false}],        optional; one per search placeholder, in order
//      "extra_check": "def extra_check(match): ...",  optional Python source, shown; not evaluated (see issue 4)
//      "scalar_workaround": {"eps": 1e-06},           optional
//      "exclusive_arg_names": ["x"],                  optional
//      "search_fn_pattern": false,                    reserved; hand-built patterns come from the C++ API
//      "prepend": false, "skip_duplicates": false,    optional, as in register_replacement
//      "torchair": true                               optional: TorchAir's stream-label check (default true)
//    }]}
//
// A pattern spec on the command line is a path to such a file, "builtin" (the whole built-in library) or
// "builtin:NAME".

#include "pattern_registry.h"
#include "util/json.h"

#include <string>

namespace fxs {

Status loadPatternFile(const std::string &path, PatternRegistry &registry);
Status loadPatternJson(std::string_view text, const std::string &fileName, PatternRegistry &registry);
// "builtin", "builtin:NAME" or a JSON pattern file.
Status loadPatternSpec(const std::string &spec, PatternRegistry &registry);
// The example_inputs of a pattern export_patterns wrote ([{"name", "val": {"tensor": {...}}, "requires_grad"}]).
std::vector<ExampleInput> exportedExampleInputs(const Json &list);

} // namespace fxs
