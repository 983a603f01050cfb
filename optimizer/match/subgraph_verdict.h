#pragma once
// fxscope's answer for one SubgraphMatcher candidate (one combination of graph nodes tried for the pattern's
// anchors): accepted, or rejected by the stage that decided, with the facts that decided it. Facts are stored
// structured and rendered to sentences only by reasons()/toJson(), so a graph with many near misses costs no text.
// A value type: graph and pattern nodes are named, never pointed to.

#include "ir/argument.h"
#include "util/json.h"

#include <string>
#include <utility>
#include <vector>

namespace fxs {

enum class SubgraphStage {
    Structure, // _match_nodes: op/target, arguments, literals, consistency, injectivity
    Contained, // _is_contained: an internal node is used outside the match
    Cycle, // validate_partition: fusing the match would form a cycle
    Overlap, // _remove_overlapping_matches: an earlier kept match owns a node
    Filter, // a match filter of replace_pattern_with_filters returned false
    Accepted,
};

const char *subgraphStageName(SubgraphStage stage); // "structure", "contained", ...

// Where _match_nodes/_match_literals returned False.
struct StructuralMismatch {
    enum class Kind {
        OpDiffers, // pattern and graph node have different ops
        TargetDiffers, // same op, different target
        AttributeDiffers, // get_attr values of different types
        PatternNodeRebound, // the pattern node was already matched to another graph node
        GraphNodeTaken, // the graph node was already matched to another pattern node (injectivity)
        ArgumentsDiffer, // argument count or kwarg keys differ and no schema normalises them
        SequenceLength, // two lists of different lengths
        LiteralDiffers, // type-strict literal comparison failed
        PlaceholderRebound, // a placeholder already bound to another literal
        NodeVsLiteral, // a pattern compute node meets a literal
        LiteralVsNode, // a pattern literal meets a graph node
    };
    Kind kind = Kind::OpDiffers;
    std::string patternNode; // the pattern node being matched (or whose argument disagreed)
    std::string graphNode; // the graph node it was compared with
    std::string slot; // "args[1]", "kwargs['dim']", "dim" (schema-normalised), "args[1][0]"; empty for nodes
    std::string other; // the node already bound (Rebound/Taken)
    Argument expected; // pattern side value (literal kinds), or the pattern op/target as text
    Argument actual; // graph side value
    std::vector<std::string> path; // graph nodes from the anchor down to graphNode
};

struct SubgraphVerdict {
    std::vector<std::string> anchors; // graph nodes tried for the pattern anchors, in anchor order
    bool accepted = false;
    SubgraphStage stage = SubgraphStage::Structure;
    std::vector<std::string> nodes; // matched compute nodes, pattern order (empty after a structural mismatch)
    std::vector<std::pair<std::string, Argument>>
        bindings; // pattern placeholder -> graph node (NodeRef text) or literal
    StructuralMismatch mismatch; // Structure
    std::vector<std::pair<std::string, std::string>> leaks; // Contained: internal node -> external user
    std::vector<std::string> cyclePath; // Cycle: match node → outside … → match node
    int overlapMatch = -1; // Overlap: index in the kept matches
    std::string overlapAnchor; //   its anchors
    std::vector<std::string> overlapNodes; //   the shared nodes
    bool overlapOwnerFiltered = false; //   that kept match was later rejected by a filter
    std::string filterName, filterReason; // Filter
    int matchIndex = -1; // Accepted: index among the returned matches

    std::string anchorText() const; // anchors joined by ", "
    std::vector<std::string> reasons() const;
    Json toJson() const; // {"anchor", "nodes", "bindings", "accepted", "stage", "reasons", ...}
};

// One SubgraphMatcher run: every candidate in the order tried, plus counts per stage.
struct SubgraphReport {
    std::string name; // the pattern's name
    std::string source; // where the pattern came from
    std::vector<std::string> patternAnchors;
    std::vector<SubgraphVerdict> candidates;
    size_t acceptedCount() const;
    // One entry of the `match` contract's "patterns" list.
    Json toJson() const;
};

} // namespace fxs
