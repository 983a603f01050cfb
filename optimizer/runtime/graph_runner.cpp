#include "graph_runner.h"

#include "device_plugins.h"
#include "io/fxscope_json.h"
#include "npu_reference_kernels.h"
#include "stand_in_kernels.h"
#include "tensor_inputs.h"
#include "util/progress.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>

namespace fxs {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Every run starts from the same random state, so random ops (dropout in training graphs) draw the same numbers in
// every iteration, in the fused graph (where fusion left them in order) and on the reference device: their outputs
// can then be compared. The CPU's generator also serves a device that falls back to the CPU.
void seedRandom(c10::Device device, uint64_t seed)
{
    at::manual_seed(seed); // the CPU's and every CUDA device's
    if (device.is_cpu() || device.is_cuda())
        return;
    try {
        at::Generator generator = at::globalContext().defaultGenerator(device);
        std::lock_guard<std::mutex> lock(generator.mutex());
        generator.set_current_seed(seed);
    } catch (const c10::Error &) {
        // A backend without a default generator: its random ops, if any, are not reproducible.
    }
}

} // namespace

Result<std::unique_ptr<GraphRunner>> GraphRunner::prepare(const Setup &setup, std::map<std::string, at::Tensor> &given)
{
    auto file = parseFxscopeJson(*setup.graphText, "request");
    if (!file)
        return file.error();
    if (file->graphs.empty())
        return Error{{}, 0, 0, "the request holds no graph"};
    std::unique_ptr<GraphRunner> runner(new GraphRunner);
    runner->m_file = std::move(file.value());
    runner->m_graph = runner->m_file.graphs.front().graph.get();
    runner->m_positions.dumpPath = setup.dumpPath;
    runner->m_positions.apply(*runner->m_file.graphs.front().graph, *setup.positions);
    runner->m_device = setup.device;
    runner->m_seed = setup.seed;
    runner->m_nodeTimes = setup.nodeTimes;
    auto executor = Executor::create(*runner->m_graph, setup.device);
    if (!executor)
        return runner->m_positions.locate(executor.error());
    runner->m_executor.emplace(std::move(executor.value()));
    // Symbols the user gave no value take the size the dump recorded for them (torch.export, TORCH_TRACE); the
    // ones without either are named all at once.
    if (auto missing = missingSymbols(*runner->m_graph, *setup.symbols); !missing.empty())
        return Error{setup.dumpPath, 0, 0, noValueMessage(missing)};
    SymbolValues symbols = *setup.symbols;
    for (const auto &[symbol, hint] : runner->m_graph->symbolHints())
        symbols.emplace(symbol, hint);
    auto inputs = graphInputs(*runner->m_graph, given, symbols, setup.device, setup.seed);
    if (!inputs)
        return runner->m_positions.locate(inputs.error());
    runner->m_inputs = std::move(inputs.value());
    for (const auto &[name, tensor] : runner->m_inputs)
        given.emplace(name, tensor);
    runner->m_nodeMicros.resize(runner->m_graph->size());
    return runner;
}

Status GraphRunner::run(bool timed, const std::function<bool(size_t)> &checkpoint)
{
    seedRandom(m_device, m_seed);
    resetDevicePeak(m_device);
    const auto before = deviceMemoryStats(m_device);
    const int64_t allocationsBefore = before ? before->allocations : 0;
    m_executor->setCheckpoint(checkpoint);
    std::vector<double> micros;
    Executor::RunStats stats;
    auto start = std::chrono::steady_clock::now();
    // Without node times the run is the executor alone (its overhead is what bench/exec measures).
    auto out = m_nodeTimes ? m_executor->run(m_inputs, &micros, &stats) : m_executor->run(m_inputs);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!out && isCanceled(out.error()))
        return out.error();
    if (!out) {
        // What ran before the failing node, with its times in this run, stays in the report.
        m_nodeMicros.assign(m_graph->size(), {});
        for (size_t n = 0; n < stats.completed; ++n)
            m_nodeMicros[n].push_back(micros[n]);
        m_failure = m_positions.locate(out.error());
        m_failedAt = stats.completed;
        return *m_failure;
    }
    m_peakIntermediateBytes = std::max(m_peakIntermediateBytes, stats.peakIntermediateBytes);
    if (auto memory = deviceMemoryStats(m_device)) {
        m_allocatorPeakBytes = std::max(m_allocatorPeakBytes.value_or(0), memory->peakBytes);
        m_allocations = memory->allocations - allocationsBefore; // the run's own
    }
    m_outputs = std::move(out.value());
    if (!timed)
        return Ok{};
    m_totalsMs.push_back(ms);
    for (size_t n = 0; n < micros.size(); ++n)
        m_nodeMicros[n].push_back(micros[n]);
    return Ok{};
}

Json GraphRunner::nodeRows(size_t upTo) const
{
    Json nodes = Json::array();
    for (const auto &node : m_graph->nodes()) {
        const auto &times = m_nodeMicros[node->index()];
        if (node->op() != OpKind::CallFunction || node->index() >= upTo || times.empty())
            continue;
        Json row = Json::object({{"name", node->name()}, {"target", node->target()}, {"median_us", median(times)},
            {"min_us", *std::min_element(times.begin(), times.end())},
            {"max_us", *std::max_element(times.begin(), times.end())}});
        if (runsOnReferenceKernel(node->target()))
            row.set("reference_kernel", true); // its time is fxscope's CPU stand-in, not the device's
        if (std::string instead = standInFor(node->target(), m_device); !instead.empty())
            row.set("stand_in", instead); // an op this torch or device lacks ran as `instead`: time not the op's
        nodes.push(std::move(row));
    }
    return nodes;
}

Json GraphRunner::report(bool returnOutputs) const
{
    const std::string &name = m_file.graphs.front().name;
    if (m_failure)
        return Json::object({{"graph", name}, {"nodes", nodeRows(m_failedAt)},
            {"failed_node", m_failedAt < m_graph->size() ? m_graph->nodes()[m_failedAt]->name() : ""},
            {"error", m_failure->toString()}});
    Json json = Json::object({{"graph", name}, {"median_ms", median(m_totalsMs)},
        {"min_ms", m_totalsMs.empty() ? 0.0 : *std::min_element(m_totalsMs.begin(), m_totalsMs.end())},
        {"iterations", int64_t(m_totalsMs.size())}, {"peak_intermediate_bytes", m_peakIntermediateBytes},
        {"nodes", nodeRows(m_graph->size())}});
    Json outs = Json::array();
    for (const auto &t : m_outputs) {
        Json shape = Json::array();
        for (int64_t d : t.sizes())
            shape.push(d);
        Json o = Json::object({{"dtype", std::string(c10::toString(t.scalar_type()))}, {"shape", std::move(shape)}});
        if (returnOutputs) {
            at::Tensor flat = t.to(at::kCPU).to(at::kDouble).contiguous().reshape({-1});
            Json values = Json::array();
            const double *p = flat.data_ptr<double>();
            for (int64_t k = 0; k < flat.numel(); ++k)
                values.push(p[k]);
            o.set("values", std::move(values));
        }
        outs.push(std::move(o));
    }
    json.set("outputs", std::move(outs));
    if (m_allocatorPeakBytes)
        json.set("allocator", Json::object({{"peak_bytes", *m_allocatorPeakBytes}, {"allocations", *m_allocations}}));
    return json;
}

} // namespace fxs
