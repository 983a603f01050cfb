#pragma once
// Runs a PatternRegistry over a graph the way one PatternMatcherPass.apply does, on a copy (the caller's graph is
// not changed): anchors are the nodes whose (op, target) is registered when the pass starts, visited last-to-first;
// at each anchor the entries are tried in registration order; a match passes the mutation and stream filters,
// register_replacement's second stage (re-trace, specific literals, TorchAir's stream label, the user's
// extra_check), and is then accepted and replaced at once, so later candidates see the graph Inductor's would.
// Every candidate gets a Verdict; an exception Inductor would not catch ends the run (MatchReport::stoppedBy).

#include "match_report.h"
#include "patterns/op_schema_table.h"
#include "patterns/pattern_registry.h"

#include <string>

namespace fxs {

struct MatcherOptions {
    std::string onlyPattern; // --pattern NAME: report only this entry (all entries still consume nodes)
    bool mutationFilter = true; // PatternMatcherPass.apply's mutation-region check
    bool streamFilter = true; // PM-main's meta["custom"]["stream"] check
};

class Matcher {
public:
    explicit Matcher(const PatternRegistry &registry, const OpSchemaTable &schemas = OpSchemaTable::instance())
        : m_registry(registry), m_schemas(schemas)
    {
    }

    // Iterative over the graph; reports progress and stops with canceledError() when canceled.
    Result<MatchReport> run(const Graph &graph, const MatcherOptions &options = {}) const;

private:
    const PatternRegistry &m_registry;
    const OpSchemaTable &m_schemas;
};

// TorchAir's _check_pattern_stream on the call_function nodes of a match (meta["stream_label"]): false and a
// reason when they mix streams.
bool checkTorchairStream(const std::vector<Node *> &nodes, std::string &reason);

} // namespace fxs
