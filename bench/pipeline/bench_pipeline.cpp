// bench_pipeline GRAPH [--repeat N]
// TorchAir's graph passes around its pattern pass (TorchairPipeline: remove_noop_ops, recover_view_inplace,
// optimize_sym_input before, view_to_reshape after) on a fresh copy of GRAPH, N times. Prints one JSON line:
//   {"graph", "nodes", "clone_ms": {median, min, max}, "passes_ms": {...}, "per_pass_ms": {name: median},
//    "changes_before_ms": {...} (the matcher's check whether the passes before the patterns would change the graph,
//    which decides whether it copies it), "changes_before", "changed": {name: nodes the pass touched}}
// The copy is what the matcher makes before running them; it is timed apart. bench/pipeline/run.py compares with
// the same passes in torch on the same graph.

#include "io/loader.h"
#include "rewrite/passes/torchair_pipeline.h"
#include "util/json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

fxs::Json summary(const std::vector<double> &v)
{
    return fxs::Json::object({{"median", median(v)}, {"min", *std::min_element(v.begin(), v.end())},
        {"max", *std::max_element(v.begin(), v.end())}, {"count", v.size()}});
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_pipeline GRAPH [--repeat N]\n");
        return 1;
    }
    int repeat = 11;
    for (int i = 2; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--repeat")
            repeat = std::max(1, std::atoi(argv[++i]));
    auto file = fxs::loadGraphFile(argv[1]);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        return 2;
    }
    const fxs::Graph &graph = *file->graphs.front().graph;
    std::vector<fxs::GraphPass> passes = fxs::TorchairPipeline::before();
    for (const auto &p : fxs::TorchairPipeline::after())
        passes.push_back(p);

    std::vector<double> cloneMs, passesMs, checkMs;
    std::map<std::string, std::vector<double>> perPass;
    std::map<std::string, size_t> changed;
    bool changes = false;
    for (int r = 0; r < repeat; ++r) {
        const auto t = Clock::now();
        changes = fxs::TorchairPipeline::changesBefore(graph);
        checkMs.push_back(msSince(t));
    }
    for (int r = 0; r < repeat; ++r) {
        auto t0 = Clock::now();
        auto copy = graph.clone();
        cloneMs.push_back(msSince(t0));
        const auto started = Clock::now();
        for (const auto &p : passes) {
            fxs::GraphEditor editor(*copy);
            const auto t = Clock::now();
            auto result = p.run(editor);
            perPass[p.name].push_back(msSince(t));
            if (!result) {
                std::fprintf(stderr, "%s: %s\n", p.name, result.error().toString().c_str());
                return 3;
            }
            changed[p.name] = editor.record().size();
        }
        passesMs.push_back(msSince(started));
    }
    fxs::Json per = fxs::Json::object(), touched = fxs::Json::object();
    for (const auto &p : passes) {
        per.set(p.name, median(perPass[p.name]));
        touched.set(p.name, changed[p.name]);
    }
    fxs::Json out = fxs::Json::object({{"graph", std::string(argv[1])}, {"nodes", graph.size()},
        {"clone_ms", summary(cloneMs)}, {"passes_ms", summary(passesMs)}, {"per_pass_ms", std::move(per)},
        {"changes_before_ms", summary(checkMs)}, {"changes_before", changes},
        {"changed", std::move(touched)}});
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
