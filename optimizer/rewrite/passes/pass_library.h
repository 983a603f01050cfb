#pragma once
// The passes by name, for pipelines given on a command line: "dce", "cse", "remove_noop_views", "remove_detach",
// "scalars_to_tensors", "inline", "patterns" (the context's pattern set), "partition" (propose with the context's
// operator support, then fuse), "replace:A=B" and "insert_after:A=B".

#include "patterns/pattern_registry.h"
#include "rewrite/partitioner.h"
#include "rewrite/pass_manager.h"
#include "rewrite/passes/inline_calls.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

struct PassContext {
    std::shared_ptr<const PatternRegistry> patterns;
    std::shared_ptr<const CompositeLibrary> composites; // what "inline" inlines besides nested graphs
    std::optional<OperatorSupport> support;
    PartitionerOptions partitioner;
};

Result<NamedPass> makePass(const std::string &spec, const PassContext &context);

// One line per pass name, for usage texts.
const std::vector<std::string> &passHelp();

} // namespace fxs
