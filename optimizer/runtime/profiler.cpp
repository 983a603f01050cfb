#include "profiler.h"

#include "device_plugins.h"
#include "executor.h"
#include "io/fxscope_json.h"
#include "node_positions.h"
#include "npu_reference_kernels.h"
#include "tensor_inputs.h"
#include "util/progress.h"

#include <ATen/ATen.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

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

// Absolute and relative tolerance for comparing a fused graph's outputs with the unfused ones.
std::pair<double, double> tolerance(c10::ScalarType type)
{
    switch (type) {
    case at::kHalf: return {1e-2, 1e-2};
    case at::kBFloat16: return {5e-2, 5e-2};
    case at::kDouble: return {1e-7, 1e-7};
    case at::kFloat: return {1e-4, 1e-4};
    default: return {0, 0};
    }
}

struct Comparison {
    bool match = true;
    double maxAbsDiff = 0;
    double maxRelDiff = 0; // |a - b| / |b| where |b| is above the dtype's absolute tolerance
    std::string why;
};

Comparison compare(const std::vector<at::Tensor> &a, const std::vector<at::Tensor> &b)
{
    Comparison c;
    if (a.size() != b.size()) {
        c.match = false;
        c.why = std::to_string(a.size()) + " outputs against " + std::to_string(b.size());
        return c;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].sizes() != b[i].sizes()) {
            c.match = false;
            c.why = "output " + std::to_string(i) + " differs in shape";
            continue;
        }
        at::Tensor x = a[i].to(at::kCPU).to(at::kDouble), y = b[i].to(at::kCPU).to(at::kDouble);
        if (x.numel() == 0)
            continue;
        at::Tensor diff = (x - y).abs();
        double maxDiff = diff.max().item<double>();
        if (std::isnan(maxDiff))
            maxDiff = INFINITY;
        c.maxAbsDiff = std::max(c.maxAbsDiff, maxDiff);
        auto [atol, rtol] = tolerance(a[i].scalar_type());
        at::Tensor significant = y.abs() > std::max(atol, 1e-12);
        if (significant.any().item<bool>()) {
            double rel = (diff.masked_select(significant) / y.abs().masked_select(significant)).max().item<double>();
            c.maxRelDiff = std::max(c.maxRelDiff, std::isnan(rel) ? INFINITY : rel);
        }
        bool close = (diff <= atol + rtol * y.abs()).all().item<bool>();
        if (!close) {
            c.match = false;
            c.why = "output " + std::to_string(i) + " differs by up to " + std::to_string(maxDiff);
        }
    }
    return c;
}

// The nodes one fusion added (they share its provenance: pattern, anchor, the nodes it replaced).
struct FusedRegion {
    std::string pattern;
    std::string anchor;
    Json replaced;
    std::vector<std::string> nodes;
};

struct GraphRun {
    Json json;
    std::vector<at::Tensor> outputs;
    std::vector<FusedRegion> regions;
    std::optional<Error> error; // the run failed; json holds what ran before the failing node
};

// The job's progress over its phases (the unfused graph's runs, the fused graph's, the reference run), for the
// caller's callback; false from it cancels.
class JobProgress {
public:
    JobProgress(const std::function<bool(double)> &callback, int phases) : m_callback(callback), m_phases(phases) { }
    // Run `run` of `runs` in the current phase has run `nodes` of its graph's `graphNodes`.
    bool report(int run, int runs, size_t nodes, size_t graphNodes)
    {
        if (!m_callback)
            return true;
        const double inPhase = (run + double(nodes) / double(std::max<size_t>(graphNodes, 1))) / std::max(runs, 1);
        return m_callback(std::min(1.0, (m_phase + inPhase) / m_phases));
    }
    void nextPhase() { ++m_phase; }

private:
    const std::function<bool(double)> &m_callback;
    int m_phases;
    int m_phase = 0;
};

std::vector<FusedRegion> regionsOf(const Graph &graph)
{
    std::vector<FusedRegion> regions;
    std::map<std::string, size_t> byKey;
    for (const auto &node : graph.nodes()) {
        const Json &extra = node->meta().extra;
        const Json *provenance = extra.isObject() ? extra.find("fxscope_provenance") : nullptr;
        if (!provenance || !provenance->isObject() || node->op() != OpKind::CallFunction)
            continue;
        std::string pattern = (*provenance)["pattern"].toString(), anchor = (*provenance)["anchor"].toString();
        auto [it, added] = byKey.emplace(pattern + '\n' + anchor, regions.size());
        if (added)
            regions.push_back({pattern, anchor, (*provenance)["replaced"], {}});
        regions[it->second].nodes.push_back(node->name());
    }
    return regions;
}

// Per fused region: the median time of the unfused nodes it replaced against that of the nodes that replaced them.
// A replaced node missing from the unfused graph was itself added by an earlier fusion; the region is then marked
// incomplete rather than credited with a partial sum.
Json fusedRegions(const Json &unfused, const Json &fused, const std::vector<FusedRegion> &regions)
{
    std::map<std::string, double> unfusedUs, fusedUs;
    for (const Json &n : unfused["nodes"].items())
        unfusedUs[n["name"].toString()] = n["median_us"].toDouble();
    for (const Json &n : fused["nodes"].items())
        fusedUs[n["name"].toString()] = n["median_us"].toDouble();
    Json out = Json::array();
    for (const FusedRegion &r : regions) {
        double before = 0, after = 0;
        bool complete = true;
        for (const Json &name : r.replaced.items()) {
            auto it = unfusedUs.find(name.toString());
            if (it != unfusedUs.end())
                before += it->second;
            else
                complete = false;
        }
        Json nodes = Json::array();
        for (const auto &name : r.nodes) {
            after += fusedUs.count(name) ? fusedUs[name] : 0.0;
            nodes.push(name);
        }
        out.push(Json::object({{"pattern", r.pattern}, {"anchor", r.anchor}, {"replaced", r.replaced},
            {"nodes", std::move(nodes)}, {"unfused_us", before}, {"fused_us", after},
            {"speedup", complete && after > 0 ? before / after : 0.0}, {"complete", complete}}));
    }
    return out;
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

// Inputs generated here are added to `given`, so the fused graph (and the reference run) take the very same values
// without generating them again (a LLaMA block's weights took seconds).
// `positions` (nodePositions) put the dump's lines back on the nodes, so errors read FILE:LINE:COL.
Result<GraphRun> profileOne(const std::string &graphText, const Json &positions, const std::string &dumpPath,
    std::map<std::string, at::Tensor> &given, const SymbolValues &symbols, c10::Device device, int warmup, int iters,
    uint64_t seed, bool returnOutputs, bool nodeTimes, JobProgress &progress)
{
    auto file = parseFxscopeJson(graphText, "request");
    if (!file)
        return file.error();
    if (file->graphs.empty())
        return Error{{}, 0, 0, "the request holds no graph"};
    NodePositions located;
    located.dumpPath = dumpPath;
    located.apply(*file->graphs.front().graph, positions);
    const Graph &graph = *file->graphs.front().graph;
    auto executor = Executor::create(graph, device);
    if (!executor)
        return located.locate(executor.error());
    auto inputs = graphInputs(graph, given, symbols, device, seed);
    if (!inputs)
        return located.locate(inputs.error());
    for (const auto &[name, tensor] : inputs.value())
        given.emplace(name, tensor);
    std::vector<at::Tensor> outputs;
    resetDevicePeak(device);
    std::vector<std::vector<double>> perNode(graph.size());
    std::vector<double> totals;
    int64_t peakIntermediateBytes = 0;
    auto nodeRows = [&](size_t upTo) {
        Json nodes = Json::array();
        for (const auto &node : graph.nodes()) {
            const auto &times = perNode[node->index()];
            if (node->op() == OpKind::CallFunction && node->index() < upTo && !times.empty())
                nodes.push(Json::object({{"name", node->name()}, {"target", node->target()},
                    {"median_us", median(times)}, {"min_us", *std::min_element(times.begin(), times.end())},
                    {"max_us", *std::max_element(times.begin(), times.end())}}));
        }
        return nodes;
    };
    const int runs = warmup + std::max(iters, 1);
    int run = 0;
    executor->setCheckpoint([&](size_t nodes) { return progress.report(run, runs, nodes, graph.size()); });
    for (int i = 0; i < runs; ++i) {
        run = i;
        if (!progress.report(i, runs, 0, graph.size()))
            return canceledError({});
        seedRandom(device, seed);
        std::vector<double> micros;
        Executor::RunStats stats;
        auto start = std::chrono::steady_clock::now();
        // Without node times the run is the executor alone (its overhead is what bench/exec measures).
        auto out = nodeTimes ? executor->run(inputs.value(), &micros, &stats) : executor->run(inputs.value());
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!out && isCanceled(out.error()))
            return out.error();
        if (!out) {
            // What ran before the failing node, with its times in this run, stays in the report.
            perNode.assign(graph.size(), {});
            for (size_t n = 0; n < stats.completed; ++n)
                perNode[n].push_back(micros[n]);
            GraphRun failed;
            failed.error = located.locate(out.error());
            failed.json = Json::object({{"graph", file->graphs.front().name}, {"nodes", nodeRows(stats.completed)},
                {"failed_node", stats.completed < graph.size() ? graph.nodes()[stats.completed]->name() : ""},
                {"error", failed.error->toString()}});
            return failed;
        }
        peakIntermediateBytes = std::max(peakIntermediateBytes, stats.peakIntermediateBytes);
        if (i < warmup)
            continue;
        totals.push_back(ms);
        outputs = std::move(out.value());
        for (size_t n = 0; n < micros.size(); ++n)
            perNode[n].push_back(micros[n]);
    }
    progress.report(runs, runs, 0, graph.size());
    Json nodes = nodeRows(graph.size());
    Json json = Json::object(
        {{"graph", file->graphs.front().name}, {"median_ms", median(totals)}, {"iterations", int64_t(totals.size())},
            {"peak_intermediate_bytes", peakIntermediateBytes}, {"nodes", std::move(nodes)}});
    Json outs = Json::array();
    for (const auto &t : outputs) {
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
    if (auto stats = deviceMemoryStats(device))
        json.set("allocator", Json::object({{"peak_bytes", stats->peakBytes}, {"allocations", stats->allocations}}));
    return GraphRun{std::move(json), std::move(outputs), regionsOf(graph), {}};
}

Json failure(const std::string &text)
{
    return Json::object({{"error", text}});
}

Json canceled()
{
    return Json::object({{"error", "profiling canceled"}, {"canceled", true}});
}

// The error's message after `prefix`, and where in the dump it points ("error_at": file, line, column), so the
// caller rebuilds FILE:LINE:COL: PREFIX MESSAGE.
void setError(Json &root, const std::string &prefix, const Error &error)
{
    if (error.line <= 0) {
        root.set("error", prefix + error.toString());
        return;
    }
    root.set("error", prefix + error.message);
    root.set("error_at",
        Json::object({{"file", error.file}, {"line", int64_t(error.line)}, {"column", int64_t(error.column)}}));
}

} // namespace

Json runProfile(const Json &request, const std::function<bool(double)> &progress)
{
    try {
        if (auto loaded = loadConfiguredDevicePlugins(); !loaded)
            return failure(loaded.error().toString());
        registerNpuReferenceKernels();
        std::string deviceName = request["device"].isString() ? request["device"].toString() : "cpu";
        if (deviceName.rfind("npu", 0) == 0)
            deviceName = "privateuseone" + deviceName.substr(3);
        c10::Device device(deviceName);
        if (!device.is_cpu() && !c10::impl::hasDeviceGuardImpl(device.type()))
            return failure("device " + request["device"].toString() + ": no " + c10::DeviceTypeName(device.type())
                + " backend is registered in this LibTorch; load the device's plugin (torch_npu's libtorch_npu.so "
                  "for an NPU) with --device-plugin or FXSCOPE_DEVICE_PLUGINS");
        int warmup = int(request["warmup"].toInt(1));
        int iters = int(request["iters"].toInt(10));
        uint64_t seed = uint64_t(request["seed"].toInt(0));
        bool returnOutputs = request["return_outputs"].toBool();
        std::map<std::string, at::Tensor> given;
        if (const std::string &path = request["inputs"].toString(); !path.empty()) {
            auto read = readSafetensors(path);
            if (!read)
                return failure(read.error().toString());
            given = std::move(read.value());
        }
        SymbolValues symbols;
        for (const auto &member : request["symbols"].members())
            symbols[member.first] = member.second.toInt();
        bool nodeTimes = !request["node_times"].isBool() || request["node_times"].toBool();
        const std::string &dumpPath = request["source_file"].toString();
        const std::string &referenceName = request["reference_device"].toString();
        JobProgress job(progress, 1 + request["fused"].isString() + !referenceName.empty());
        auto unfused = profileOne(request["unfused"].toString(), request["unfused_positions"], dumpPath, given, symbols,
            device, warmup, iters, seed, returnOutputs, nodeTimes, job);
        if (!unfused && isCanceled(unfused.error()))
            return canceled();
        if (!unfused) {
            Json root = Json::object();
            setError(root, "unfused graph: ", unfused.error());
            return root;
        }
        Json root = Json::object({{"device", device.str()}, {"unfused", unfused->json}});
        if (unfused->error) {
            setError(root, "unfused graph: ", *unfused->error);
            return root;
        }
        if (request["fused"].isString()) {
            job.nextPhase();
            auto fused = profileOne(request["fused"].toString(), request["fused_positions"], dumpPath, given, symbols,
                device, warmup, iters, seed, returnOutputs, nodeTimes, job);
            if (!fused && isCanceled(fused.error()))
                return canceled();
            if (!fused) {
                root.set("fused", Json());
                setError(root, "fused graph: ", fused.error());
                return root;
            }
            if (fused->error) {
                root.set("fused", fused->json);
                setError(root, "fused graph: ", *fused->error);
                return root;
            }
            double a = unfused->json["median_ms"].toDouble(), b = fused->json["median_ms"].toDouble();
            Comparison c = compare(fused->outputs, unfused->outputs);
            root.set("fused", fused->json);
            root.set("speedup", b > 0 ? a / b : 0.0);
            root.set("outputs_match", c.match);
            root.set("max_abs_diff", c.maxAbsDiff);
            root.set("max_rel_diff", c.maxRelDiff);
            root.set("regions", fusedRegions(unfused->json, fused->json, fused->regions));
            if (!c.why.empty())
                root.set("outputs_detail", c.why);
        }
        // The same unfused graph once on a reference device (the CPU), to check the device's results.
        if (const std::string &name = referenceName; !name.empty()) {
            c10::Device reference(name);
            job.nextPhase();
            auto ref = profileOne(request["unfused"].toString(), request["unfused_positions"], dumpPath, given, symbols,
                reference, 0, 1, seed, false, true, job);
            if (!ref && isCanceled(ref.error()))
                return canceled();
            if (!ref || ref->error) {
                Json root = Json::object();
                setError(root, "unfused graph on " + name + ": ", ref ? *ref->error : ref.error());
                return root;
            }
            Comparison c = compare(unfused->outputs, ref->outputs);
            Json check = Json::object({{"device", reference.str()}, {"outputs_match", c.match},
                {"max_abs_diff", c.maxAbsDiff}, {"max_rel_diff", c.maxRelDiff}});
            if (!c.why.empty())
                check.set("outputs_detail", c.why);
            root.set("reference", std::move(check));
        }
        if (const std::string &path = request["expected_outputs"].toString(); !path.empty()) {
            auto read = readSafetensors(path);
            if (!read)
                return failure(read.error().toString());
            std::vector<at::Tensor> expected;
            for (auto &kv : read.value())
                expected.push_back(kv.second);
            // output_0, output_1, ...: map order is that order for fewer than 11 outputs; sort numerically.
            std::vector<std::pair<int64_t, at::Tensor>> numbered;
            for (auto &kv : read.value())
                numbered.emplace_back(
                    kv.first.rfind("output_", 0) == 0 ? std::atoll(kv.first.c_str() + 7) : 0, kv.second);
            std::stable_sort(
                numbered.begin(), numbered.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
            expected.clear();
            for (auto &kv : numbered)
                expected.push_back(kv.second);
            Comparison c = compare(unfused->outputs, expected);
            root.set("expected",
                Json::object(
                    {{"outputs_match", c.match}, {"max_abs_diff", c.maxAbsDiff}, {"max_rel_diff", c.maxRelDiff}}));
        }
        return root;
    } catch (const c10::Error &e) {
        return failure(e.what_without_backtrace());
    } catch (const std::exception &e) {
        return failure(e.what());
    }
}

} // namespace fxs
