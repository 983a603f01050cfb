// Executor overhead: runs one graph file through fxscope's LibTorch executor (runtime module, CPU, inputs
// generated from meta, symbolic dims from --sym) and prints the median time of a whole-graph run, without per-node
// timing, as JSON. Driven by run.py, which times torch.fx.Interpreter and GraphModule on the same graph.

#include "io/loader.h"
#include "runtime/runtime_library.h"
#include "util/json.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_exec GRAPH [--iters N] [--warmup N] [--sym SYMBOL=N]...\n");
        return 1;
    }
    fxs::ProfileOptions options;
    options.iters = 20;
    options.warmup = 3;
    options.nodeTimes = false;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string flag = argv[i];
        if (flag == "--iters")
            options.iters = std::atoi(argv[i + 1]);
        else if (flag == "--warmup")
            options.warmup = std::atoi(argv[i + 1]);
        else if (flag == "--sym")
            if (auto parsed = fxs::parseSymbolAssignments(argv[i + 1], options.symbols); !parsed) {
                std::fprintf(stderr, "%s\n", parsed.error().message.c_str());
                return 1;
            }
    }
    auto file = fxs::loadGraphFile(argv[1]);
    if (!file || file->graphs.empty()) {
        std::fprintf(stderr, "%s\n", file ? "no graph" : file.error().toString().c_str());
        return 2;
    }
    const fxs::Graph &graph = *file->graphs.front().graph;
    auto report = fxs::runtimeProfile(graph, nullptr, options);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().toString().c_str());
        return 3;
    }
    double ms = report->unfused.medianMs;
    std::printf("%s\n",
        fxs::Json::object(
            {{"nodes", int64_t(graph.size())}, {"median_ms", ms}, {"us_per_node", ms * 1000.0 / double(graph.size())}})
            .dump()
            .c_str());
    return 0;
}
