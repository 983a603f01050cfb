#include "match_command.h"

#include "batch_output.h"
#include "batch_runner.h"
#include "command_inputs.h"
#include "command_line.h"
#include "engine_comparison.h"
#include "io/loader.h"
#include "match/graph_level.h"
#include "match/matcher.h"
#include "match/near_miss.h"
#include "match/subgraph_matcher.h"
#include "match/torch_check.h"
#include "patterns/pattern_file.h"
#include "util/closest_name.h"
#include "util/install_layout.h"
#include "rewrite/session.h"
#include "runtime/fusion_numerics.h"
#include "util/text.h"

#include "patterns/op_schema_table.h"

#include <spdlog/spdlog.h>

#include "io/fxscope_json.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

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



void printTable(const MatchReport &report, double ms, const CandidateNumerics *numerics = nullptr)
{
    for (const auto &w : report.warnings)
        std::printf("warning: %s\n", w.c_str());
    if (!report.warnings.empty())
        std::printf("\n");
    if (report.pipeline == "torchair") {
        std::printf("pipeline: TorchAir's, as %s\n", report.pipelineWhy.c_str());
        for (const auto &p : report.pipelinePasses) {
            // A count and the first names: a pass can touch thousands of nodes (--json lists them all).
            auto some = [](const std::vector<std::string> &names) {
                const size_t shown = std::min<size_t>(names.size(), 5);
                return std::to_string(names.size()) + " ("
                    + joinNames(std::vector<std::string>(names.begin(), names.begin() + shown))
                    + (shown < names.size() ? ", ..." : "") + ")";
            };
            std::string what;
            for (const auto &[verb, names] : {std::pair{"removes ", &p.removed}, {"adds ", &p.added},
                     {"changes ", &p.changed}})
                if (!names->empty())
                    what += (what.empty() ? "" : "; ") + std::string(verb) + some(*names);
            if (!p.beforePatterns)
                what = "runs once the patterns are applied";
            else if (what.empty())
                what = "nothing to do on this graph";
            std::printf("  %-6s %-22s %s\n", p.beforePatterns ? "before" : "after", p.name.c_str(), what.c_str());
        }
        std::printf("\n");
    }
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
        if (p.candidates.empty()) {
            for (const auto &h : p.hints)
                std::printf("  hint: %s\n", h.text().c_str());
            continue;
        }
        std::printf("  %-24s %-9s %-16s %s\n", "anchor", "verdict", "stage", "reason");
        for (const auto &c : p.candidates) {
            const std::vector<std::string> reasons = c.reasonTexts();
            std::string reason = reasons.empty() ? std::string() : reasons.front();
            std::printf("  %-24s %-9s %-16s %s\n", c.anchor.c_str(), c.accepted ? "ACCEPTED" : "rejected",
                matchStageName(c.stage), reason.c_str());
            for (size_t i = 1; i < reasons.size(); ++i)
                std::printf("  %-24s %-9s %-16s %s\n", "", "", "", reasons[i].c_str());
            if (auto it = numerics ? numerics->find({p.name, c.anchor}) : CandidateNumerics::const_iterator();
                numerics && it != numerics->end())
                std::printf("  %-24s %-9s %-16s numerics: %s\n", "", "", "", it->second.text().c_str());
        }
        for (const auto &h : p.hints)
            std::printf("  hint: %s\n", h.text().c_str());
        std::printf("\n");
    }
    std::fprintf(stderr, "%zu nodes, %zu anchors, matched in %.2f ms\n", report.graphNodes, report.anchorsVisited, ms);
}

// A Dynamo-level graph picked from a file that also holds aten-level ones (a TORCH_TRACE log has the AOT and
// post-grad graphs beside it): which --graph to match instead. Empty when the file has none.
std::string atenGraphsHint(const GraphFile &file, size_t index)
{
    std::string graphs;
    for (size_t i = 0; i < file.graphs.size(); ++i)
        if (i != index && hasAtenCall(*file.graphs[i].graph))
            graphs += (graphs.empty() ? "" : ", ") + std::string("--graph ") + std::to_string(i) + " ("
                + file.graphs[i].name + ")";
    return graphs.empty() ? std::string() : file.path + " also holds aten-level graphs: " + graphs;
}

// The single-graph `match --json` document (the report with the graph's name and the match time).
Json matchJson(const MatchReport &report, const NamedGraph &named, double ms,
    const CandidateNumerics *numerics = nullptr)
{
    Json root = report.toJson();
    root.set("graph", named.name);
    root.set("match_ms", ms);
    if (numerics) {
        Json patterns = root["patterns"];
        for (Json &p : patterns.items()) {
            Json candidates = p["candidates"];
            for (Json &c : candidates.items())
                if (auto it = numerics->find({p["name"].toString(), c["anchor"].toString()}); it != numerics->end())
                    c.set("numerics", it->second.toJson());
            p.set("candidates", std::move(candidates));
        }
        root.set("patterns", std::move(patterns));
    }
    return root;
}

// Batch mode: every graph of the inputs, matched on `jobs` threads against the one registry.
int runMatchBatch(const CommandLine &cmd, const PatternRegistry &registry, const MatcherOptions &options, unsigned jobs,
    const std::optional<ProfileOptions> &numericsOptions)
{
    const bool hints = cmd.flag("--hints");
    const auto format = BatchOutput::formatOf(cmd.flag("--json"), cmd.flag("--jsonl"));
    if (!format)
        return UsageError;
    // LibTorch's schemas load once, before the workers start, so no worker's timing includes the load.
    if (jobs > 1)
        OpSchemaTable::instance().addLibTorchSchemas();
    std::vector<std::string> columns{"anchors", "candidates", "accepted"};
    if (numericsOptions)
        columns.insert(columns.end(), {"numerics_equal", "numerics_differ"});
    BatchOutput output(columns, "accepted", *format, cmd.flag("--summary"));
    if (numericsOptions)
        output.showNumerics();
    if (hints)
        output.showHints();
    const bool json = output.wantsReports();
    std::mutex numericsMutex; // one fusion's parts run at a time: the runtime's threads are the graph's own
    // The patterns are loaded: what ran them is known, and each row's report names it as the one-graph document does.
    const Json engine = json ? engineJson() : Json();
    auto task = [&](const GraphFile &file, size_t index, BatchRow &row) {
        const NamedGraph &named = file.graphs[index];
        const auto start = std::chrono::steady_clock::now();
        auto report = Matcher(registry).run(*named.graph, options);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!report) {
            row.exitCode = RuntimeFailure;
            row.error = report.error().toString();
            return;
        }
        if (!dynamoLevelWarning(*named.graph, registry).empty())
            if (std::string hint = atenGraphsHint(file, index); !hint.empty())
                report->warnings.push_back(std::move(hint));
        if (hints)
            addNearMissHints(report.value(), registry, *named.graph);
        size_t candidates = 0, accepted = 0;
        for (const auto &p : report->patterns) {
            candidates += p.candidates.size();
            accepted += p.acceptedCount();
            if (p.acceptedCount())
                row.byPattern.emplace_back(p.name, p.acceptedCount());
            if (!p.hints.empty())
                row.hintsByPattern.emplace_back(p.name, p.hints.size());
        }
        row.counts = {(long long)report->anchorsVisited, (long long)candidates, (long long)accepted};
        std::optional<CandidateNumerics> numerics;
        if (numericsOptions) {
            std::lock_guard<std::mutex> lock(numericsMutex);
            numerics = candidateNumerics(
                registry, *named.graph, options.onlyPattern, *numericsOptions, torchHostNumerics());
            if (cmd.flag("--refused"))
                numerics->merge(refusedCandidatesNumerics(
                    report.value(), registry, *named.graph, *numericsOptions, torchHostNumerics()));
            std::vector<std::pair<std::string, bool>> ran;
            for (const auto &[key, n] : *numerics)
                if (n.ran && !n.ifAccepted)
                    ran.emplace_back(key.first, n.equal);
            row.countNumerics(ran);
        }
        if (json) {
            row.report = matchJson(report.value(), named, ms, numerics ? &*numerics : nullptr);
            row.report.set("engine", engine);
        }
        if (!report->stoppedBy.empty()) {
            row.exitCode = BadInput;
            row.error = "the pass stops at " + report->stoppedBy;
        }
    };
    return output.run(BatchRunner({cmd.positional(), cmd.value("--graph"), jobs}), task); // exit 6 when a fusion differs and nothing failed
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


// --check-with-torch: Inductor's real PatternMatcherPass on the same graph, in a Python with torch
// (python -m fxscope_capture.inductor_check), compared per candidate with fxscope's verdict.

// Exit code when torch's pass disagrees with fxscope on a candidate.
constexpr int TorchDisagrees = 4;

std::string shellQuote(const std::string &s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Takes "--check-with-torch [PYTHON]" out of args (PYTHON: the next argument when it is an executable file that
// is not a pattern file). nullopt when the option is absent; an empty PYTHON means the default one.
std::optional<std::string> takeCheckWithTorch(std::vector<std::string> &args)
{
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--check-with-torch")
            continue;
        std::string python;
        if (i + 1 < args.size()) {
            const std::string &next = args[i + 1];
            const std::string ext = std::filesystem::path(next).extension().string();
            if (next.rfind("--", 0) != 0 && ext != ".py" && ext != ".json" && ::access(next.c_str(), X_OK) == 0
                && std::filesystem::is_regular_file(next)) {
                python = next;
                args.erase(args.begin() + long(i) + 1);
            }
        }
        args.erase(args.begin() + long(i));
        return python;
    }
    return std::nullopt;
}

struct TorchRun {
    Json report;
    std::string error; // set when the check could not run
};

TorchRun runInductorCheck(const std::string &python, const SelectedGraph &selected,
    const std::vector<std::string> &patternFiles)
{
    TorchRun run;
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir = fs::temp_directory_path(ec) / ("fxscope-check-" + std::to_string(::getpid()));
    fs::create_directories(dir, ec);
    const fs::path graphPath = dir / "graph.json";
    const fs::path errPath = dir / "stderr.txt";
    {
        std::ofstream out(graphPath);
        out << writeFxscopeJson(selected.file);
        if (!out) {
            run.error = "cannot write " + graphPath.string();
            return run;
        }
    }
    std::string cmd;
    if (const std::string pkg = pythonPackageDirectory(); !pkg.empty()) {
        const char *old = std::getenv("PYTHONPATH");
        cmd += "PYTHONPATH=" + shellQuote(pkg + (old && *old ? ":" + std::string(old) : std::string())) + " ";
    }
    cmd += shellQuote(python) + " -m fxscope_capture.inductor_check " + shellQuote(graphPath.string()) + " --graph "
        + std::to_string(selected.index) + " --no-run --json --patterns";
    for (const auto &f : patternFiles)
        cmd += " " + shellQuote(f);
    cmd += " 2>" + shellQuote(errPath.string());
    spdlog::info("checking with torch: {}", cmd);
    std::string output;
    int status = -1;
    if (FILE *pipe = ::popen(cmd.c_str(), "r")) {
        char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
            output.append(buf, n);
        status = ::pclose(pipe);
    }
    std::string err;
    {
        std::ifstream in(errPath);
        std::stringstream ss;
        ss << in.rdbuf();
        err = ss.str();
    }
    fs::remove_all(dir, ec);
    if (status != 0) {
        run.error = python + " -m fxscope_capture.inductor_check failed (exit status " + std::to_string(status)
            + "): " + (err.size() > 2000 ? err.substr(err.size() - 2000) : err);
        return run;
    }
    auto parsed = Json::parse(output, "inductor_check output");
    if (!parsed) {
        run.error = "cannot read inductor_check's JSON: " + parsed.error().toString();
        return run;
    }
    run.report = std::move(parsed.value());
    return run;
}

void printTorchColumn(const Json &root, const Json &torch, const std::vector<std::string> &disagreements)
{
    std::printf("torch %s (Inductor's PatternMatcherPass, one pass):\n", torch["torch_version"].toString().c_str());
    for (const auto &p : root["patterns"].items()) {
        std::printf("  %s\n", p["name"].toString().c_str());
        std::printf("    %-24s %-9s %-6s %s\n", "anchor", "fxscope", "torch", "torch's reason");
        for (const auto &c : p["candidates"].items()) {
            const Json &t = c["torch"];
            std::string reason = t["replaced"].toBool() ? "replaced" : t["stage"].toString() + ": " + t["reason"].toString();
            if (reason.size() > 110)
                reason = reason.substr(0, 107) + "...";
            std::printf("    %-24s %-9s %-6s %s\n", c["anchor"].toString().c_str(),
                c["accepted"].toBool() ? "ACCEPTED" : "rejected", c["torch_agrees"].toBool() ? "agrees" : "DIFFERS",
                reason.c_str());
        }
    }
    if (disagreements.empty())
        std::printf("torch agrees on every candidate\n");
    for (const auto &d : disagreements)
        std::printf("torch disagrees: %s\n", d.c_str());
}

} // namespace

int runMatch(const std::vector<std::string> &argsIn)
{
    std::vector<std::string> args = argsIn;
    const std::optional<std::string> checkPython = takeCheckWithTorch(args);
    CommandLine cmd;
    const char *usage
        = "usage: fxscope-cli match GRAPH... --patterns FILE... [--pattern NAME] [--graph NAME|INDEX] [--subgraph] "
          "[--json] [--check-with-torch [PYTHON]] [--compare-engines] [--check-numerics [--device D] [--refused]] [--hints] "
          "[--jobs N] [--batch] [--jsonl] [--summary]\n"
          "FILE is a Python pattern file (register_replacement), a JSON pattern file, 'builtin' or 'builtin:NAME'; "
          "every argument after --patterns up to the next option is a pattern file, GRAPHs come before it; "
          "--subgraph matches each search graph with torch.fx's SubgraphMatcher instead of the Inductor pattern "
          "matcher; --check-with-torch runs Inductor's real pass on the same graph in PYTHON (default: the one fxscope "
          "was built with) and exits 4 when it disagrees with a verdict; --compare-engines matches again with fxscope's "
          "sandbox and lists every candidate whose verdict, stage or matched nodes differ from the torch host's "
          "(exit 4 when any does); --check-numerics runs each accepted candidate's fusion, as the sweep applies it, "
          "against the nodes it replaces on the same seeded inputs (on --device, default cpu) and compares their "
          "outputs as `profile` does (exit 6 when one differs), and with --refused each candidate its extra_check "
          "refused too, fused alone as if the check had accepted (what the check keeps out; not in the exit code); "
          "--hints gives, for each pattern whose candidates were "
          "rejected by their structure or re-traced literals, the changes to search_fn that would make it match, "
          "each verified by matching the changed pattern again (docs/near-miss-hints.md).\n"
          "Several GRAPHs, a directory (walked for graph dumps) or a file holding several graphs (without --graph) "
          "give one row per graph, matched on --jobs threads (default: the cores; one with the torch host), and --json one document "
          "{graphs, skipped, summary} written graph by graph, --jsonl one line per graph then a totals line, "
          "--summary counts without each graph's report (--batch, --jsonl, --summary: a batch for one graph too); "
          "exit 0 when every graph ran, 2 when a file did "
          "not load, 3 when a graph failed to match (docs/batch.md)\n";
    if (helpRequested(argsIn))
        return printHelp(usage);
    if (auto err = cmd.parse(args, {"--pattern", "--graph", "--jobs", "--device"},
            {"--json", "--subgraph", "--batch", "--jsonl", "--summary", "--compare-engines", "--check-numerics", "--refused",
                "--hints"},
            {"--patterns"});
        err || cmd.positional().empty() || cmd.values("--patterns").empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    const std::optional<unsigned> jobs = jobsOption(cmd);
    if (!jobs)
        return UsageError;
    PatternRegistry registry;
    if (!loadPatternSpecs(cmd.values("--patterns"), registry))
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
    std::optional<GraphFile> single; // the one file, loaded, when this is not a batch
    bool batch = cmd.flag("--batch") || cmd.flag("--jsonl") || cmd.flag("--summary") || cmd.positional().size() > 1
        || isGraphFolder(cmd.positional()[0]);
    if (!batch) {
        auto file = loadGraphFile(cmd.positional()[0]);
        if (!file) {
            std::fprintf(stderr, "%s\n", file.error().toString().c_str());
            return BadInput;
        }
        // --subgraph and --check-with-torch keep asking which graph (they work on one).
        batch = !cmd.value("--graph") && file->graphs.size() > 1 && !checkPython && !cmd.flag("--subgraph");
        single = std::move(file).value();
    }
    const bool compare = cmd.flag("--compare-engines");
    if (compare && (checkPython || cmd.flag("--subgraph"))) {
        std::fprintf(stderr, "%s--compare-engines goes alone: leave out %s\n", usage,
            checkPython ? "--check-with-torch" : "--subgraph");
        return UsageError;
    }
    if (compare && !torchHostLoaded()) {
        std::fprintf(stderr, "--compare-engines compares the torch host with the sandbox: it needs Python pattern "
                             "sources, a Python with torch (FXSCOPE_PYTHON) and no --sandbox\n");
        return UsageError;
    }
    const bool checkNumerics = cmd.flag("--check-numerics");
    if ((checkNumerics && (checkPython || cmd.flag("--subgraph") || compare))
        || ((cmd.value("--device") || cmd.flag("--refused")) && !checkNumerics)) {
        std::fprintf(stderr, "%s--check-numerics [--device D] [--refused] goes without --check-with-torch, "
                             "--compare-engines and --subgraph\n", usage);
        return UsageError;
    }
    std::optional<ProfileOptions> numericsOptions;
    if (checkNumerics) {
        numericsOptions.emplace();
        if (auto device = cmd.value("--device"))
            numericsOptions->device = *device;
    }
    if (batch) {
        if (checkPython || cmd.flag("--subgraph") || compare) {
            std::fprintf(stderr, "%s%s works on one graph: name one GRAPH (and --graph)\n", usage,
                checkPython ? "--check-with-torch" : compare ? "--compare-engines" : "--subgraph");
            return UsageError;
        }
        return runMatchBatch(cmd, registry, options, batchJobs(cmd, *jobs), numericsOptions);
    }
    int exitCode = Success;
    auto selected = selectLoadedGraph(std::move(*single), cmd, exitCode);
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
        if (std::string hint = atenGraphsHint(selected->file, selected->index); !hint.empty())
            report->warnings.push_back(std::move(hint));
    std::optional<double> hintsMs;
    if (cmd.flag("--hints")) {
        const auto hintsStart = std::chrono::steady_clock::now();
        addNearMissHints(report.value(), registry, *named->graph);
        hintsMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - hintsStart).count();
    }
    if (!checkPython) {
        std::optional<Json> comparison; // --compare-engines: {"agree", "differences"} or {"error"}
        std::vector<EngineDifference> differences;
        if (compare) {
            PatternRegistry sandboxRegistry;
            std::string error;
            if (!loadPatternSpecsInSandbox(cmd.values("--patterns"), sandboxRegistry, error)) {
                comparison = Json::object({{"error", "the sandbox cannot load the sources: " + error}});
            } else if (auto sandboxReport = Matcher(sandboxRegistry).run(*named->graph, options); !sandboxReport) {
                comparison = Json::object({{"error", "the sandbox's match failed: " + sandboxReport.error().toString()}});
            } else {
                differences = compareEngines(report.value(), sandboxReport.value());
                Json list = Json::array();
                for (const auto &d : differences)
                    list.push(d.toJson());
                comparison = Json::object({{"agree", differences.empty()}, {"differences", std::move(list)}});
            }
        }
        std::optional<CandidateNumerics> numerics;
        if (numericsOptions) {
            numerics = candidateNumerics(
                registry, *named->graph, options.onlyPattern, *numericsOptions, torchHostNumerics());
            if (cmd.flag("--refused"))
                numerics->merge(refusedCandidatesNumerics(
                    report.value(), registry, *named->graph, *numericsOptions, torchHostNumerics()));
        }
        const CandidateNumerics *shown = numerics ? &*numerics : nullptr;
        if (cmd.flag("--json")) {
            Json root = matchJson(report.value(), *named, ms, shown);
            if (hintsMs)
                root.set("hints_ms", *hintsMs); // what finding and verifying the hints took, after match_ms
            root.set("engine", engineJson());
            if (comparison)
                root.set("compare_engines", *comparison);
            std::printf("%s\n", root.dump(1).c_str());
        } else {
            printTable(report.value(), ms, shown);
            if (const std::string line = engineLine(); !line.empty())
                std::printf("%s\n", line.c_str());
            if (comparison && (*comparison)["error"].isString())
                std::printf("engines: %s\n", (*comparison)["error"].toString().c_str());
            else if (comparison && differences.empty())
                std::printf("engines: fxscope's sandbox gives torch's verdict on every candidate\n");
            for (const auto &d : differences)
                std::printf("engines differ: %s\n", d.toString().c_str());
        }
        // The user's code raised where Inductor would not catch it: torch.compile fails there.
        if (!report->stoppedBy.empty()) {
            std::fprintf(stderr, "the pass stops at %s\n", report->stoppedBy.c_str());
            return BadInput;
        }
        if (numerics && tallyNumerics(*numerics).differ) // applied fusions; --refused ones are not applied
            return NumericsDiffer;
        return comparison && !(*comparison)["agree"].toBool() ? TorchDisagrees : Success;
    }
    const std::string python = checkPython->empty() ? defaultPython() : *checkPython;
    if (python.empty()) {
        std::fprintf(stderr, "--check-with-torch: no Python known (name one: --check-with-torch PYTHON, or set "
                             "FXSCOPE_PYTHON)\n");
        return UsageError;
    }
    const std::vector<std::string> specs = patternSpecs(cmd);
    for (const auto &f : specs)
        if (f == "builtin" || f.rfind("builtin:", 0) == 0 || std::filesystem::path(f).extension() == ".json") {
            std::fprintf(stderr, "--check-with-torch registers Python pattern sources (FILE.py, module:callable, "
                                 "inductor:NAME) through Inductor's register_replacement; %s is not one\n", f.c_str());
            return UsageError;
        }
    if (!options.onlyPattern.empty()) {
        std::fprintf(stderr, "--check-with-torch compares every pattern (torch's pass runs them all): leave out "
                             "--pattern\n");
        return UsageError;
    }
    TorchRun torch = runInductorCheck(python, *selected, specs);
    if (!torch.error.empty()) {
        std::fprintf(stderr, "--check-with-torch: %s\n", torch.error.c_str());
        return RuntimeFailure;
    }
    Json root = report->toJson();
    root.set("graph", named->name);
    root.set("match_ms", ms);
    root.set("engine", engineJson());
    const std::vector<std::string> disagreements = compareWithTorch(root, torch.report);
    Json list = Json::array();
    for (const auto &d : disagreements)
        list.push(d);
    root.set("torch", Json::object({{"python", python}, {"torch_version", torch.report["torch_version"]},
                          {"agrees", disagreements.empty()}, {"disagreements", std::move(list)},
                          {"error", torch.report["error"]}}));
    if (cmd.flag("--json")) {
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        printTable(report.value(), ms);
        printTorchColumn(root, torch.report, disagreements);
    }
    for (const auto &d : disagreements)
        std::fprintf(stderr, "torch disagrees: %s\n", d.c_str());
    return disagreements.empty() ? Success : TorchDisagrees;
}

} // namespace fxs::cli
