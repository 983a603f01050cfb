#include "batch_output.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace fxs::cli {

namespace {

int columnWidth(const std::string &name)
{
    return std::max<int>(int(name.size()), 7);
}

std::string rowName(const BatchRow &row)
{
    return row.graphCount > 1 ? row.path + " [" + row.graph + "]" : row.path;
}

std::string byPatternText(const std::vector<std::pair<std::string, size_t>> &byPattern)
{
    std::string text;
    for (const auto &[name, n] : byPattern)
        text += (text.empty() ? "" : ", ") + name + " " + std::to_string(n);
    return text;
}

// Totals over the rows that ran, per pattern in the order first seen.
std::vector<std::pair<std::string, size_t>> totalByPattern(const std::vector<BatchRow> &rows)
{
    std::vector<std::pair<std::string, size_t>> totals;
    for (const BatchRow &row : rows)
        for (const auto &[name, n] : row.byPattern) {
            auto it = std::find_if(totals.begin(), totals.end(), [&](const auto &t) { return t.first == name; });
            if (it == totals.end())
                totals.emplace_back(name, n);
            else
                it->second += n;
        }
    return totals;
}

} // namespace

void BatchOutput::printHeader() const
{
    std::printf("%-6s %7s", "status", "nodes");
    for (const auto &name : m_countNames)
        std::printf(" %*s", columnWidth(name), name.c_str());
    std::printf(" %9s  %s\n", "ms", ("graph  " + m_byPatternName + " by pattern | error").c_str());
}

void BatchOutput::printRow(const BatchRow &row) const
{
    std::printf("%-6s", row.ok() ? "ok" : "error");
    if (row.graph.empty())
        std::printf(" %7s", "-");
    else
        std::printf(" %7zu", row.nodes);
    for (size_t i = 0; i < m_countNames.size(); ++i) {
        if (i < row.counts.size())
            std::printf(" %*lld", columnWidth(m_countNames[i]), row.counts[i]);
        else
            std::printf(" %*s", columnWidth(m_countNames[i]), "-");
    }
    const std::string detail = row.ok() ? byPatternText(row.byPattern) : row.error;
    std::printf(" %9.2f  %s%s%s\n", row.loadMs + row.ms, rowName(row).c_str(), detail.empty() ? "" : "  ",
        detail.c_str());
    std::fflush(stdout);
}

int BatchOutput::run(const BatchRunner &runner, const BatchRunner::GraphTask &task, bool json) const
{
    if (!json)
        printHeader();
    BatchResult result = runner.run(task, [&](const BatchRow &row) {
        if (!json)
            printRow(row);
    });
    if (json)
        std::printf("%s\n", toJson(result).dump(1).c_str());
    else
        printSummary(result);
    return result.exitCode();
}

void BatchOutput::printSummary(const BatchResult &result) const
{
    for (const BatchSkip &s : result.skipped)
        std::fprintf(stderr, "note: skipped %s: %s\n", s.path.c_str(), s.reason.c_str());
    size_t failed = 0;
    std::vector<long long> totals(m_countNames.size(), 0);
    for (const BatchRow &row : result.rows) {
        failed += row.ok() ? 0 : 1;
        for (size_t i = 0; i < totals.size() && i < row.counts.size(); ++i)
            totals[i] += row.counts[i];
    }
    std::printf("\n%zu graphs from %zu files (%zu skipped): %zu ok, %zu failed", result.rows.size(), result.files,
        result.skipped.size(), result.rows.size() - failed, failed);
    for (size_t i = 0; i < totals.size(); ++i)
        std::printf("; %lld %s", totals[i], m_countNames[i].c_str());
    if (const auto byPattern = totalByPattern(result.rows); !byPattern.empty())
        std::printf("\n%s by pattern: %s", m_byPatternName.c_str(), byPatternText(byPattern).c_str());
    std::printf("\n");
    const double seconds = result.wallMs / 1000;
    std::fprintf(stderr, "%zu graphs in %.2f s with %u jobs (%.1f graphs/s)\n", result.rows.size(), seconds,
        result.jobs, seconds > 0 ? double(result.rows.size()) / seconds : 0.0);
}

Json BatchOutput::toJson(const BatchResult &result) const
{
    Json graphs = Json::array();
    std::vector<long long> totals(m_countNames.size(), 0);
    size_t failed = 0;
    for (const BatchRow &row : result.rows) {
        Json byPattern = Json::object();
        for (const auto &[name, n] : row.byPattern)
            byPattern.set(name, n);
        failed += row.ok() ? 0 : 1;
        Json entry = Json::object({{"path", row.path}, {"graph", row.graph.empty() ? Json() : Json(row.graph)},
            {"status", row.ok() ? "ok" : "error"}, {"error", row.ok() ? Json() : Json(row.error)},
            {"exit", row.exitCode}, {"nodes", row.graph.empty() ? Json() : Json(row.nodes)}});
        // The command's counts sit beside nodes (null where the graph did not run).
        for (size_t i = 0; i < m_countNames.size(); ++i) {
            entry.set(m_countNames[i], i < row.counts.size() ? Json(int64_t(row.counts[i])) : Json());
            totals[i] += i < row.counts.size() ? row.counts[i] : 0;
        }
        entry.set("by_pattern", std::move(byPattern));
        entry.set("load_ms", row.loadMs);
        entry.set("ms", row.ms);
        entry.set("report", row.report);
        graphs.push(std::move(entry));
    }
    Json skipped = Json::array();
    for (const BatchSkip &s : result.skipped)
        skipped.push(Json::object({{"path", s.path}, {"reason", s.reason}}));
    Json byPattern = Json::object();
    for (const auto &[name, n] : totalByPattern(result.rows))
        byPattern.set(name, n);
    const double seconds = result.wallMs / 1000;
    Json summary = Json::object({{"files", result.files}, {"graphs", result.rows.size()},
        {"ok", result.rows.size() - failed}, {"failed", failed}, {"skipped", result.skipped.size()},
        {"exit", result.exitCode()}});
    for (size_t i = 0; i < totals.size(); ++i)
        summary.set(m_countNames[i], Json(int64_t(totals[i])));
    summary.set("by_pattern", std::move(byPattern));
    summary.set("jobs", size_t(result.jobs));
    summary.set("wall_ms", result.wallMs);
    summary.set("graphs_per_s", seconds > 0 ? double(result.rows.size()) / seconds : 0.0);
    return Json::object({{"graphs", std::move(graphs)}, {"skipped", std::move(skipped)}, {"summary", std::move(summary)}});
}

} // namespace fxs::cli
