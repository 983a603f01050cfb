#pragma once
// The older functional collectives, c10d_functional.* (torch 2.1-2.3 graphs: (tag, ranks, group_size) instead of a
// group name), which LibTorch no longer defines: each is defined under its old schema and runs the
// _c10d_functional op of today on the group registered as `worldGroup`. Internal to the runtime module.

#include <string>

namespace fxs {

// Once per process; an op some other library already defines keeps its definition.
void registerLegacyCollectives(const std::string &worldGroup);

} // namespace fxs
