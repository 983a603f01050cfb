#pragma once
// A recording of a real torch.compile run (python -m fxscope_capture.record): per rank and compiled graph, the
// passes torch applied in order, and per pattern pass what each pattern tried and torch's reason for each anchor it
// did not replace. The graphs themselves are the GraphFile's; each step names the one it left.

#include <cstdint>
#include <string>
#include <vector>

namespace fxs {

struct RecordedAnchor {
    std::string anchor; // the node the pattern was tried at
    std::string target;
    std::string verdict; // replaced, failed, extra_check, discarded
    std::string reason; // torch's FailedMatch text, the extra_check's result
};

struct RecordedPattern {
    std::string name; // register_replacement's search_fn, or a graph/lowering pattern's handler
    std::string source; // FILE:LINE of that function
    std::string entry; // ReplacementPatternEntry, GraphPatternEntry, LoweringPatternEntry
    int64_t tried = 0, matched = 0, replaced = 0, extraCheckFalse = 0, discarded = 0;
    std::vector<RecordedAnchor> anchors; // the first ones (the counts are exact beyond them)
};

struct RecordedPatternPass {
    std::string identity; // the module attribute holding the PatternMatcherPass, or its pass_name
    std::string createdAt; // FILE:LINE that created it, when seen
    int64_t replaced = 0;
    double seconds = 0;
    // Applied to another graph than the step's: joint_fwd_bwd runs early_patterns on the replacement a training
    // check traces; torch counts those replacements too.
    bool otherGraph = false;
    std::vector<RecordedPattern> patterns;
};

struct RecordedStep {
    int index = 0;
    std::string pass; // the pass's name (GraphTransformObserver's passname, or the pattern pass's)
    std::string kind; // start, pass, between
    std::string error; // the exception the pass raised, if any
    bool changed = false;
    double seconds = 0;
    std::vector<RecordedPatternPass> patternPasses;
    int graph = -1; // the GraphFile graph this step leaves: its own when it changed the graph, else the one before

    int64_t replaced() const;
};

struct RecordedStream {
    int rank = 0;
    std::string name; // "0_0.forward": compile id (frame_recompile) and kind
    std::string kind; // dynamo, joint, forward, backward, inference
    std::vector<RecordedStep> steps;
};

struct Recording {
    std::string folder;
    std::string torchVersion;
    std::string command;
    std::vector<RecordedStream> streams;

    std::vector<int> ranks() const;
};

} // namespace fxs
