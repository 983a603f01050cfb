#pragma once
// Reads any supported dump into a GraphFile: sniffs the format from the content and runs its parser.

#include "../ir/graph_file.h"

#include <string>
#include <string_view>

namespace fxs {

// Files above this size are refused with an error rather than read.
inline constexpr size_t kMaxInputBytes = size_t(2) << 30;

Result<GraphFile> loadGraphFile(const std::string &path);
// The same for content already in memory; fileName labels errors.
Result<GraphFile> loadGraphBytes(std::string_view bytes, const std::string &fileName);
// Reads a whole file; errors name the path.
Result<std::string> readFileBytes(const std::string &path);
// The size of the file at `path`, or an error naming it when it is missing or a directory: readFileBytes' first
// check, for a file that is read later (a plugin, a LibTorch input).
Result<size_t> inputFileSize(const std::string &path);
// Writes through a temporary file and a rename, so a crash never leaves a half-written file.
Status writeFileAtomically(const std::string &path, std::string_view bytes);

} // namespace fxs
