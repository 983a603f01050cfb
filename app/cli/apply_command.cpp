#include "apply_command.h"

#include "command_inputs.h"
#include "graph_output.h"

#include "command_line.h"
#include "io/dot_writer.h"
#include "io/fxscope_json.h"
#include "io/readable_writer.h"
#include "ir/lint.h"
#include "match/graph_level.h"
#include "patterns/pattern_file.h"
#include "rewrite/graph_diff.h"
#include "rewrite/session.h"
#include "util/text.h"

#include <cstdio>
#include <cstdlib>

namespace fxs::cli {

namespace {

Json names(const std::vector<std::string> &list)
{
    Json out = Json::array();
    for (const auto &n : list)
        out.push(n);
    return out;
}

} // namespace

int runApply(const std::vector<std::string> &args)
{
    CommandLine cmd;
    const char *usage
        = "usage: fxscope-cli apply GRAPH --patterns FILE... [--steps N] [--all] [-o OUT.{json,py,dot,svg,png}] "
          "[--graph NAME|INDEX] [--json]\n"
          "FILE is a Python pattern file (register_replacement), a JSON pattern file, 'builtin' or 'builtin:NAME'; "
          "without --steps every match is applied (--all)\n";
    auto err = cmd.parse(args, {"--patterns", "--steps", "-o", "--output", "--graph"}, {"--json", "--all"});
    if (err || cmd.positional().empty() || cmd.values("--patterns").empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
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
    if (out && !isGraphOutputExtension(ext)) {
        std::fprintf(
            stderr, "%sexpected an output ending in .json, .py, .dot, .svg or .png, found '%s'\n", usage, out->c_str());
        return UsageError;
    }
    const std::vector<std::string> specs = patternSpecs(cmd);
    auto registry = std::make_shared<PatternRegistry>();
    if (!loadPatternSpecs(specs, *registry))
        return BadInput;
    int exitCode = Success;
    auto selected = loadSelectedGraph(cmd, exitCode);
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

    if (cmd.flag("--json")) {
        Json steps = Json::array();
        for (size_t i = 0; i < session.revision(); ++i) {
            const SessionStep &s = session.history()[i];
            steps.push(Json::object(
                {{"pattern", s.name}, {"anchor", s.anchor}, {"removed", names(s.removed)}, {"added", names(s.added)},
                    {"provenance", s.provenance}, {"nodes_before", s.nodesBefore}, {"nodes_after", s.nodesAfter}}));
        }
        Json root = Json::object({{"graph", named->name}, {"steps", std::move(steps)},
            {"nodes_before", named->graph->size()}, {"nodes_after", session.graph().size()},
            {"ops", diff.toJson()["ops"]}, {"lint", names(lint(session.graph()))}, {"warnings", warnings}});
        if (failed)
            root.set("error", applied.error().toString());
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        for (const Json &w : warnings.items())
            std::printf("warning: %s\n\n", w.toString().c_str());
        for (size_t i = 0; i < session.revision(); ++i) {
            const SessionStep &s = session.history()[i];
            std::printf("step %zu: %s at %s  (%zu -> %zu nodes)\n  removed: %s\n  added:   %s\n", i + 1, s.name.c_str(),
                s.anchor.c_str(), s.nodesBefore, s.nodesAfter, joinNames(s.removed).c_str(),
                joinNames(s.added).c_str());
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
    return failed ? RuntimeFailure : Success;
}

} // namespace fxs::cli
