#pragma once
// Where each node of a graph sits in the dump it was read from. The runtime is handed graphs as fxscope JSON,
// which keeps no dump positions, so they travel beside it and are put back: an error in the runtime then points
// at the dump (FILE:LINE:COL) rather than at the JSON text of the request.

#include "util/json.h"
#include "util/result.h"

#include <map>
#include <string>

namespace fxs {

class Graph;

// [line, column] per node, nested graphs after their parent, in the order the fxscope JSON keeps them; the
// column is where the node's name stands on its line (0 where the dump is unreadable or the name is elsewhere).
Json nodePositions(const Graph &graph, const std::string &dumpPath);

class NodePositions {
public:
    // Sets each node's NodeMeta::dumpLine from `positions` (nodePositions of the same graph).
    void apply(Graph &graph, const Json &positions);
    // The error with the dump's path and the column of the node on its line.
    Error locate(Error error) const;

    std::string dumpPath;

private:
    std::map<int, int> m_columnByLine;
};

} // namespace fxs
