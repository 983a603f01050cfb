#pragma once
// Reads a folder written by `python -m fxscope_capture.record` into a GraphFile whose graphs are the steps' graphs
// (one per pass that changed its graph, named "rank0/0_0.forward/003 pass_pattern_1"), with the Recording beside.

#include "../ir/graph_file.h"

#include <string>

namespace fxs {

// A recording's folder, or the recording.json in it.
bool isRecordingPath(const std::string &path);
Result<GraphFile> loadRecording(const std::string &path);

} // namespace fxs
