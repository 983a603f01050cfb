#pragma once
// One graph of a profile request made ready to run: parsed, its dump positions put back, its operators resolved
// and its inputs made. Runs are added one at a time, so the profiler can interleave the unfused and fused graphs'
// runs and both see the same machine (load, clocks, caches). Internal to the runtime module (torch types inside).

#include "executor.h"
#include "ir/graph_file.h"
#include "node_positions.h"
#include "symbol_values.h"
#include "util/json.h"
#include "util/result.h"

#include <ATen/core/Tensor.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

class GraphRunner {
public:
    struct Setup {
        const std::string *graphText = nullptr; // fxscope JSON
        const Json *positions = nullptr; // nodePositions of the graph in its dump
        std::string dumpPath;
        const SymbolValues *symbols = nullptr;
        c10::Device device = c10::Device(c10::kCPU);
        uint64_t seed = 0;
        bool nodeTimes = true; // false: whole-graph times only, no per-node clock or liveness
    };
    // Inputs generated for this graph are added to `given`, so the next graph (the fused one, the reference run)
    // takes the very same values without generating them again (a LLaMA block's weights took seconds).
    static Result<std::unique_ptr<GraphRunner>> prepare(const Setup &setup, std::map<std::string, at::Tensor> &given);

    // Runs the graph once; a timed run counts in the report, a warm-up does not. `checkpoint` sees the nodes run
    // so far every Executor::kCheckpointNodes and may cancel. A failure (other than a cancel) is kept: failure()
    // and the report then show what ran before the failing node.
    Status run(bool timed, const std::function<bool(size_t)> &checkpoint);

    // A rank's slot for the node running (Executor::setNodeSlot); null outside a multi-rank run.
    void setNodeSlot(std::atomic<int64_t> *slot) { m_executor->setNodeSlot(slot); }

    const Graph &graph() const { return *m_graph; }
    size_t size() const { return m_graph->size(); }
    const std::optional<Error> &failure() const { return m_failure; }
    const std::vector<at::Tensor> &outputs() const { return m_outputs; }
    // DESIGN.md's per-graph profile object (median_ms, min_ms, iterations, nodes, outputs, memory), or after a
    // failure {graph, nodes that ran, failed_node, error}.
    Json report(bool returnOutputs) const;

private:
    GraphRunner() = default;
    Json nodeRows(size_t upTo) const;

    GraphFile m_file;
    const Graph *m_graph = nullptr;
    NodePositions m_positions;
    c10::Device m_device = c10::Device(c10::kCPU);
    uint64_t m_seed = 0;
    bool m_nodeTimes = true;
    std::optional<Executor> m_executor;
    std::unordered_map<std::string, at::Tensor> m_inputs;
    std::vector<std::vector<double>> m_nodeMicros; // per node, one entry per timed run
    std::vector<double> m_totalsMs;
    std::vector<at::Tensor> m_outputs; // of the last run
    int64_t m_peakIntermediateBytes = 0;
    std::optional<int64_t> m_allocatorPeakBytes;
    std::optional<int64_t> m_allocations; // in the last run
    std::optional<Error> m_failure;
    size_t m_failedAt = 0;
};

} // namespace fxs
