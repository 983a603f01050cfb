#include "match_command.h"

#include "command_inputs.h"
#include "command_line.h"
#include "match/graph_level.h"
#include "match/matcher.h"
#include "match/subgraph_matcher.h"
#include "patterns/pattern_file.h"
#include "util/closest_name.h"

#include "patterns/op_schema_table.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <map>

namespace fxs::cli {

namespace {

// Milliseconds since start, less a load of LibTorch's operator schemas that happened meanwhile: that
// happens once per process, on the first op the built-in table lacks, and is not matching work.
double matchMilliseconds(std::chrono::steady_clock::time_point start, double loadBefore)
{
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double load = OpSchemaTable::instance().libTorchLoadMilliseconds() - loadBefore;
    if (load > 0)
        spdlog::info("loaded LibTorch's operator schemas in {:.0f} ms (once per process)", load);
    return ms - load;
}

void printTable(const MatchReport &report, double ms)
{
    for (const auto &w : report.warnings)
        std::printf("warning: %s\n", w.c_str());
    if (!report.warnings.empty())
        std::printf("\n");
    for (const auto &p : report.patterns) {
        std::map<std::string, size_t> byStage;
        for (const auto &c : p.candidates)
            ++byStage[matchStageName(c.stage)];
        std::printf("%s  (%s): %zu candidates, %zu accepted", p.name.c_str(), p.source.c_str(), p.candidates.size(),
            p.acceptedCount());
        for (const auto &kv : byStage)
            if (kv.first != std::string("accepted"))
                std::printf(", %zu %s", kv.second, kv.first.c_str());
        std::printf("\n");
        for (const auto &w : p.warnings)
            std::printf("  warning: %s\n", w.c_str());
        if (p.candidates.empty())
            continue;
        std::printf("  %-24s %-9s %-16s %s\n", "anchor", "verdict", "stage", "reason");
        for (const auto &c : p.candidates) {
            const std::vector<std::string> reasons = c.reasonTexts();
            std::string reason = reasons.empty() ? std::string() : reasons.front();
            std::printf("  %-24s %-9s %-16s %s\n", c.anchor.c_str(), c.accepted ? "ACCEPTED" : "rejected",
                matchStageName(c.stage), reason.c_str());
            for (size_t i = 1; i < reasons.size(); ++i)
                std::printf("  %-24s %-9s %-16s %s\n", "", "", "", reasons[i].c_str());
        }
        std::printf("\n");
    }
    std::fprintf(stderr, "%zu nodes, %zu anchors, matched in %.2f ms\n", report.graphNodes, report.anchorsVisited, ms);
}

// A Dynamo-level graph picked from a file that also holds aten-level ones (a TORCH_TRACE log has the AOT and
// post-grad graphs beside it): which --graph to match instead. Empty when the file has none.
std::string atenGraphsHint(const SelectedGraph &selected)
{
    std::string graphs;
    for (size_t i = 0; i < selected.file.graphs.size(); ++i)
        if (i != selected.index && hasAtenCall(*selected.file.graphs[i].graph))
            graphs += (graphs.empty() ? "" : ", ") + std::string("--graph ") + std::to_string(i) + " ("
                + selected.file.graphs[i].name + ")";
    return graphs.empty() ? std::string() : selected.file.path + " also holds aten-level graphs: " + graphs;
}

// --subgraph: each pattern's search graph through torch.fx's SubgraphMatcher as replace_pattern uses it
// (match_output=False, match_placeholder=False, remove_overlapping_matches=True), same JSON contract.
int runSubgraph(const PatternRegistry &registry, const std::string &only, const NamedGraph &named, bool json)
{
    Json patterns = Json::array();
    double totalMs = 0;
    for (const auto &e : registry.entries()) {
        if ((!only.empty() && e->name != only) || !e->searchGraph)
            continue;
        auto matcher = SubgraphMatcher::create(*e->searchGraph);
        if (!matcher) {
            std::fprintf(stderr, "%s: %s\n", e->name.c_str(), matcher.error().message.c_str());
            return BadInput;
        }
        const auto start = std::chrono::steady_clock::now();
        const double loadBefore = OpSchemaTable::instance().libTorchLoadMilliseconds();
        auto result = matcher.value()->match(*named.graph);
        totalMs += matchMilliseconds(start, loadBefore);
        if (!result) {
            std::fprintf(stderr, "%s\n", result.error().toString().c_str());
            return RuntimeFailure;
        }
        SubgraphReport &report = result->report;
        report.name = e->name;
        report.source = e->source;
        if (json) {
            patterns.push(report.toJson());
            continue;
        }
        std::map<std::string, size_t> byStage;
        for (const auto &c : report.candidates)
            ++byStage[subgraphStageName(c.stage)];
        std::printf("%s  (%s, subgraph): %zu candidates, %zu accepted", report.name.c_str(), report.source.c_str(),
            report.candidates.size(), report.acceptedCount());
        for (const auto &kv : byStage)
            if (kv.first != std::string("accepted"))
                std::printf(", %zu %s", kv.second, kv.first.c_str());
        std::printf("\n");
        for (const auto &c : report.candidates) {
            auto reasons = c.reasons();
            for (size_t i = 0; i < reasons.size(); ++i)
                std::printf("  %-24s %-9s %-10s %s\n", i ? "" : c.anchorText().c_str(),
                    i ? "" : (c.accepted ? "ACCEPTED" : "rejected"), i ? "" : subgraphStageName(c.stage),
                    reasons[i].c_str());
        }
        std::printf("\n");
    }
    if (json) {
        Json warnings = Json::array();
        for (const auto &w : registry.warnings())
            warnings.push(w);
        Json root = Json::object({{"graph", named.name}, {"graph_nodes", named.graph->size()}, {"matcher", "subgraph"},
            {"warnings", std::move(warnings)}, {"patterns", std::move(patterns)}, {"match_ms", totalMs}});
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        std::fprintf(stderr, "%zu nodes, matched in %.2f ms\n", named.graph->size(), totalMs);
    }
    return Success;
}

} // namespace

int runMatch(const std::vector<std::string> &args)
{
    CommandLine cmd;
    const char *usage
        = "usage: fxscope-cli match GRAPH --patterns FILE... [--pattern NAME] [--graph NAME|INDEX] [--subgraph] "
          "[--json]\n"
          "FILE is a Python pattern file (register_replacement), a JSON pattern file, 'builtin' or 'builtin:NAME'; "
          "--subgraph matches each search graph with torch.fx's SubgraphMatcher instead of the Inductor pattern "
          "matcher\n";
    if (auto err = cmd.parse(args, {"--patterns", "--pattern", "--graph"}, {"--json", "--subgraph"});
        err || cmd.positional().empty() || cmd.values("--patterns").empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    // --patterns takes one value; further pattern files may follow the graph as positionals.
    PatternRegistry registry;
    if (!loadPatternSpecs(patternSpecs(cmd), registry))
        return BadInput;
    MatcherOptions options;
    if (auto name = cmd.value("--pattern")) {
        if (!registry.find(*name)) {
            std::string list;
            std::vector<std::string> names;
            for (const auto &e : registry.entries()) {
                list += "\n  " + e->name;
                names.push_back(e->name);
            }
            std::fprintf(stderr, "no pattern '%s'; the patterns are:%s\n", name->c_str(), list.c_str());
            if (const std::string meant = closestName(*name, names); !meant.empty())
                std::fprintf(stderr, "did you mean '%s'?\n", meant.c_str());
            return UsageError;
        }
        options.onlyPattern = *name;
    }
    int exitCode = Success;
    auto selected = loadSelectedGraph(cmd, exitCode);
    if (!selected)
        return exitCode;
    const NamedGraph *named = &selected->named();
    if (cmd.flag("--subgraph"))
        return runSubgraph(registry, options.onlyPattern, *named, cmd.flag("--json"));
    const auto start = std::chrono::steady_clock::now();
    const double loadBefore = OpSchemaTable::instance().libTorchLoadMilliseconds();
    auto report = Matcher(registry).run(*named->graph, options);
    const double ms = matchMilliseconds(start, loadBefore);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().toString().c_str());
        return RuntimeFailure;
    }
    if (!dynamoLevelWarning(*named->graph, registry).empty())
        if (std::string hint = atenGraphsHint(*selected); !hint.empty())
            report->warnings.push_back(std::move(hint));
    if (cmd.flag("--json")) {
        Json root = report->toJson();
        root.set("graph", named->name);
        root.set("match_ms", ms);
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        printTable(report.value(), ms);
    }
    return Success;
}

} // namespace fxs::cli
