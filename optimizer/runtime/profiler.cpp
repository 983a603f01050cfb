#include "profiler.h"

#include "executor.h"
#include "io/fxscope_json.h"
#include "npu_reference_kernels.h"
#include "tensor_inputs.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <cmath>

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
        bool close = (diff <= atol + rtol * y.abs()).all().item<bool>();
        if (!close) {
            c.match = false;
            c.why = "output " + std::to_string(i) + " differs by up to " + std::to_string(maxDiff);
        }
    }
    return c;
}

struct GraphRun {
    Json json;
    std::vector<at::Tensor> outputs;
};

Result<GraphRun> profileOne(const std::string &graphText, const std::map<std::string, at::Tensor> &given,
    c10::Device device, int warmup, int iters, uint64_t seed, bool returnOutputs)
{
    auto file = parseFxscopeJson(graphText, "request");
    if (!file)
        return file.error();
    if (file->graphs.empty())
        return Error{{}, 0, 0, "the request holds no graph"};
    const Graph &graph = *file->graphs.front().graph;
    auto executor = Executor::create(graph, device);
    if (!executor)
        return executor.error();
    auto inputs = graphInputs(graph, given, device, seed);
    if (!inputs)
        return inputs.error();
    std::vector<at::Tensor> outputs;
    for (int i = 0; i < warmup; ++i) {
        auto out = executor->run(inputs.value());
        if (!out)
            return out.error();
    }
    std::vector<std::vector<double>> perNode(graph.size());
    std::vector<double> totals;
    for (int i = 0; i < std::max(iters, 1); ++i) {
        std::vector<double> micros;
        auto start = std::chrono::steady_clock::now();
        auto out = executor->run(inputs.value(), &micros);
        totals.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        if (!out)
            return out.error();
        outputs = std::move(out.value());
        for (size_t n = 0; n < micros.size(); ++n)
            perNode[n].push_back(micros[n]);
    }
    Json nodes = Json::array();
    for (const auto &node : graph.nodes())
        if (node->op() == OpKind::CallFunction)
            nodes.push(Json::object(
                {{"name", node->name()}, {"target", node->target()}, {"median_us", median(perNode[node->index()])},
                    {"min_us", *std::min_element(perNode[node->index()].begin(), perNode[node->index()].end())},
                    {"max_us", *std::max_element(perNode[node->index()].begin(), perNode[node->index()].end())}}));
    Json json = Json::object({{"graph", file->graphs.front().name}, {"median_ms", median(totals)},
        {"iterations", int64_t(totals.size())}, {"nodes", std::move(nodes)}});
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
    return GraphRun{std::move(json), std::move(outputs)};
}

Json failure(const std::string &text)
{
    return Json::object({{"error", text}});
}

} // namespace

Json runProfile(const Json &request)
{
    try {
        registerNpuReferenceKernels();
        std::string deviceName = request["device"].isString() ? request["device"].toString() : "cpu";
        if (deviceName.rfind("npu", 0) == 0)
            deviceName = "privateuseone" + deviceName.substr(3);
        c10::Device device(deviceName);
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
        auto unfused = profileOne(request["unfused"].toString(), given, device, warmup, iters, seed, returnOutputs);
        if (!unfused)
            return failure("unfused graph: " + unfused.error().toString());
        Json root = Json::object({{"device", device.str()}, {"unfused", unfused->json}});
        if (request["fused"].isString()) {
            auto fused = profileOne(request["fused"].toString(), given, device, warmup, iters, seed, returnOutputs);
            if (!fused) {
                root.set("fused", Json());
                root.set("error", "fused graph: " + fused.error().toString());
                return root;
            }
            double a = unfused->json["median_ms"].toDouble(), b = fused->json["median_ms"].toDouble();
            Comparison c = compare(fused->outputs, unfused->outputs);
            root.set("fused", fused->json);
            root.set("speedup", b > 0 ? a / b : 0.0);
            root.set("outputs_match", c.match);
            root.set("max_abs_diff", c.maxAbsDiff);
            if (!c.why.empty())
                root.set("outputs_detail", c.why);
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
            root.set("expected", Json::object({{"outputs_match", c.match}, {"max_abs_diff", c.maxAbsDiff}}));
        }
        return root;
    } catch (const c10::Error &e) {
        return failure(e.what_without_backtrace());
    } catch (const std::exception &e) {
        return failure(e.what());
    }
}

} // namespace fxs
