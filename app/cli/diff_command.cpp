#include "diff_command.h"

#include "command_line.h"
#include "compare/graph_comparison.h"
#include "graph_selection.h"
#include "io/loader.h"
#include "rewrite/graph_diff.h"

#include <cstdio>
#include <optional>

namespace fxs::cli {

namespace {

const char *kDiffUsage
    = "usage: fxscope-cli diff A B [--graph-a NAME|INDEX] [--graph-b NAME|INDEX] [--json]\n"
      "the structural diff of two graphs: what paired, what changed, regions only one side has; exit 0 when equal,\n"
      "5 when they differ\n"
      "  --graph-a NAME|INDEX  the graph of A when its file holds several\n"
      "  --graph-b NAME|INDEX  the graph of B when its file holds several\n"
      "  --json                one JSON document on stdout (docs/diff.md)\n";

struct Side {
    GraphFile file;
    const NamedGraph *named = nullptr;
};

// One side: its file and the graph its --graph-X option picks (else the only graph of the file).
std::optional<Side> loadSide(const std::string &path, const std::optional<std::string> &choice, int &exitCode)
{
    auto file = loadGraphFile(path);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        exitCode = BadInput;
        return std::nullopt;
    }
    for (const auto &w : file->warnings)
        std::fprintf(stderr, "warning: %s\n", w.toString().c_str());
    CommandLine selection; // selectGraph reads --graph
    std::vector<std::string> option;
    if (choice)
        option = {"--graph", *choice};
    selection.parse(option, {"--graph"}, {});
    Side side{std::move(file).value(), nullptr};
    std::string error;
    side.named = selectGraph(side.file, selection, error);
    if (!side.named) {
        std::fprintf(stderr, "%s\n", error.c_str());
        exitCode = UsageError;
        return std::nullopt;
    }
    return side;
}

Json describeSide(const Side &side)
{
    return Json::object(
        {{"path", side.file.path}, {"graph", side.named->name}, {"nodes", side.named->graph->size()}});
}

void printRegion(const GraphComparison &c, const CompareRegion &r, size_t number)
{
    std::printf("\nregion %zu (%s): %s\n", number, regionKindName(r.kind), r.description.c_str());
    if (r.kind == RegionKind::Changed) {
        for (uint32_t i : r.a) {
            const NodeChange *change = c.changeOfA(i);
            std::printf("  %s", c.a.names[i].c_str());
            if (c.b.names[change->b] != c.a.names[i])
                std::printf(" = B's %s", c.b.names[change->b].c_str());
            std::printf("\n");
            for (const FieldChange &f : change->fields)
                std::printf("    %-7s %s\n    %-7s %s\n", f.field.c_str(), f.a.c_str(), "", ("→ " + f.b).c_str());
        }
        return;
    }
    for (uint32_t i : r.a)
        std::printf("  A  %-28s %s\n", c.a.names[i].c_str(), c.a.ops[i].c_str());
    for (uint32_t j : r.b)
        std::printf("  B  %-28s %s\n", c.b.names[j].c_str(), c.b.ops[j].c_str());
}

void printText(const Side &a, const Side &b, const GraphComparison &c)
{
    std::printf("A: %s [%s]  %zu nodes\nB: %s [%s]  %zu nodes\n", a.file.path.c_str(), a.named->name.c_str(),
        c.a.names.size(), b.file.path.c_str(), b.named->name.c_str(), c.b.names.size());
    std::printf("%s: paired %zu (by provenance %zu, name %zu, structure %zu), changed %zu, only in A %zu, only in "
                "B %zu, %zu region%s\n",
        c.equal() ? "equal" : "different", c.pairedCount(), c.pairedBy(PairedBy::Provenance),
        c.pairedBy(PairedBy::Name), c.pairedBy(PairedBy::Structure), c.changes.size(), c.onlyInA(), c.onlyInB(),
        c.regions.size(), c.regions.size() == 1 ? "" : "s");
    // The per-op table of the session diff, A as "before" and B as "after".
    GraphDiff counts;
    counts.opCounts = c.opCounts;
    counts.nodesBefore = c.a.names.size();
    counts.nodesAfter = c.b.names.size();
    std::printf("\n%s", counts.opTable().c_str());
    for (size_t k = 0; k < c.regions.size(); ++k)
        printRegion(c, c.regions[k], k + 1);
}

} // namespace

int runDiff(const std::vector<std::string> &args)
{
    if (helpRequested(args))
        return printHelp(kDiffUsage);
    CommandLine cmd;
    if (auto err = cmd.parse(args, {"--graph-a", "--graph-b"}, {"--json"}); err || cmd.positional().size() != 2) {
        std::fprintf(stderr, "%s%s\n", kDiffUsage, err ? err->c_str() : "");
        return UsageError;
    }
    int exitCode = Success;
    const std::optional<Side> a = loadSide(cmd.positional()[0], cmd.value("--graph-a"), exitCode);
    if (!a)
        return exitCode;
    const std::optional<Side> b = loadSide(cmd.positional()[1], cmd.value("--graph-b"), exitCode);
    if (!b)
        return exitCode;
    const GraphComparison comparison = compareGraphs(*a->named->graph, *b->named->graph);
    if (cmd.flag("--json")) {
        Json root = comparison.toJson();
        root.set("a", describeSide(*a));
        root.set("b", describeSide(*b));
        std::printf("%s\n", root.dump(2).c_str());
    } else {
        printText(*a, *b, comparison);
    }
    return comparison.equal() ? Success : kGraphsDiffer;
}

} // namespace fxs::cli
