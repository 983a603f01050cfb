#include "recording_output.h"

#include "compare/fusion_matrix.h"

#include <algorithm>
#include <cstdio>

namespace fxs::cli {

namespace {

size_t nodesAfter(const GraphFile &file, const RecordedStep &step)
{
    return step.graph >= 0 ? file.graphs[size_t(step.graph)].graph->size() : 0;
}

// What a step did to the graph's size: "", "unchanged", "changed" (same size), "+3 nodes", "-14 nodes".
std::string changeText(const RecordedStep &step, size_t before, size_t nodes)
{
    if (step.index == 0)
        return {};
    if (!step.changed)
        return "unchanged";
    if (nodes == before)
        return "changed";
    return (nodes > before ? "+" + std::to_string(nodes - before) : "-" + std::to_string(before - nodes)) + " nodes";
}

std::string shortName(const std::string &name, size_t width)
{
    return name.size() <= width ? name : "…" + name.substr(name.size() - width + 1);
}

void printMatrix(const FusionMatrix &matrix)
{
    if (matrix.rows.empty()) {
        std::printf("\nno pattern was tried\n");
        return;
    }
    std::printf("\nfusion matrix: replaced per pattern and graph (tried in brackets)%s\n",
        matrix.disagreements() ? "; * where ranks disagree about the same graph" : "");
    size_t nameWidth = 8;
    for (const auto &r : matrix.rows)
        nameWidth = std::max(nameWidth, std::min<size_t>(r.pattern.size(), 60));
    std::printf("  %-*s", int(nameWidth), "pattern");
    for (const auto &c : matrix.columns)
        std::printf("  %18s", ("r" + std::to_string(c.rank) + " " + shortName(c.stream, 14)).c_str());
    std::printf("\n");
    for (const auto &r : matrix.rows) {
        std::printf("  %-*s", int(nameWidth), shortName(r.pattern, nameWidth).c_str());
        for (const auto &c : r.cells) {
            const std::string cell = !c.present ? std::string("-")
                                                : std::to_string(c.replaced) + " (" + std::to_string(c.tried) + ")" +
                    (c.disagrees ? "*" : "");
            std::printf("  %18s", cell.c_str());
        }
        std::printf("\n");
    }
}

} // namespace

void printRecording(const GraphFile &file, bool withAnchors)
{
    const Recording &rec = *file.recording;
    std::printf("%s: recording of a torch.compile run (torch %s), %zu rank%s, %zu compiled graph%s, %zu graphs\n",
        file.path.c_str(), rec.torchVersion.c_str(), rec.ranks().size(), rec.ranks().size() == 1 ? "" : "s",
        rec.streams.size(), rec.streams.size() == 1 ? "" : "s", file.graphs.size());
    if (!rec.command.empty())
        std::printf("command: %s\n", rec.command.c_str());
    for (const auto &s : rec.streams) {
        std::printf("\nrank%d/%s (%s, %zu step%s)\n", s.rank, s.name.c_str(), s.kind.c_str(), s.steps.size(),
            s.steps.size() == 1 ? "" : "s");
        size_t before = 0;
        for (const auto &step : s.steps) {
            const size_t nodes = nodesAfter(file, step);
            std::printf("  %03d  %-36s %6zu nodes  %-11s", step.index, step.pass.c_str(), nodes,
                changeText(step, before, nodes).c_str());
            if (!step.patternPasses.empty())
                std::printf("  %lld replaced", (long long)step.replaced());
            if (step.seconds > 0)
                std::printf("  %.1f ms", step.seconds * 1e3);
            std::printf("\n");
            if (!step.error.empty())
                std::printf("       raised %s\n", step.error.c_str());
            for (const auto &pass : step.patternPasses)
                for (const auto &p : pass.patterns) {
                    std::printf("       %-50s replaced %lld of %lld tried%s", p.name.c_str(), (long long)p.replaced,
                        (long long)p.tried, pass.otherGraph ? " in a graph a check traced" : "");
                    if (p.extraCheckFalse)
                        std::printf(", extra_check False %lld", (long long)p.extraCheckFalse);
                    if (p.discarded)
                        std::printf(", discarded %lld", (long long)p.discarded);
                    std::printf("\n");
                    if (withAnchors)
                        for (const auto &a : p.anchors)
                            std::printf("         %-24s %-11s %s\n", a.anchor.c_str(), a.verdict.c_str(),
                                a.reason.c_str());
                }
            before = nodes;
        }
    }
    printMatrix(fusionMatrix(rec));
    for (const auto &w : file.warnings)
        std::fprintf(stderr, "warning: %s\n", w.toString().c_str());
}

Json recordingToJson(const GraphFile &file)
{
    const Recording &rec = *file.recording;
    Json streams = Json::array();
    for (const auto &s : rec.streams) {
        Json steps = Json::array();
        for (const auto &step : s.steps) {
            Json passes = Json::array();
            for (const auto &pass : step.patternPasses) {
                Json patterns = Json::array();
                for (const auto &p : pass.patterns) {
                    Json anchors = Json::array();
                    for (const auto &a : p.anchors)
                        anchors.push(Json::object({{"anchor", a.anchor}, {"target", a.target},
                            {"verdict", a.verdict}, {"reason", a.reason}}));
                    patterns.push(Json::object({{"name", p.name}, {"source", p.source}, {"entry", p.entry},
                        {"tried", p.tried}, {"matched", p.matched}, {"replaced", p.replaced},
                        {"extra_check_false", p.extraCheckFalse}, {"discarded", p.discarded},
                        {"anchors", std::move(anchors)}}));
                }
                passes.push(Json::object({{"pass", pass.identity}, {"created_at", pass.createdAt},
                    {"replaced", pass.replaced}, {"seconds", pass.seconds}, {"other_graph", pass.otherGraph},
                    {"patterns", std::move(patterns)}}));
            }
            steps.push(Json::object({{"index", int64_t(step.index)}, {"pass", step.pass}, {"kind", step.kind},
                {"changed", step.changed}, {"seconds", step.seconds}, {"nodes", nodesAfter(file, step)},
                {"graph", step.graph >= 0 ? Json(file.graphs[size_t(step.graph)].name) : Json()},
                {"error", step.error}, {"pattern_passes", std::move(passes)}}));
        }
        streams.push(Json::object({{"rank", int64_t(s.rank)}, {"graph", s.name}, {"kind", s.kind},
            {"steps", std::move(steps)}}));
    }
    return Json::object({{"folder", rec.folder}, {"torch", rec.torchVersion}, {"command", rec.command},
        {"streams", std::move(streams)}, {"fusion_matrix", fusionMatrix(rec).toJson()}});
}

} // namespace fxs::cli
