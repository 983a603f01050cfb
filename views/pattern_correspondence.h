#pragma once
// Which graph node each node of a pattern's search graph stands for in one candidate: the pattern's returned node is
// the candidate's anchor, and the pairs follow the arguments down from there (as the matcher walks them), with the
// verdict's KeywordArg bindings for the inputs. Qt-free, so the pattern view only draws what this computes.

#include <string>
#include <vector>

namespace fxs {

class Graph;
struct Verdict;

struct PatternPair {
    std::string patternNode; // a node of the search graph
    std::string graphNode; // the graph node (or, for an input bound to a literal, the literal) it stands for
    bool isLiteral = false;
    bool sameTarget = true; // false where the walk reached a graph node with another target
};

struct PatternCorrespondence {
    std::vector<PatternPair> pairs; // the returned node first, then the order the arguments were walked in
    std::string disagreeing; // the search-graph node that stood for the verdict's disagreeing graph node; may be empty

    const PatternPair *find(const std::string &patternNode) const;
};

// `graph` may be nullptr (the graph was replaced since): then only the anchor and the bindings are paired.
PatternCorrespondence correspondPattern(const Graph &search, const Graph *graph, const Verdict &verdict);

} // namespace fxs
