#include "apply_command.h"

#include "batch_output.h"
#include "batch_runner.h"
#include "command_inputs.h"
#include "graph_output.h"

#include "command_line.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_writer.h"
#include "ir/lint.h"
#include "match/graph_level.h"
#include "patterns/pattern_file.h"
#include "rewrite/graph_diff.h"
#include "rewrite/session.h"
#include "patterns/op_schema_table.h"
#include "runtime/fusion_numerics.h"
#include "util/text.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <atomic>
#include <map>
#include <mutex>

namespace fxs::cli {

namespace {

Json names(const std::vector<std::string> &list)
{
    Json out = Json::array();
    for (const auto &n : list)
        out.push(n);
    return out;
}

// The single-graph `apply --json` document.
Json applyJson(const Session &session, const NamedGraph &named, const GraphDiff &diff, const Json &warnings,
    const Status &applied, const std::vector<std::optional<FusionNumerics>> &numerics = {})
{
    Json steps = Json::array();
    for (size_t i = 0; i < session.revision(); ++i) {
        const SessionStep &s = session.history()[i];
        // A pattern step names its pattern and anchor; a pass step (TorchAir's pipeline) its pass.
        Json step = Json::object({{"kind", s.kind}, {s.kind == "pass" ? "pass" : "pattern", s.name}});
        if (s.kind != "pass")
            step.set("anchor", s.anchor);
        step.set("removed", names(s.removed));
        step.set("added", names(s.added));
        step.set("provenance", s.provenance);
        step.set("nodes_before", s.nodesBefore);
        step.set("nodes_after", s.nodesAfter);
        if (i < numerics.size() && numerics[i])
            step.set("numerics", numerics[i]->toJson());
        steps.push(std::move(step));
    }
    Json root = Json::object({{"graph", named.name}, {"steps", std::move(steps)},
        {"nodes_before", named.graph->size()}, {"nodes_after", session.graph().size()},
        {"ops", diff.toJson()["ops"]}, {"lint", names(lint(session.graph()))}, {"warnings", warnings}});
    if (!applied)
        root.set("error", applied.error().toString());
    return root;
}

// Where batch mode writes a graph's fused form under -o DIR: the input's path below the directory named (or its
// file name), the graph's index when the file holds several, then ".fused.json".
std::string batchOutputPath(const std::string &dir, const BatchRow &row, size_t index)
{
    namespace fs = std::filesystem;
    fs::path relative = row.relativePath.empty() ? fs::path(row.path).filename() : fs::path(row.relativePath);
    std::string name = relative.filename().string();
    if (row.graphCount > 1)
        name += "." + std::to_string(index);
    return (fs::path(dir) / relative.parent_path() / (name + ".fused.json")).string();
}

// Batch mode: each graph's sweep (up to maxSteps) on `jobs` threads; steps and node counts per graph, and with
// numericsOptions each step's fusion against the nodes it replaced (exit 6 when one differs).
int runApplyBatch(const CommandLine &cmd, const std::shared_ptr<PatternRegistry> &registry, size_t maxSteps,
    const std::optional<std::string> &outDir, unsigned jobs, const std::optional<ProfileOptions> &numericsOptions)
{
    const auto format = BatchOutput::formatOf(cmd.flag("--json"), cmd.flag("--jsonl"));
    if (!format)
        return UsageError;
    if (jobs > 1)
        OpSchemaTable::instance().addLibTorchSchemas(); // see runMatchBatch: loaded once, before the workers
    std::vector<std::string> columns{"steps", "nodes_after"};
    if (numericsOptions)
        columns.insert(columns.end(), {"numerics_equal", "numerics_differ"});
    BatchOutput output(columns, "steps", *format, cmd.flag("--summary"));
    if (numericsOptions)
        output.showNumerics();
    const bool json = output.wantsReports();
    std::mutex numericsMutex; // one fusion's parts run at a time, as in runMatchBatch
    auto task = [&](const GraphFile &file, size_t index, BatchRow &row) {
        const NamedGraph &named = file.graphs[index];
        Session session(named.graph->clone(), registry);
        auto applied = session.run(maxSteps);
        std::map<std::string, size_t> byPattern;
        for (size_t i = 0; i < session.revision(); ++i) {
            const std::string &name = session.history()[i].name;
            if (!byPattern.count(name))
                row.byPattern.emplace_back(name, 0);
            ++byPattern[name];
        }
        for (auto &entry : row.byPattern)
            entry.second = byPattern[entry.first];
        row.counts = {(long long)session.revision(), (long long)session.graph().size()};
        std::vector<std::optional<FusionNumerics>> numerics;
        if (numericsOptions) {
            std::lock_guard<std::mutex> lock(numericsMutex);
            numerics = sessionNumerics(session, *numericsOptions, torchHostNumerics());
            std::vector<std::pair<std::string, bool>> ran;
            for (size_t i = 0; i < numerics.size(); ++i)
                if (numerics[i] && numerics[i]->ran)
                    ran.emplace_back(session.history()[i].name, numerics[i]->equal);
            row.countNumerics(ran);
        }
        if (json) {
            Json warnings = Json::array();
            if (std::string level = dynamoLevelWarning(*named.graph, *registry); !level.empty())
                warnings.push(std::move(level));
            const Status status = applied ? Status(Ok{}) : Status(applied.error());
            row.report =
                applyJson(session, named, diffGraphs(*named.graph, session.graph()), warnings, status, numerics);
        }
        if (!applied) {
            row.exitCode = RuntimeFailure;
            row.error = applied.error().toString();
        }
        if (outDir) {
            const std::string path = batchOutputPath(*outDir, row, index);
            std::error_code ec;
            std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
            if (auto written = writeGraphFile(path, session.graph(), named, file.format); !written) {
                row.exitCode = RuntimeFailure;
                row.error = written.error().toString();
            } else if (json) {
                row.report.set("output", path);
            }
        }
    };
    return output.run(BatchRunner({cmd.positional(), cmd.value("--graph"), jobs}), task); // exit 6 when a fusion differs and nothing failed
}

} // namespace

int runApply(const std::vector<std::string> &args)
{
    CommandLine cmd;
    const char *usage
        = "usage: fxscope-cli apply GRAPH... --patterns FILE... [--steps N] [--all] [-o OUT.{json,py,dot,svg,png}] "
          "[--graph NAME|INDEX] [--json] [--jobs N] [--batch] [--jsonl] [--summary] [--check-numerics [--device D]]\n"
          "FILE is a Python pattern file (register_replacement), a JSON pattern file, 'builtin' or 'builtin:NAME'; "
          "every argument after --patterns up to the next option is a pattern file; "
          "without --steps every match is applied (--all).\n"
          "--check-numerics runs each fusion's replaced nodes and its replacement on the same seeded inputs (on "
          "--device, default cpu) and compares their outputs as `profile` does; exit 6 when one differs.\n"
          "Several GRAPHs, a directory or a file holding several graphs (without --graph) give one row per graph "
          "(steps, nodes before and after), on --jobs threads (default: the cores; one with the torch host); -o is then a directory that "
          "receives each fused graph as fxscope JSON; --json writes one document graph by graph, --jsonl one line per "
          "graph then a totals line, --summary counts without each graph's report; exit 0 when every graph ran, 2 "
          "when a file did not load, 3 when a sweep failed (docs/batch.md)\n";
    if (helpRequested(args))
        return printHelp(usage);
    auto err = cmd.parse(args, {"--steps", "-o", "--output", "--graph", "--jobs", "--device"},
        {"--json", "--all", "--batch", "--jsonl", "--summary", "--check-numerics"}, {"--patterns"});
    if (err || cmd.positional().empty() || cmd.values("--patterns").empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    const std::optional<unsigned> jobs = jobsOption(cmd);
    if (!jobs)
        return UsageError;
    size_t maxSteps = std::numeric_limits<size_t>::max();
    if (auto steps = cmd.value("--steps")) {
        char *end = nullptr;
        long long n = std::strtoll(steps->c_str(), &end, 10);
        if (steps->empty() || *end || n < 0) {
            std::fprintf(stderr, "%s--steps expects a count >= 0, found '%s'\n", usage, steps->c_str());
            return UsageError;
        }
        if (!cmd.flag("--all"))
            maxSteps = size_t(n);
    }
    auto out = cmd.value("-o") ? cmd.value("-o") : cmd.value("--output");
    std::string ext = out ? extensionOf(*out) : std::string();
    const bool namesBatch = cmd.flag("--batch") || cmd.flag("--jsonl") || cmd.flag("--summary")
        || cmd.positional().size() > 1 || isGraphFolder(cmd.positional()[0]);
    if (out && !namesBatch && !isGraphOutputExtension(ext) && !isDirectory(*out)) {
        std::fprintf(
            stderr, "%sexpected an output ending in .json, .py, .dot, .svg or .png, found '%s'\n", usage, out->c_str());
        return UsageError;
    }
    const std::vector<std::string> specs = cmd.values("--patterns"); // positionals are graphs
    auto registry = std::make_shared<PatternRegistry>();
    if (!loadPatternSpecs(specs, *registry))
        return BadInput;
    bool batch = namesBatch;
    std::optional<GraphFile> single; // the one file, loaded, when this is not a batch
    if (!batch) {
        auto file = loadGraphFile(cmd.positional()[0]);
        if (!file) {
            std::fprintf(stderr, "%s\n", file.error().toString().c_str());
            return BadInput;
        }
        batch = !cmd.value("--graph") && file->graphs.size() > 1;
        single = std::move(file).value();
    }
    const bool checkNumerics = cmd.flag("--check-numerics");
    if (cmd.value("--device") && !checkNumerics) {
        std::fprintf(stderr, "%s--device goes with --check-numerics\n", usage);
        return UsageError;
    }
    ProfileOptions numericsOptions;
    if (auto device = cmd.value("--device"))
        numericsOptions.device = *device;
    if (batch) {
        if (out && isGraphOutputExtension(ext) && !isDirectory(*out)) {
            std::fprintf(stderr, "%s-o names a directory when several graphs are applied, found '%s'\n", usage,
                out->c_str());
            return UsageError;
        }
        return runApplyBatch(cmd, registry, maxSteps, out, batchJobs(cmd, *jobs),
            checkNumerics ? std::optional<ProfileOptions>(numericsOptions) : std::nullopt);
    }
    if (out && !isGraphOutputExtension(ext)) {
        std::fprintf(
            stderr, "%sexpected an output ending in .json, .py, .dot, .svg or .png, found '%s'\n", usage, out->c_str());
        return UsageError;
    }
    int exitCode = Success;
    auto selected = selectLoadedGraph(std::move(*single), cmd, exitCode);
    if (!selected)
        return exitCode;
    const GraphFile *file = &selected->file;
    const NamedGraph *named = &selected->named();

    Session session(named->graph->clone(), registry);
    auto applied = session.run(maxSteps);
    bool failed = !applied;
    if (failed)
        std::fprintf(stderr, "%s\n", applied.error().toString().c_str());
    GraphDiff diff = diffGraphs(*named->graph, session.graph());
    // Why nothing was applied, where the graph says it: aten patterns on a Dynamo-level graph (as `match` warns).
    Json warnings = Json::array();
    if (std::string level = dynamoLevelWarning(*named->graph, *registry); !level.empty())
        warnings.push(std::move(level));

    std::vector<std::optional<FusionNumerics>> numerics;
    bool differs = false;
    if (checkNumerics) {
        numerics = sessionNumerics(session, numericsOptions, torchHostNumerics());
        for (const auto &n : numerics)
            differs = differs || (n && n->differs());
    }
    if (cmd.flag("--json")) {
        const Status status = applied ? Status(Ok{}) : Status(applied.error());
        std::printf("%s\n", applyJson(session, *named, diff, warnings, status, numerics).dump(1).c_str());
    } else {
        for (const Json &w : warnings.items())
            std::printf("warning: %s\n\n", w.toString().c_str());
        for (size_t i = 0; i < session.revision(); ++i) {
            const SessionStep &s = session.history()[i];
            const std::string what = s.kind == "pass" ? "pass " + s.name : s.name + " at " + s.anchor;
            std::printf("step %zu: %s  (%zu -> %zu nodes)\n  removed: %s\n  added:   %s\n", i + 1, what.c_str(),
                s.nodesBefore, s.nodesAfter, joinNames(s.removed).c_str(), joinNames(s.added).c_str());
            if (i < numerics.size() && numerics[i])
                std::printf("  numerics: %s\n", numerics[i]->text().c_str());
        }
        std::printf("%s%zu step%s applied\n\n%s", session.revision() ? "\n" : "", session.revision(),
            session.revision() == 1 ? "" : "s", diff.opTable().c_str());
    }

    if (out) {
        if (auto written = writeGraphFile(*out, session.graph(), *named, file->format); !written) {
            std::fprintf(stderr, "%s\n", written.error().toString().c_str());
            return RuntimeFailure;
        }
    }
    return failed ? RuntimeFailure : differs ? NumericsDiffer : Success;
}

} // namespace fxs::cli
