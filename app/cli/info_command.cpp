#include "info_command.h"

#include "command_line.h"
#include "graph_selection.h"
#include "recording_output.h"
#include "io/loader.h"
#include "util/json.h"

#include <cstdio>
#include <map>

namespace fxs::cli {

namespace {

std::vector<std::string> outputNames(const Graph &graph)
{
    std::vector<std::string> names;
    if (const Node *out = graph.outputNode())
        for (const auto &a : out->args())
            a.forEachNode([&](const Node *n) { names.push_back(n->name()); });
    return names;
}

size_t countNested(const Graph &graph)
{
    size_t total = 0;
    std::vector<const Graph *> stack{&graph};
    while (!stack.empty()) {
        const Graph *g = stack.back();
        stack.pop_back();
        for (const auto &s : g->subgraphs()) {
            total += s.second->size();
            stack.push_back(s.second.get());
        }
    }
    return total;
}

Json graphInfo(const NamedGraph &named)
{
    const Graph &g = *named.graph;
    std::map<OpKind, size_t> counts;
    for (const auto &n : g.nodes())
        ++counts[n->op()];
    Json ops = Json::object();
    for (OpKind op : kAllOpKinds)
        if (counts[op])
            ops.set(opKindName(op), counts[op]);
    Json inputs = Json::array();
    for (const Node *p : g.placeholders())
        inputs.push(p->name());
    Json outputs = Json::array();
    for (const auto &name : outputNames(g))
        outputs.push(name);
    Json subgraphs = Json::array();
    for (const auto &s : g.subgraphs())
        subgraphs.push(Json::object({{"name", s.first}, {"nodes", s.second->size()}}));
    return Json::object({{"name", named.name}, {"kind", named.kind}, {"line", named.line}, {"nodes", g.size()},
        {"ops", std::move(ops)}, {"inputs", std::move(inputs)}, {"outputs", std::move(outputs)},
        {"subgraphs", std::move(subgraphs)}, {"nested_nodes", countNested(g)}});
}

void printText(const GraphFile &file, const std::vector<const NamedGraph *> &graphs)
{
    std::printf("%s: %s, %zu graph%s\n", file.path.c_str(), file.format.c_str(), file.graphs.size(),
        file.graphs.size() == 1 ? "" : "s");
    for (const NamedGraph *named : graphs) {
        Json info = graphInfo(*named);
        std::printf("\n%s%s\n", named->name.c_str(),
            named->kind.empty() || named->kind == named->name ? "" : (" (" + named->kind + ")").c_str());
        std::printf("  nodes    %zu", size_t(info["nodes"].toInt()));
        if (info["nested_nodes"].toInt())
            std::printf(
                " (+%lld in %zu nested graphs)", (long long)info["nested_nodes"].toInt(), info["subgraphs"].size());
        std::printf("\n");
        for (const auto &op : info["ops"].members())
            std::printf("  %-14s %lld\n", op.first.c_str(), (long long)op.second.toInt());
        std::printf("  inputs   %zu\n  outputs  %zu\n", info["inputs"].size(), info["outputs"].size());
    }
    for (const auto &w : file.warnings)
        std::fprintf(stderr, "warning: %s\n", w.toString().c_str());
}

} // namespace

int runInfo(const std::vector<std::string> &args)
{
    const char *usage = "usage: fxscope-cli info GRAPH [--graph NAME|INDEX] [--anchors] [--json]\n"
                        "the format of GRAPH, its graphs, their node counts by op, inputs and outputs;\n"
                        "for a recording (python -m fxscope_capture.record), its passes per rank and graph\n"
                        "and the fusion matrix\n"
                        "  --graph NAME|INDEX  only this graph of a file that holds several\n"
                        "  --anchors           a recording's anchors per pattern, with torch's reasons\n"
                        "  --json              one JSON document on stdout (docs/cli-json-contract.md)\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    if (auto err = cmd.parse(args, {"--graph"}, {"--json", "--anchors"}); err || cmd.positional().size() != 1) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    auto file = loadGraphFile(cmd.positional()[0]);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        return BadInput;
    }
    std::vector<const NamedGraph *> graphs;
    if (cmd.value("--graph")) {
        std::string error;
        const NamedGraph *g = selectGraph(file.value(), cmd, error);
        if (!g) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return UsageError;
        }
        graphs.push_back(g);
    } else {
        for (const auto &g : file->graphs)
            graphs.push_back(&g);
    }
    if (!cmd.flag("--json") && file->recording && !cmd.value("--graph")) {
        printRecording(file.value(), cmd.flag("--anchors"));
        return Success;
    }
    if (!cmd.flag("--json")) {
        printText(file.value(), graphs);
        return Success;
    }
    Json list = Json::array();
    for (const NamedGraph *g : graphs)
        list.push(graphInfo(*g));
    Json warnings = Json::array();
    for (const auto &w : file->warnings)
        warnings.push(w.toString());
    Json root = Json::object({{"path", file->path}, {"format", file->format}, {"graphs", std::move(list)},
        {"warnings", std::move(warnings)}});
    if (file->recording)
        root.set("recording", recordingToJson(file.value()));
    std::printf("%s\n", root.dump(2).c_str());
    return Success;
}

} // namespace fxs::cli
