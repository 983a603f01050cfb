#pragma once
// Python pattern files as users write them for TorchAir/Inductor, read without running Python: the file runs in
// the sandboxed interpreter, each register_replacement / register_pattern call traces search_fn and replace_fn
// into graphs and registers the pattern, and the file's extra_check is evaluated per candidate with a trace.

#include "patterns/pattern_registry.h"

#include <string>
#include <utility>
#include <vector>

namespace fxs {

Status loadPythonPatternFile(const std::string &path, PatternRegistry &registry);
Status loadPythonPatternSource(std::string source, const std::string &fileName, PatternRegistry &registry);

// An extra_check known by its source text (a JSON pattern file exported by fxscope_capture), evaluated by the same
// interpreter, with the module-level values the check reads given as Python literals.
struct PythonCheckSource {
    std::string source; // the def, dedented
    std::string functionName;
    std::string fileName; // the user's file, for the trace and errors
    int line = 1; // where the def starts there
    std::vector<std::pair<std::string, std::string>> globals; // name -> Python literal
};
Result<ExtraCheck> loadPythonExtraCheck(const PythonCheckSource &check);

} // namespace fxs
