#include "rank_profile.h"

#include "collective_ops.h"

#include <algorithm>
#include <glob.h>
#include <map>

namespace fxs {

namespace {

// Per node over the ranks: the slowest rank's median (a step waits for it), which rank that was, and every rank's.
Json mergeGraph(const std::vector<Json> &reports, const char *side, Json &perRank)
{
    Json nodes = Json::array();
    std::map<std::string, size_t> rowOf;
    std::vector<std::pair<std::string, std::string>> order; // name, target in the first rank's order
    double medianMs = 0;
    for (size_t r = 0; r < reports.size(); ++r) {
        const Json &g = reports[r][side];
        medianMs = std::max(medianMs, g["median_ms"].toDouble());
        double collectiveUs = 0, computeUs = 0;
        for (const Json &n : g["nodes"].items()) {
            const bool collective = isCollectiveTarget(n["target"].toString());
            (collective ? collectiveUs : computeUs) += n["median_us"].toDouble();
        }
        perRank.items()[r].set(std::string(side) + "_collective_ms", collectiveUs / 1000);
        perRank.items()[r].set(std::string(side) + "_compute_ms", computeUs / 1000);
    }
    std::vector<std::map<std::string, double>> byRank(reports.size());
    for (size_t r = 0; r < reports.size(); ++r)
        for (const Json &n : reports[r][side]["nodes"].items()) {
            byRank[r][n["name"].toString()] = n["median_us"].toDouble();
            if (!rowOf.count(n["name"].toString())) {
                rowOf[n["name"].toString()] = order.size();
                order.emplace_back(n["name"].toString(), n["target"].toString());
            }
        }
    double collectiveUs = 0, computeUs = 0;
    for (const auto &[name, target] : order) {
        Json ranks = Json::array();
        double slowest = -1;
        int64_t slowestRank = 0;
        for (size_t r = 0; r < reports.size(); ++r) {
            auto it = byRank[r].find(name);
            if (it == byRank[r].end()) {
                ranks.push(Json());
                continue;
            }
            ranks.push(it->second);
            if (it->second > slowest) {
                slowest = it->second;
                slowestRank = int64_t(r);
            }
        }
        const bool collective = isCollectiveTarget(target);
        (collective ? collectiveUs : computeUs) += slowest;
        nodes.push(Json::object({{"name", name}, {"target", target}, {"median_us", slowest},
            {"slowest_rank", slowestRank}, {"rank_us", std::move(ranks)}, {"collective", collective}}));
    }
    return Json::object({{"median_ms", medianMs}, {"nodes", std::move(nodes)}, {"collective_ms", collectiveUs / 1000},
        {"compute_ms", computeUs / 1000}});
}

std::string substitute(std::string text, int rank)
{
    for (size_t at; (at = text.find("{r}")) != std::string::npos;)
        text.replace(at, 3, std::to_string(rank));
    return text;
}

} // namespace

Result<std::string> rankFilePath(const std::string &path, int rank)
{
    const std::string p = substitute(path, rank);
    if (p.find_first_of("*?[") == std::string::npos)
        return p;
    glob_t found {};
    const int rc = glob(p.c_str(), 0, nullptr, &found);
    std::vector<std::string> matches;
    for (size_t i = 0; rc == 0 && i < found.gl_pathc; ++i)
        matches.push_back(found.gl_pathv[i]);
    globfree(&found);
    if (matches.size() == 1)
        return matches.front();
    std::string error = "rank " + std::to_string(rank) + ": " + p + " matches "
        + (matches.empty() ? std::string("no file") : std::to_string(matches.size()) + " files");
    for (const auto &m : matches)
        error += "\n  " + m;
    return Error{p, 0, 0, error};
}

Json mergeRankReports(const std::vector<Json> &reports)
{
    Json perRank = Json::array();
    for (size_t r = 0; r < reports.size(); ++r) {
        Json rank = reports[r];
        rank.set("rank", int64_t(r));
        perRank.push(std::move(rank));
    }
    const Json &first = reports.front();
    Json root = Json::object({{"device", first["device"]}, {"ranks", int64_t(reports.size())},
        {"backend", first["backend"]}, {"unfused", mergeGraph(reports, "unfused", perRank)}});
    const bool fused = first["fused"].isObject();
    bool match = true, expected = true, anyExpected = false;
    double maxAbs = 0;
    Json warnings = Json::array();
    for (const Json &report : reports) {
        match = match && report["outputs_match"].toBool();
        maxAbs = std::max(maxAbs, report["max_abs_diff"].toDouble());
        if (report["expected"].isObject()) {
            anyExpected = true;
            expected = expected && report["expected"]["outputs_match"].toBool();
        }
        for (const Json &w : report["warnings"].items())
            warnings.push("rank " + std::to_string(report["rank"].toInt()) + ": " + w.toString());
    }
    if (fused) {
        root.set("fused", mergeGraph(reports, "fused", perRank));
        const double a = root["unfused"]["median_ms"].toDouble(), b = root["fused"]["median_ms"].toDouble();
        root.set("speedup", b > 0 ? a / b : 0.0);
        root.set("outputs_match", match);
        root.set("max_abs_diff", maxAbs);
        // Regions over the ranks: each side's slowest rank.
        Json regions = Json::array();
        for (size_t i = 0; i < first["regions"].items().size(); ++i) {
            Json region = first["regions"].items()[i];
            double before = 0, after = 0;
            for (const Json &report : reports)
                if (i < report["regions"].items().size()) {
                    before = std::max(before, report["regions"].items()[i]["unfused_us"].toDouble());
                    after = std::max(after, report["regions"].items()[i]["fused_us"].toDouble());
                }
            region.set("unfused_us", before);
            region.set("fused_us", after);
            region.set("speedup", region["complete"].toBool() && after > 0 ? before / after : 0.0);
            regions.push(std::move(region));
        }
        root.set("regions", std::move(regions));
        if (first["reference_kernel_nodes"].isInt())
            root.set("reference_kernel_nodes", first["reference_kernel_nodes"]);
    }
    if (anyExpected)
        root.set("expected_match", expected);
    if (!warnings.items().empty())
        root.set("warnings", std::move(warnings));
    root.set("per_rank", std::move(perRank));
    return root;
}

Result<RanksReport> runtimeProfileRanks(const std::vector<RankJob> &jobs, const RankLauncher::Options &options)
{
    RankLauncher launcher(options);
    auto reports = launcher.run(jobs);
    if (!reports)
        return reports.error();
    RanksReport out;
    for (size_t r = 0; r < reports.value().size(); ++r) {
        auto report = profileReportFromJson(reports.value()[r], jobs[r].options.sourceFile);
        if (!report)
            return Error{report.error().file, report.error().line, report.error().column,
                "rank " + std::to_string(r) + ": " + report.error().message};
        out.ranks.push_back(std::move(report.value()));
    }
    out.json = mergeRankReports(reports.value());
    return out;
}

} // namespace fxs
