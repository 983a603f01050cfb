#pragma once
// fxscope-cli info on a recording (python -m fxscope_capture.record): the timeline of passes per rank and compiled
// graph, what each pattern pass tried and replaced, and the fusion matrix across ranks.

#include "ir/graph_file.h"
#include "util/json.h"

namespace fxs::cli {

// withAnchors: every recorded anchor with torch's reason, under its pattern.
void printRecording(const GraphFile &file, bool withAnchors);
Json recordingToJson(const GraphFile &file);

} // namespace fxs::cli
