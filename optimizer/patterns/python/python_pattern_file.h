#pragma once
// Python pattern files as users write them for TorchAir/Inductor, read without running Python: the file runs in
// the sandboxed interpreter, each register_replacement / register_pattern call traces search_fn and replace_fn
// into graphs and registers the pattern, and the file's extra_check is evaluated per candidate with a trace.

#include "patterns/pattern_registry.h"

#include <string>

namespace fxs {

Status loadPythonPatternFile(const std::string &path, PatternRegistry &registry);
Status loadPythonPatternSource(std::string source, const std::string &fileName, PatternRegistry &registry);

} // namespace fxs
