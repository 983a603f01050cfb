#include "profile_ranks.h"

#include "graph_selection.h"
#include "io/loader.h"
#include "rewrite/session.h"
#include "runtime/collective_ops.h"
#include "runtime/profile_export.h"
#include "runtime/rank_profile.h"

#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>

namespace fxs::cli {

namespace {

struct RankGraphs {
    GraphFile file;
    const NamedGraph *named = nullptr;
    std::optional<Session> session;
};

void printGraphTable(const Json &merged, const char *side, int ranks)
{
    const Json &g = merged[side];
    if (!g.isObject())
        return;
    std::printf("\n%s graph, median µs per rank\n%-28s %-44s", side, "node", "target");
    for (int r = 0; r < ranks; ++r)
        std::printf(" %9s%-2d", "rank ", r);
    std::printf("  slowest\n");
    for (const Json &n : g["nodes"].items()) {
        std::string name = n["name"].toString() + (n["collective"].toBool() ? " *" : "");
        std::printf("%-28s %-44s", name.c_str(), n["target"].toString().c_str());
        for (const Json &us : n["rank_us"].items())
            if (us.isNull())
                std::printf(" %11s", "-");
            else
                std::printf(" %11.1f", us.toDouble());
        std::printf("  rank %lld\n", static_cast<long long>(n["slowest_rank"].toInt()));
    }
}

void printRanksTable(const Json &merged)
{
    const int ranks = int(merged["ranks"].toInt());
    std::printf("device %s   %d ranks on %s   (* collective)\n", merged["device"].toString().c_str(), ranks,
        merged["backend"].toString().c_str());
    printGraphTable(merged, "unfused", ranks);
    printGraphTable(merged, "fused", ranks);
    const bool fused = merged["fused"].isObject();
    std::printf("\n%-5s %11s %14s %11s", "rank", "unfused ms", "collective ms", "compute ms");
    if (fused)
        std::printf(" %9s %14s %11s %8s  %s", "fused ms", "collective ms", "compute ms", "speedup", "outputs");
    std::printf("\n");
    for (const Json &r : merged["per_rank"].items()) {
        std::printf("%-5lld %11.3f %14.3f %11.3f", static_cast<long long>(r["rank"].toInt()),
            r["unfused"]["median_ms"].toDouble(), r["unfused_collective_ms"].toDouble(),
            r["unfused_compute_ms"].toDouble());
        if (fused) {
            const double a = r["unfused"]["median_ms"].toDouble(), b = r["fused"]["median_ms"].toDouble();
            std::printf(" %9.3f %14.3f %11.3f %7.2fx  %s (max abs diff %g)", b, r["fused_collective_ms"].toDouble(),
                r["fused_compute_ms"].toDouble(), b > 0 ? a / b : 0.0, r["outputs_match"].toBool() ? "match" : "DIFFER",
                r["max_abs_diff"].toDouble());
        }
        std::printf("\n");
        if (r["expected"].isObject())
            std::printf("      outputs against %s: %s (max abs diff %g)\n", r["expected"]["path"].toString().c_str(),
                r["expected"]["outputs_match"].toBool() ? "match" : "DIFFER", r["expected"]["max_abs_diff"].toDouble());
        if (r["outputs_detail"].isString())
            std::printf("      outputs: %s\n", r["outputs_detail"].toString().c_str());
    }
    std::printf("\nover the ranks (slowest rank): unfused %.3f ms (collectives %.3f, compute %.3f)",
        merged["unfused"]["median_ms"].toDouble(), merged["unfused"]["collective_ms"].toDouble(),
        merged["unfused"]["compute_ms"].toDouble());
    if (fused)
        std::printf("   fused %.3f ms   speedup %.2fx   outputs %s on every rank", merged["fused"]["median_ms"].toDouble(),
            merged["speedup"].toDouble(), merged["outputs_match"].toBool() ? "match" : "DIFFER");
    std::printf("\n");
    for (const Json &region : merged["regions"].items())
        std::printf("region %-24s at %-24s %10.1f µs -> %10.1f µs   %.2fx%s\n", region["pattern"].toString().c_str(),
            region["anchor"].toString().c_str(), region["unfused_us"].toDouble(), region["fused_us"].toDouble(),
            region["speedup"].toDouble(),
            region["reference_kernel"].toBool() ? " (reference kernel: outputs checked, time not the device's)" : "");
}

} // namespace

Result<std::string> rankPath(const std::string &path, int rank)
{
    return rankFilePath(path, rank);
}

int runProfileRanks(const CommandLine &cmd, const RanksRequest &request)
{
    const std::string graphPath = cmd.positional()[0];
    std::vector<RankGraphs> graphs(size_t(request.ranks));
    std::vector<RankJob> jobs(size_t(request.ranks));
    std::vector<std::string> groupNames;
    for (int r = 0; r < request.ranks; ++r) {
        RankGraphs &rg = graphs[size_t(r)];
        auto path = rankPath(graphPath, r);
        auto file = path ? loadGraphFile(path.value()) : Result<GraphFile>(path.error());
        if (!file) {
            std::fprintf(stderr, "%s\n", file.error().toString().c_str());
            return BadInput;
        }
        rg.file = std::move(file.value());
        std::string error;
        rg.named = selectGraph(rg.file, cmd, error);
        if (!rg.named) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return UsageError;
        }
        const CollectiveUse use = collectiveUse(*rg.named->graph);
        if (use.groupSize && *use.groupSize != request.ranks) {
            std::fprintf(stderr,
                "%s: the graph's collectives were captured on %lld ranks (group_size of node '%s'); run it with "
                "--ranks %lld\n",
                rg.file.path.c_str(), static_cast<long long>(*use.groupSize), use.groupSizeNode.c_str(),
                static_cast<long long>(*use.groupSize));
            return UsageError;
        }
        for (const auto &name : use.groupNames)
            if (std::find(groupNames.begin(), groupNames.end(), name) == groupNames.end())
                groupNames.push_back(name);
        if (!request.patternSpecs.empty()) {
            rg.session.emplace(rg.named->graph->clone(), request.registry);
            if (auto applied = rg.session->run(std::numeric_limits<size_t>::max()); !applied) {
                std::fprintf(stderr, "rank %d: %s\n", r, applied.error().toString().c_str());
                return RuntimeFailure;
            }
        }
        RankJob &job = jobs[size_t(r)];
        job.unfused = rg.named->graph.get();
        job.fused = rg.session ? &rg.session->graph() : nullptr;
        job.options = request.options;
        job.options.sourceFile = rg.file.path;
        job.options.seed = request.options.seed + uint64_t(r); // generated inputs differ per rank, as shards do
        for (std::string *p : {&job.options.inputsPath, &job.options.expectedOutputsPath})
            if (!p->empty()) {
                auto resolved = rankPath(*p, r);
                if (!resolved) {
                    std::fprintf(stderr, "%s\n", resolved.error().toString().c_str());
                    return BadInput;
                }
                *p = resolved.value();
            }
    }
    RankLauncher::Options launch;
    launch.timeout = std::chrono::milliseconds(int64_t(request.timeoutSeconds * 1000));
    launch.groupNames = groupNames;
    auto report = runtimeProfileRanks(jobs, launch);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().toString().c_str());
        return RuntimeFailure;
    }
    Json &merged = report->json;
    for (const Json &warning : merged["warnings"].items())
        std::fprintf(stderr, "warning: %s\n", warning.toString().c_str());
    for (const char *option : {"--trace", "--csv"}) {
        auto path = cmd.value(option);
        if (!path)
            continue;
        std::string bytes
            = std::string(option) == "--trace" ? profileRanksChromeTrace(merged) : profileRanksCsv(merged);
        if (auto written = writeFileAtomically(*path, bytes); !written) {
            std::fprintf(stderr, "%s\n", written.error().toString().c_str());
            return RuntimeFailure;
        }
    }
    if (cmd.flag("--json")) {
        merged.set("graph", graphs.front().named->name);
        merged.set("fused_steps", graphs.front().session ? int64_t(graphs.front().session->revision()) : int64_t(0));
        std::printf("%s\n", merged.dump(1).c_str());
    } else {
        printRanksTable(merged);
    }
    return Success;
}

} // namespace fxs::cli
