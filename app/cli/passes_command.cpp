#include "passes_command.h"

#include "command_inputs.h"
#include "graph_output.h"

#include "command_line.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_writer.h"
#include "ir/lint.h"
#include "patterns/pattern_file.h"
#include "rewrite/graph_diff.h"
#include "rewrite/passes/pass_library.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace fxs::cli {

namespace {

std::vector<std::string> splitList(const std::string &text, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(sep, start);
        std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\r'))
            item.pop_back();
        while (!item.empty() && item.front() == ' ')
            item.erase(item.begin());
        if (!item.empty() && item.front() != '#')
            out.push_back(item);
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

Json names(const std::vector<std::string> &list)
{
    Json out = Json::array();
    for (const auto &n : list)
        out.push(n);
    return out;
}

} // namespace

int runPasses(const std::vector<std::string> &args)
{
    std::string usage
        = "usage: fxscope-cli passes GRAPH --pass NAME... [--steps N] [--check-each] [--patterns FILE...] "
          "[--supported T,T...|--partition TARGETS_FILE] [--allow-single-node] [-o OUT.{json,py,dot,svg,png}] "
          "[--composites FILE] [--graph NAME|INDEX] [--json]\n"
          "runs a PassManager pipeline on GRAPH; with a support set, partitions and why nodes are outside\n"
          "  --pass NAME[,NAME...]   the passes below, in the order given (repeatable)\n"
          "  --steps N               rerun the list up to N times, until nothing changes\n"
          "  --check-each            lint the graph after each pass\n"
          "  --patterns FILE...      every argument up to the next option: the pattern files the pattern pass\n"
          "                          applies (Python or JSON pattern files, 'builtin' or 'builtin:NAME')\n"
          "  --supported T,T...      the targets a backend supports (partition); --partition FILE reads them\n"
          "                          from a file, one or more per line\n"
          "  --allow-single-node     a partition may hold one node\n"
          "  --composites FILE       the graphs of fx.wrap'ed functions, for inline\n"
          "  -o OUT                  write the result (.json, .py, .dot, .svg, .png)\n"
          "  --graph NAME|INDEX      the graph of a file that holds several\n"
          "  --json                  one JSON document on stdout (docs/cli-json-contract.md)\n"
          "passes:\n";
    for (const auto &line : passHelp())
        usage += "  " + line + "\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    auto err = cmd.parse(args, {"--pass", "--steps", "--supported", "--partition", "-o", "--graph", "--composites"},
        {"--json", "--check-each", "--allow-single-node"}, {"--patterns"});
    bool partitionOnly = cmd.value("--supported") || cmd.value("--partition");
    if (err || cmd.positional().size() != 1 || (cmd.values("--pass").empty() && !partitionOnly)) {
        std::fprintf(stderr, "%s%s\n", usage.c_str(), err ? err->c_str() : "");
        return UsageError;
    }
    PassManagerOptions options;
    if (auto steps = cmd.value("--steps")) {
        char *end = nullptr;
        long long n = std::strtoll(steps->c_str(), &end, 10);
        if (steps->empty() || *end || n < 1) {
            std::fprintf(stderr, "%s--steps expects a count >= 1, found '%s'\n", usage.c_str(), steps->c_str());
            return UsageError;
        }
        options.steps = size_t(n);
    }
    options.runChecksAfterEachPass = cmd.flag("--check-each");
    auto out = cmd.value("-o");
    std::string ext = out ? extensionOf(*out) : std::string();
    if (out && !isGraphOutputExtension(ext)) {
        std::fprintf(stderr, "%sexpected an output ending in .json, .py, .dot, .svg or .png, found '%s'\n",
            usage.c_str(), out->c_str());
        return UsageError;
    }

    PassContext context;
    context.partitioner.allowsSingleNodePartition = cmd.flag("--allow-single-node");
    if (!cmd.values("--patterns").empty()) {
        auto registry = std::make_shared<PatternRegistry>();
        if (!loadPatternSpecs(cmd.values("--patterns"), *registry))
            return BadInput;
        context.patterns = registry;
    }
    // --composites FILE: fx.wrap'ed functions' graphs, by graph name and by the names of the graphs nested in them.
    if (!cmd.values("--composites").empty()) {
        auto library = std::make_shared<CompositeLibrary>();
        for (const auto &path : cmd.values("--composites")) {
            auto loaded = loadGraphFile(path);
            if (!loaded) {
                std::fprintf(stderr, "%s\n", loaded.error().toString().c_str());
                return BadInput;
            }
            for (auto &named : loaded->graphs) {
                std::shared_ptr<const Graph> graph(std::move(named.graph));
                for (const auto &[name, sub] : graph->subgraphs())
                    library->emplace(name, std::shared_ptr<const Graph>(graph, sub.get()));
                library->emplace(named.name, std::move(graph));
            }
        }
        context.composites = library;
    }
    std::vector<std::string> supported;
    for (const auto &list : cmd.values("--supported"))
        for (auto &t : splitList(list, ','))
            supported.push_back(t);
    for (const auto &path : cmd.values("--partition")) {
        std::ifstream in(path);
        if (!in) {
            std::fprintf(stderr, "%s: cannot read the targets file\n", path.c_str());
            return BadInput;
        }
        std::string line;
        while (std::getline(in, line))
            for (auto &t : splitList(line, ','))
                supported.push_back(t);
    }
    if (partitionOnly)
        context.support = OperatorSupport(supported);

    PassManager manager({}, options);
    for (const auto &list : cmd.values("--pass"))
        for (const auto &spec : splitList(list, ',')) {
            auto pass = makePass(spec, context);
            if (!pass) {
                std::fprintf(stderr, "%s\n", pass.error().message.c_str());
                return UsageError;
            }
            manager.addPass(pass->name, pass->fn);
        }

    int exitCode = Success;
    auto selected = loadSelectedGraph(cmd, exitCode);
    if (!selected)
        return exitCode;
    const GraphFile *file = &selected->file;
    const NamedGraph *named = &selected->named();

    Session session(named->graph->clone(), context.patterns ? context.patterns : std::make_shared<PatternRegistry>());
    Result<PassManagerResult> result = PassManagerResult{};
    if (!manager.passes().empty())
        result = manager.run(session);
    if (!result)
        std::fprintf(stderr, "%s\n", result.error().message.c_str());
    GraphDiff diff = diffGraphs(*named->graph, session.graph());
    std::optional<ProposedPartitions> proposed;
    if (context.support)
        proposed
            = CapabilityBasedPartitioner(session.graph(), *context.support, context.partitioner).proposePartitions();

    if (cmd.flag("--json")) {
        Json runs = Json::array();
        for (const auto &r : manager.lastRun().runs)
            runs.push(Json::object(
                {{"pass", r.pass}, {"iteration", r.iteration}, {"changed", r.changed}, {"revision", r.revision}}));
        Json steps = Json::array();
        for (size_t i = 0; i < session.revision(); ++i) {
            const SessionStep &s = session.history()[i];
            steps.push(Json::object({{"pass", s.name}, {"removed", names(s.removed)}, {"added", names(s.added)},
                {"provenance", s.provenance}, {"nodes_before", s.nodesBefore}, {"nodes_after", s.nodesAfter}}));
        }
        Json root = Json::object({{"graph", named->name}, {"runs", std::move(runs)}, {"steps", std::move(steps)},
            {"nodes_before", named->graph->size()}, {"nodes_after", session.graph().size()},
            {"ops", diff.toJson()["ops"]}, {"lint", names(lint(session.graph()))}});
        root.set("iterations", manager.lastRun().iterations);
        if (proposed)
            root.set("partitioning", proposed->toJson());
        if (!result)
            root.set("error", result.error().message);
        if (const auto &failure = manager.lastFailure())
            root.set("failed_pass",
                Json::object({{"pass", failure->pass}, {"after", names(failure->before)}, {"cause", failure->cause}}));
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        for (const auto &r : manager.lastRun().runs)
            std::printf("sweep %zu  %-24s %s\n", r.iteration + 1, r.pass.c_str(),
                r.changed ? ("changed -> revision " + std::to_string(r.revision)).c_str() : "unchanged");
        std::printf("%zu step%s, %zu -> %zu nodes\n\n%s", session.revision(), session.revision() == 1 ? "" : "s",
            named->graph->size(), session.graph().size(), diff.opTable().c_str());
        if (proposed) {
            std::printf("\n%zu partition%s (%zu merges refused for cycles)\n", proposed->partitions.size(),
                proposed->partitions.size() == 1 ? "" : "s", proposed->mergesRefused);
            for (size_t p = 0; p < proposed->partitions.size(); ++p) {
                std::string list;
                for (const Node *n : proposed->partitions[p])
                    list += (list.empty() ? "" : ", ") + n->name();
                std::printf("  #%zu (%zu nodes): %s\n", p, proposed->partitions[p].size(), list.c_str());
            }
            std::printf("outside every partition:\n");
            for (const auto &pl : proposed->nodes)
                if (pl.kind != NodePlacement::Kind::InPartition && pl.kind != NodePlacement::Kind::NotACall)
                    std::printf("  %-24s %s\n", pl.node.c_str(), pl.reason.c_str());
        }
    }

    if (out) {
        if (auto written = writeGraphFile(*out, session.graph(), *named, file->format); !written) {
            std::fprintf(stderr, "%s\n", written.error().toString().c_str());
            return RuntimeFailure;
        }
    }
    return result ? Success : RuntimeFailure;
}

} // namespace fxs::cli
