// bench_match GRAPH [--pattern FILE]... [--builtin NAME|all] [--inductor] [--ignore-literals] [--repeat N]
// Loads GRAPH once, then times matching only, N times, and prints one JSON line:
//   {"graph", "nodes", "patterns": [{"name", "matcher", "median_ms", "min_ms", "matches", "candidates"}],
//    "total_median_ms"}; with --inductor the first entry also has "per_pattern": [{"name", "matches",
//   "candidates"}], each registered pattern's accepted matches and tried anchors.
// --pattern FILE: a pattern graph (any dump form, first graph) run through fxs::SubgraphMatcher as
// torch.fx.subgraph_rewriter.replace_pattern does. --builtin NAME: the search graph of a built-in pattern, same
// matcher. --inductor: the whole built-in registry through the Inductor-style fxs::Matcher instead (what
// `fxscope-cli match GRAPH --patterns builtin` runs). bench/match/run.py drives it.

#include "io/loader.h"
#include "match/matcher.h"
#include "match/subgraph_matcher.h"
#include "patterns/builtin_patterns.h"
#include "util/json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

int usage()
{
    std::fprintf(stderr,
        "usage: bench_match GRAPH [--pattern FILE]... [--builtin NAME|all] [--inductor] "
        "[--ignore-literals] [--repeat N]\n");
    return 1;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Times job() `repeat` times in milliseconds.
std::vector<double> timeIt(int repeat, const std::function<void()> &job)
{
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        job();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return ms;
}

} // namespace

int main(int argc, char **argv)
{
    std::string graphPath;
    std::vector<std::string> patternFiles, builtins;
    bool inductor = false, skipJson = false;
    fxs::SubgraphMatcherOptions options;
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--repeat" && i + 1 < argc) {
            char *end = nullptr;
            long n = std::strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 100000)
                return usage();
            repeat = int(n);
        } else if (arg == "--pattern" && i + 1 < argc) {
            patternFiles.push_back(argv[++i]);
        } else if (arg == "--builtin" && i + 1 < argc) {
            builtins.push_back(argv[++i]);
        } else if (arg == "--inductor") {
            inductor = true;
        } else if (arg == "--skip-json") { // profiling the matcher alone
            skipJson = true;
        } else if (arg == "--ignore-literals") {
            options.ignoreLiterals = true;
        } else if (graphPath.empty() && !arg.empty() && arg[0] != '-') {
            graphPath = arg;
        } else {
            return usage();
        }
    }
    if (graphPath.empty())
        return usage();
    auto file = fxs::loadGraphFile(graphPath);
    if (!file || file->graphs.empty()) {
        std::fprintf(stderr, "%s\n", file ? "no graph" : file.error().toString().c_str());
        return 2;
    }
    const fxs::Graph &graph = *file->graphs.front().graph;

    fxs::PatternRegistry registry;
    if (auto st = fxs::registerBuiltinPatterns(registry); !st) {
        std::fprintf(stderr, "%s\n", st.error().toString().c_str());
        return 2;
    }
    fxs::Json patterns = fxs::Json::array();
    double total = 0;
    if (inductor) {
        size_t accepted = 0, candidates = 0;
        fxs::Json perPattern = fxs::Json::array();
        auto ms = timeIt(repeat, [&] {
            auto report = fxs::Matcher(registry).run(graph);
            accepted = candidates = 0;
            for (const auto &p : report->patterns) {
                accepted += p.acceptedCount();
                candidates += p.candidates.size();
            }
        });
        // Per-pattern counts from one more run, outside the timing.
        auto counted = fxs::Matcher(registry).run(graph);
        for (const auto &p : counted->patterns)
            perPattern.push(fxs::Json::object(
                {{"name", p.name}, {"matches", p.acceptedCount()}, {"candidates", p.candidates.size()}}));
        // Serialising the verdicts (what --json adds) is timed apart: the text is rendered there.
        auto report = fxs::Matcher(registry).run(graph);
        auto jsonMs = timeIt(skipJson ? 1 : repeat, [&] { (void)report->toJson().dump(); });
        total = median(ms);
        patterns.push(fxs::Json::object({{"name", "builtin"}, {"matcher", "inductor"}, {"median_ms", median(ms)},
            {"min_ms", *std::min_element(ms.begin(), ms.end())}, {"json_median_ms", median(jsonMs)},
            {"matches", accepted}, {"candidates", candidates}, {"per_pattern", std::move(perPattern)}}));
    }

    // Pattern graphs for the SubgraphMatcher: files, then built-in search graphs.
    std::vector<std::pair<std::string, std::shared_ptr<const fxs::Graph>>> graphs;
    for (const auto &path : patternFiles) {
        auto p = fxs::loadGraphFile(path);
        if (!p || p->graphs.empty()) {
            std::fprintf(stderr, "%s\n", p ? "no graph in pattern file" : p.error().toString().c_str());
            return 2;
        }
        std::string name = path.substr(path.find_last_of('/') + 1);
        graphs.push_back({name, std::shared_ptr<const fxs::Graph>(std::move(p->graphs.front().graph))});
    }
    for (const auto &b : builtins)
        for (const auto &e : registry.entries())
            if ((b == "all" || b == e->name) && e->searchGraph)
                graphs.push_back({e->name, e->searchGraph});
    for (const auto &[name, pattern] : graphs) {
        auto matcher = fxs::SubgraphMatcher::create(*pattern, options);
        if (!matcher) {
            std::fprintf(stderr, "%s: %s\n", name.c_str(), matcher.error().message.c_str());
            return 2;
        }
        size_t matches = 0, candidates = 0;
        auto ms = timeIt(repeat, [&] {
            auto r = matcher.value()->match(graph);
            matches = r->matches.size();
            candidates = r->report.candidates.size();
        });
        total += median(ms);
        patterns.push(fxs::Json::object({{"name", name}, {"matcher", "subgraph"}, {"median_ms", median(ms)},
            {"min_ms", *std::min_element(ms.begin(), ms.end())}, {"matches", matches}, {"candidates", candidates}}));
    }
    fxs::Json out = fxs::Json::object({{"graph", graphPath}, {"nodes", graph.size()}, {"repeat", repeat},
        {"patterns", std::move(patterns)}, {"total_median_ms", total}});
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
