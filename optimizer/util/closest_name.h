#pragma once
// "did you mean 'remove_noop_views'?" for a mistyped name: the known name the user most likely meant.

#include <string>
#include <string_view>
#include <vector>

namespace fxs {

// The name in `known` that `typed` most likely stands for, ignoring case: one that contains it or is contained in
// it (3 characters at least), else the nearest by edit distance when that is at most a third of its length;
// the nearer one wins a tie between several, the first listed a tie between equals. Empty when none is close.
std::string closestName(std::string_view typed, const std::vector<std::string> &known);

// "; did you mean 'NAME'?" for closestName's answer, or "" when there is none: appended to an "unknown" message.
std::string didYouMean(std::string_view typed, const std::vector<std::string> &known);

} // namespace fxs
