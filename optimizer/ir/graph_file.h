#pragma once
// What loading one file gives: one or more named graphs, the format they were read as, and warnings
// about parts that were skipped (a corrupted TORCH_TRACE record, an unreadable payload).

#include "../util/result.h"
#include "graph.h"
#include "recording.h"

#include <memory>
#include <string>
#include <vector>

namespace fxs {

struct NamedGraph {
    std::string name; // "forward", "[0/1] dynamo_output_graph", ...
    std::string kind; // what the dump says the graph is; may be empty
    std::unique_ptr<Graph> graph;
    int line = 0; // where the graph starts in the file
};

struct GraphFile {
    std::string path;
    std::string format; // one of the names in io/format.h
    std::vector<NamedGraph> graphs;
    std::vector<Error> warnings;
    // Set when the file is a recording of a torch.compile run (its graphs are the steps' graphs).
    std::shared_ptr<const Recording> recording;

    // By name, or by decimal index; nullptr when absent.
    const NamedGraph *find(std::string_view nameOrIndex) const;
};

} // namespace fxs
