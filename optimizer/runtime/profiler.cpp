#include "profiler.h"

#include "device_plugins.h"
#include "graph_runner.h"
#include "npu_reference_kernels.h"
#include "rank_group.h"
#include "rank_slot.h"
#include "tensor_inputs.h"
#include "util/progress.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <spdlog/spdlog.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <algorithm>
#include <ctime>
#include <thread>
#include <cmath>
#include <cstdio>
#include <set>
#include <optional>

namespace fxs {

namespace {

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
    double maxAbsDiff = 0; // over the places where both values are finite
    double maxRelDiff = 0; // |a - b| / |b| where |b| is above the dtype's absolute tolerance
    std::string why;
    std::string nonFinite; // "output 0: 12 NaN, 1 inf (at the same places in both)", empty when all are finite
};

// "[3, 5]": the index of flat position `flat` in a tensor of these sizes.
std::string indexText(int64_t flat, at::IntArrayRef sizes)
{
    std::vector<int64_t> index(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        index[d] = sizes[d] ? flat % sizes[d] : 0;
        flat = sizes[d] ? flat / sizes[d] : 0;
    }
    std::string out = "[";
    for (size_t d = 0; d < index.size(); ++d)
        out += (d ? ", " : "") + std::to_string(index[d]);
    return out + "]";
}

std::string valueText(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

// Outputs agree as torch.testing.assert_close(equal_nan=True) has it: NaN where the other has NaN, and the same
// infinity, are agreement; finite values agree within the dtype's tolerance. maxAbsDiff covers the finite places;
// a NaN or infinity in one graph only is a difference, reported with the first index where the graphs differ.
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
        at::Tensor x = a[i].to(at::kCPU).to(at::kDouble).reshape({-1});
        at::Tensor y = b[i].to(at::kCPU).to(at::kDouble).reshape({-1});
        if (x.numel() == 0)
            continue;
        const at::Tensor finite = x.isfinite().logical_and(y.isfinite());
        // Non-finite places agree when both are NaN or both are the same infinity.
        const at::Tensor sameNonFinite = x.isnan().logical_and(y.isnan()).logical_or(x.isinf().logical_and(x.eq(y)));
        const int64_t nonFiniteX = x.isfinite().logical_not().sum().item<int64_t>();
        const int64_t nonFiniteY = y.isfinite().logical_not().sum().item<int64_t>();
        at::Tensor diff = (x - y).abs().masked_fill(finite.logical_not(), 0.0);
        c.maxAbsDiff = std::max(c.maxAbsDiff, diff.max().item<double>());
        auto [atol, rtol] = tolerance(a[i].scalar_type());
        at::Tensor significant = finite.logical_and(y.abs() > std::max(atol, 1e-12));
        if (significant.any().item<bool>())
            c.maxRelDiff = std::max(c.maxRelDiff,
                (diff.masked_select(significant) / y.abs().masked_select(significant)).max().item<double>());
        const at::Tensor withinTolerance = diff <= atol + rtol * y.abs().masked_fill(finite.logical_not(), 0.0);
        const at::Tensor agree = finite.logical_and(withinTolerance).logical_or(sameNonFinite);
        if (nonFiniteX || nonFiniteY) {
            const int64_t nan = x.isnan().sum().item<int64_t>(), inf = x.isinf().sum().item<int64_t>();
            std::string counts = "output " + std::to_string(i) + ": " + std::to_string(nan) + " NaN, "
                + std::to_string(inf) + " inf";
            if (nonFiniteX == nonFiniteY && sameNonFinite.sum().item<int64_t>() == nonFiniteX)
                counts += " (at the same places in both)";
            else
                counts += " against " + std::to_string(y.isnan().sum().item<int64_t>()) + " NaN, "
                    + std::to_string(y.isinf().sum().item<int64_t>()) + " inf";
            c.nonFinite += (c.nonFinite.empty() ? "" : "; ") + counts;
        }
        if (!agree.all().item<bool>()) {
            c.match = false;
            const int64_t first = agree.logical_not().nonzero().min().item<int64_t>();
            c.why = "output " + std::to_string(i) + " differs first at " + indexText(first, a[i].sizes()) + ": "
                + valueText(x[first].item<double>()) + " against " + valueText(y[first].item<double>());
        }
    }
    return c;
}

// The nodes one fusion added (they share its provenance: pattern, anchor, the nodes it replaced).
struct FusedRegion {
    std::string pattern;
    std::string anchor;
    Json replaced;
    Json origin; // the unfused graph's nodes it stands for (provenance "origin"; "replaced" in older files)
    std::vector<std::string> nodes;
};

// The job's progress over all its runs (warm-up and timed, of every graph), as a fraction for the caller's
// callback; false from it cancels.
class JobProgress {
public:
    JobProgress(const std::function<bool(double)> &callback, size_t totalNodes)
        : m_callback(callback), m_total(std::max<size_t>(totalNodes, 1))
    {
    }
    // `nodes` of the current run have run.
    bool report(size_t nodes) { return !m_callback || m_callback(std::min(1.0, double(m_done + nodes) / m_total)); }
    void finishRun(size_t nodes) { m_done += nodes; }

private:
    const std::function<bool(double)> &m_callback;
    size_t m_total;
    size_t m_done = 0;
};

// One run of `runner` reported to `progress`; canceled or failed runs return their error.
Status runOnce(GraphRunner &runner, bool timed, JobProgress &progress)
{
    if (!progress.report(0))
        return canceledError({});
    auto ran = runner.run(timed, [&](size_t nodes) { return progress.report(nodes); });
    progress.finishRun(runner.size());
    progress.report(0); // the run has ended (after the last run: the job); a cancel takes effect at the next run
    return ran;
}

std::vector<FusedRegion> regionsOf(const Graph &graph)
{
    std::vector<FusedRegion> regions;
    std::map<std::string, size_t> byKey;
    for (const auto &node : graph.nodes()) {
        const Json &extra = node->meta().extra;
        const Json *provenance = extra.isObject() ? extra.find("fxscope_provenance") : nullptr;
        if (!provenance || !provenance->isObject() || node->op() != OpKind::CallFunction)
            continue;
        // A pattern's replacement, or a pass's step (TorchAir's graph passes): named "pass NAME", without anchor.
        std::string pattern = (*provenance)["pattern"].toString(), anchor = (*provenance)["anchor"].toString();
        if (pattern.empty() && (*provenance)["pass"].isString())
            pattern = "pass " + (*provenance)["pass"].toString();
        auto [it, added] = byKey.emplace(pattern + '\n' + anchor, regions.size());
        if (added)
            regions.push_back({pattern, anchor, (*provenance)["replaced"],
                (*provenance)["origin"].isArray() ? (*provenance)["origin"] : (*provenance)["replaced"], {}});
        regions[it->second].nodes.push_back(node->name());
    }
    return regions;
}

// Per fused region: the median time of the unfused nodes it replaced against that of the nodes that replaced them.
// An origin node missing from the unfused graph (a file fused elsewhere, provenance without "origin") marks the
// region incomplete rather than credited with a partial sum.
Json fusedRegions(const Json &unfused, const Json &fused, const std::vector<FusedRegion> &regions)
{
    std::map<std::string, double> unfusedUs, fusedUs;
    std::set<std::string> onReference; // fused nodes that ran on fxscope's CPU stand-in kernels
    for (const Json &n : unfused["nodes"].items())
        unfusedUs[n["name"].toString()] = n["median_us"].toDouble();
    for (const Json &n : fused["nodes"].items()) {
        fusedUs[n["name"].toString()] = n["median_us"].toDouble();
        if (n["reference_kernel"].toBool())
            onReference.insert(n["name"].toString());
    }
    Json out = Json::array();
    for (const FusedRegion &r : regions) {
        double before = 0, after = 0;
        bool complete = true;
        for (const Json &name : r.origin.items()) {
            auto it = unfusedUs.find(name.toString());
            if (it != unfusedUs.end())
                before += it->second;
            else
                complete = false;
        }
        Json nodes = Json::array();
        bool reference = false;
        for (const auto &name : r.nodes) {
            after += fusedUs.count(name) ? fusedUs[name] : 0.0;
            reference = reference || onReference.count(name);
            nodes.push(name);
        }
        Json region = Json::object({{"pattern", r.pattern}, {"anchor", r.anchor}, {"replaced", r.replaced},
            {"origin", r.origin}, {"nodes", std::move(nodes)}, {"unfused_us", before}, {"fused_us", after},
            {"speedup", complete && after > 0 ? before / after : 0.0}, {"complete", complete}});
        if (reference)
            region.set("reference_kernel", true);
        out.push(std::move(region));
    }
    return out;
}

// LibTorch's device for a name the user gives: npu[:i] is the PrivateUse1 device torch_npu registers.
c10::Device deviceNamed(std::string name)
{
    if (name.rfind("npu", 0) == 0)
        name = "privateuseone" + name.substr(3);
    return c10::Device(name);
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
        // The file first, as everywhere else: "FILE: unfused graph: ...".
        root.set("error", error.file.empty() ? prefix + error.message : error.file + ": " + prefix + error.message);
        return;
    }
    root.set("error", prefix + error.message);
    root.set("error_at",
        Json::object({{"file", error.file}, {"line", int64_t(error.line)}, {"column", int64_t(error.column)}}));
}

// Said when an inputs file names tensors the graph has no input for: they are not used, and the inputs the user meant
// them for are generated instead (make_fx names placeholders x_1 for an argument x).
std::string unmatchedInputs(const Graph &graph, const std::set<std::string> &given, const std::string &path)
{
    std::set<std::string> unmatched = given;
    for (const auto &node : graph.nodes())
        if (node->op() == OpKind::Placeholder || node->op() == OpKind::GetAttr)
            unmatched.erase(node->name());
    if (unmatched.empty())
        return {};
    std::string names;
    size_t listed = 0;
    for (const std::string &name : unmatched)
        if (listed++ < 5)
            names += (names.empty() ? "" : ", ") + name;
    if (unmatched.size() > 5)
        names += ", ...";
    return path + ": " + std::to_string(unmatched.size()) + " of its " + std::to_string(given.size())
        + " tensors name no input of the graph (" + names + "), so they were not used; inputs not given were generated";
}

// Said once when the unfused graph's outputs hold NaN or inf and some of its inputs were generated: random normals
// under a sqrt, log or division are the likely cause, and real inputs the cure.
std::string generatedNonFinite(const GraphRunner &runner, const std::set<std::string> &given)
{
    // Checked on the host, as compare() does: the emulated device's CPU fallback cannot resize a reduction's output.
    // In double: float8 has no isfinite kernel.
    bool nonFinite = false;
    for (const at::Tensor &t : runner.outputs())
        nonFinite = nonFinite
            || (at::isFloatingType(t.scalar_type()) && !t.to(at::kCPU).to(at::kDouble).isfinite().all().item<bool>());
    if (!nonFinite)
        return {};
    size_t inputs = 0, generated = 0;
    const Graph &graph = runner.graph();
    for (const auto &node : graph.nodes())
        if (node->op() == OpKind::Placeholder || (node->op() == OpKind::GetAttr && !graph.subgraph(node->target()))) {
            ++inputs;
            generated += given.count(node->name()) ? 0 : 1;
        }
    if (!generated)
        return {};
    return "the outputs hold NaN or inf with " + std::to_string(generated) + " of " + std::to_string(inputs)
        + " inputs generated from meta (random values under a sqrt, log or division can give them); give real "
          "inputs with --inputs FILE.safetensors (fxscope_capture writes them beside a capture)";
}

int64_t monotonicNs()
{
    timespec now {};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// A rank's report marks when it found its failure, so the launcher tells the first failing rank from peers that only
// lost it (their collectives then fail too).
Json rankFailed(RankSlot *slot, Json report)
{
    if (slot && report["error"].isString())
        slot->failedAtNs.store(monotonicNs());
    return report;
}

// The runs of a profile; `group` and `slot` are set for one rank of a multi-rank run.
Json profile(const Json &request, const std::function<bool(double)> &progress, RankGroup *group, RankSlot *slot)
{
    auto setPhase = [slot](RankPhase phase) {
        if (slot)
            slot->phase.store(int32_t(phase));
    };
    try {
        if (auto loaded = loadConfiguredDevicePlugins(); !loaded)
            return failure(loaded.error().toString());
        registerNpuReferenceKernels();
        c10::Device device = deviceNamed(request["device"].isString() ? request["device"].toString() : "cpu");
        if (!device.is_cpu() && !c10::impl::hasDeviceGuardImpl(device.type()))
            return failure("device " + request["device"].toString() + ": no " + c10::DeviceTypeName(device.type())
                + " backend is registered in this LibTorch"
                + (device.is_cuda() ? std::string(" (it was built without CUDA)")
                                    : std::string("; load the device's plugin (torch_npu's libtorch_npu.so for an NPU) "
                                                  "with --device-plugin or FXSCOPE_DEVICE_PLUGINS")));
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
        std::set<std::string> givenNames; // the user's; prepare() adds the generated ones to `given`
        for (const auto &kv : given)
            givenNames.insert(kv.first);
        SymbolValues symbols;
        for (const auto &member : request["symbols"].members())
            symbols[member.first] = member.second.toInt();
        bool nodeTimes = !request["node_times"].isBool() || request["node_times"].toBool();
        const std::string &dumpPath = request["source_file"].toString();
        const std::string &referenceName = request["reference_device"].toString();
        const std::string &unfusedText = request["unfused"].toString(), &fusedText = request["fused"].toString();
        GraphRunner::Setup setup{
            &unfusedText, &request["unfused_positions"], dumpPath, &symbols, device, seed, nodeTimes};
        auto unfused = GraphRunner::prepare(setup, given);
        if (!unfused) {
            Json root = Json::object();
            setError(root, "unfused graph: ", unfused.error());
            return root;
        }
        if (slot)
            unfused.value()->setNodeSlot(&slot->node);
        std::unique_ptr<GraphRunner> fused;
        std::optional<Error> fusedUnprepared;
        if (request["fused"].isString()) {
            setup.graphText = &fusedText;
            setup.positions = &request["fused_positions"];
            auto prepared = GraphRunner::prepare(setup, given);
            if (prepared)
                fused = std::move(prepared.value());
            else
                fusedUnprepared = prepared.error();
            if (fused && slot)
                fused->setNodeSlot(&slot->node);
        }
        setPhase(RankPhase::Running);
        const int runs = warmup + std::max(iters, 1);
        const size_t referenceNodes = referenceName.empty() ? 0 : unfused.value()->size();
        JobProgress job(progress, runs * (unfused.value()->size() + (fused ? fused->size() : 0)) + referenceNodes);
        // Warm-up, then the timed runs, the two graphs taking turns at going first: both see the same machine
        // (load, clock speed, caches) however it drifts, and neither always runs right after the other.
        for (int i = 0; i < runs && !unfused.value()->failure(); ++i) {
            GraphRunner *order[] = {unfused.value().get(), fused.get()};
            if (i % 2)
                std::swap(order[0], order[1]);
            for (GraphRunner *runner : order) {
                if (!runner || runner->failure())
                    continue;
                if (slot) {
                    slot->graph.store(runner == fused.get() ? 1 : 0);
                    slot->iteration.store(i);
                }
                // The ranks start each run together (a failed barrier is a peer gone: the run below says where).
                if (group) {
                    if (slot)
                        slot->node.store(-2); // at the barrier
                    if (auto met = group->barrier(); !met)
                        spdlog::debug("{}", met.error().toString());
                }
                if (auto ran = runOnce(*runner, i >= warmup, job); !ran && isCanceled(ran.error()))
                    return canceled();
                if (slot)
                    slot->node.store(-1);
            }
        }
        setPhase(RankPhase::Comparing);
        const GraphRunner &before = *unfused.value();
        Json root = Json::object({{"device", device.str()}, {"unfused", before.report(returnOutputs)}});
        if (before.failure()) {
            setError(root, "unfused graph: ", *before.failure());
            return root;
        }
        Json warnings = Json::array();
        if (std::string why = unmatchedInputs(before.graph(), givenNames, request["inputs"].toString()); !why.empty())
            warnings.push(Json(why));
        if (std::string why = generatedNonFinite(before, givenNames); !why.empty())
            warnings.push(Json(why));
        if (warnings.size())
            root.set("warnings", std::move(warnings));
        if (fusedUnprepared) {
            root.set("fused", Json());
            setError(root, "fused graph: ", *fusedUnprepared);
            return root;
        }
        if (fused) {
            Json after = fused->report(returnOutputs);
            if (fused->failure()) {
                root.set("fused", after);
                setError(root, "fused graph: ", *fused->failure());
                return root;
            }
            double a = root["unfused"]["median_ms"].toDouble(), b = after["median_ms"].toDouble();
            Comparison c = compare(fused->outputs(), before.outputs());
            root.set("regions", fusedRegions(root["unfused"], after, regionsOf(fused->graph())));
            int64_t onReference = 0;
            for (const Json &n : after["nodes"].items())
                onReference += n["reference_kernel"].toBool() ? 1 : 0;
            if (onReference)
                root.set("reference_kernel_nodes", onReference);
            root.set("fused", std::move(after));
            root.set("speedup", b > 0 ? a / b : 0.0);
            root.set("outputs_match", c.match);
            root.set("max_abs_diff", c.maxAbsDiff);
            root.set("max_rel_diff", c.maxRelDiff);
            if (!c.why.empty())
                root.set("outputs_detail", c.why);
            if (!c.nonFinite.empty())
                root.set("outputs_nonfinite", c.nonFinite);
        }
        // The same unfused graph once on a reference device (the CPU), to check the device's results.
        if (!referenceName.empty()) {
            setup.graphText = &unfusedText;
            setup.positions = &request["unfused_positions"];
            setup.device = deviceNamed(referenceName);
            setup.nodeTimes = true;
            auto ref = GraphRunner::prepare(setup, given);
            if (ref && slot) {
                ref.value()->setNodeSlot(&slot->node);
                slot->graph.store(2);
            }
            Status ran = ref ? runOnce(*ref.value(), true, job) : Status(ref.error());
            if (!ran && isCanceled(ran.error()))
                return canceled();
            if (!ran) {
                Json failed = Json::object();
                setError(failed, "unfused graph on " + referenceName + ": ", ran.error());
                return failed;
            }
            Comparison c = compare(before.outputs(), ref.value()->outputs());
            Json check = Json::object({{"device", setup.device.str()}, {"outputs_match", c.match},
                {"max_abs_diff", c.maxAbsDiff}, {"max_rel_diff", c.maxRelDiff}});
            if (!c.why.empty())
                check.set("outputs_detail", c.why);
            if (!c.nonFinite.empty())
                check.set("outputs_nonfinite", c.nonFinite);
            root.set("reference", std::move(check));
        }
        if (const std::string &path = request["expected_outputs"].toString(); !path.empty()) {
            auto read = readSafetensors(path);
            if (!read)
                return failure(read.error().toString());
            // output_0, output_1, ...: map order is that order for fewer than 11 outputs; sort numerically.
            std::vector<std::pair<int64_t, at::Tensor>> numbered;
            for (auto &kv : read.value())
                numbered.emplace_back(
                    kv.first.rfind("output_", 0) == 0 ? std::atoll(kv.first.c_str() + 7) : 0, kv.second);
            std::stable_sort(
                numbered.begin(), numbered.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
            std::vector<at::Tensor> expected;
            for (auto &kv : numbered)
                expected.push_back(kv.second);
            Comparison c = compare(before.outputs(), expected);
            Json check = Json::object({{"path", path}, {"outputs_match", c.match}, {"max_abs_diff", c.maxAbsDiff},
                {"max_rel_diff", c.maxRelDiff}});
            if (!c.why.empty())
                check.set("outputs_detail", c.why);
            if (!c.nonFinite.empty())
                check.set("outputs_nonfinite", c.nonFinite);
            root.set("expected", std::move(check));
        }
        return root;
    } catch (const c10::Error &e) {
        return failure(e.what_without_backtrace());
    } catch (const std::exception &e) {
        return failure(e.what());
    }
}

} // namespace

Json runProfile(const Json &request, const std::function<bool(double)> &progress)
{
    return profile(request, progress, nullptr, nullptr);
}

Json runRankProfile(const Json &request, RankSlot *slot, const std::function<bool(double)> &progress)
{
    auto setPhase = [slot](RankPhase phase) {
        if (slot)
            slot->phase.store(int32_t(phase));
    };
    try {
        if (auto loaded = loadConfiguredDevicePlugins(); !loaded)
            return rankFailed(slot, failure(loaded.error().toString()));
        registerNpuReferenceKernels();
        const Json &r = request["rank"];
        RankGroup::Setup setup;
        setup.rank = int(r["rank"].toInt());
        setup.worldSize = int(r["world_size"].toInt(1));
        setup.host = r["host"].isString() ? r["host"].toString() : "127.0.0.1";
        setup.port = int(r["port"].toInt());
        setup.listenFd = int(r["listen_fd"].toInt(-1));
        setup.timeout = std::chrono::milliseconds(r["timeout_ms"].toInt(60000));
        setup.device = deviceNamed(request["device"].isString() ? request["device"].toString() : "cpu");
        for (const Json &name : r["group_names"].items())
            setup.groupNames.push_back(name.toString());
        // As torchrun does: ranks sharing the machine share its cores, or their OpenMP threads spin against each
        // other (a 32x64x128 mm took 13 ms instead of 30 µs on 2 ranks of 2 cores).
        if (!std::getenv("OMP_NUM_THREADS"))
            at::set_num_threads(int(std::max(1u, std::thread::hardware_concurrency() / unsigned(setup.worldSize))));
        setPhase(RankPhase::Connecting);
        auto group = RankGroup::create(setup);
        if (!group)
            return rankFailed(slot, failure(group.error().toString()));
        setPhase(RankPhase::Preparing);
        Json report = profile(request, progress, group.value().get(), slot);
        report.set("rank", int64_t(setup.rank));
        report.set("backend", group.value()->backend());
        setPhase(RankPhase::Done);
        return rankFailed(slot, std::move(report));
    } catch (const c10::Error &e) {
        return rankFailed(slot, failure(e.what_without_backtrace()));
    } catch (const std::exception &e) {
        return rankFailed(slot, failure(e.what()));
    }
}

} // namespace fxs
