#include "batch_output.h"

#include "command_line.h"

#include <algorithm>
#include <cstdio>

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

Json byPatternJson(const std::vector<std::pair<std::string, size_t>> &byPattern)
{
    Json out = Json::object();
    for (const auto &[name, n] : byPattern)
        out.set(name, n);
    return out;
}

// JSON text made at indent 1 and level 0, moved to `level` (strings hold no raw newline, so every newline is
// the layout's): what Json::dump(1) of the whole document would print there.
std::string atLevel(std::string text, int level)
{
    const std::string indent(size_t(level), ' ');
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (char c : text) {
        out += c;
        if (c == '\n')
            out += indent;
    }
    return out;
}

void write(const std::string &text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

} // namespace

// Totals over the rows printed so far: the counts, and per pattern in the order first seen.
struct BatchOutput::Totals {
    std::vector<long long> counts;
    std::vector<std::pair<std::string, size_t>> byPattern, differByPattern, hintsByPattern;

    static void addTo(std::vector<std::pair<std::string, size_t>> &totals,
        const std::vector<std::pair<std::string, size_t>> &row)
    {
        for (const auto &[name, n] : row) {
            auto it = std::find_if(totals.begin(), totals.end(), [&](const auto &t) { return t.first == name; });
            if (it == totals.end())
                totals.emplace_back(name, n);
            else
                it->second += n;
        }
    }

    void add(const BatchRow &row)
    {
        for (size_t i = 0; i < counts.size() && i < row.counts.size(); ++i)
            counts[i] += row.counts[i];
        addTo(byPattern, row.byPattern);
        addTo(differByPattern, row.differByPattern);
        addTo(hintsByPattern, row.hintsByPattern);
    }
};

std::optional<BatchOutput::Format> BatchOutput::formatOf(bool json, bool jsonl)
{
    if (json && jsonl) {
        std::fprintf(stderr, "--json and --jsonl: name one (a document, or one line per graph)\n");
        return std::nullopt;
    }
    return json ? Format::Json : jsonl ? Format::Jsonl : Format::Table;
}

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
    std::string detail = row.ok() ? byPatternText(row.byPattern) : row.error;
    if (row.ok() && !row.differByPattern.empty())
        detail += " | numerics differ: " + byPatternText(row.differByPattern);
    if (row.ok() && !row.hintsByPattern.empty())
        detail += " | hints: " + byPatternText(row.hintsByPattern);
    std::printf(" %9.2f  %s%s%s\n", row.loadMs + row.ms, rowName(row).c_str(), detail.empty() ? "" : "  ",
        detail.c_str());
    std::fflush(stdout);
}

std::string BatchOutput::rowText(const BatchRow &row) const
{
    Json entry = Json::object({{"path", row.path}, {"graph", row.graph.empty() ? Json() : Json(row.graph)},
        {"status", row.ok() ? "ok" : "error"}, {"error", row.ok() ? Json() : Json(row.error)}, {"exit", row.exitCode},
        {"nodes", row.graph.empty() ? Json() : Json(row.nodes)}});
    // The command's counts sit beside nodes (null where the graph did not run).
    for (size_t i = 0; i < m_countNames.size(); ++i)
        entry.set(m_countNames[i], i < row.counts.size() ? Json(int64_t(row.counts[i])) : Json());
    entry.set("by_pattern", byPatternJson(row.byPattern));
    if (m_numerics)
        entry.set("numerics_differ_by_pattern", byPatternJson(row.differByPattern));
    if (m_hints)
        entry.set("hints_by_pattern", byPatternJson(row.hintsByPattern));
    entry.set("load_ms", row.loadMs);
    entry.set("ms", row.ms);
    if (!m_summaryOnly)
        entry.set("report", row.report);
    // In the document a graph's object sits at level 2 ({"graphs": [ here ]}).
    return m_format == Format::Jsonl ? entry.dump() : atLevel(entry.dump(1), 2);
}

int BatchOutput::run(const BatchRunner &runner, const BatchRunner::GraphTask &task) const
{
    Totals totals;
    totals.counts.assign(m_countNames.size(), 0);
    bool first = true;
    if (m_format == Format::Json)
        write("{\n \"graphs\": [");
    else if (m_format == Format::Table && !m_summaryOnly)
        printHeader();
    // The text is made on the worker; the report's tree is dropped there and only the text waits for its turn.
    auto finished = [&](BatchRow &row) {
        if (m_format == Format::Table)
            return;
        row.text = rowText(row);
        row.report = Json();
    };
    auto done = [&](const BatchRow &row) {
        totals.add(row);
        if (m_format == Format::Table) {
            if (!m_summaryOnly)
                printRow(row);
            return;
        }
        write(m_format == Format::Jsonl ? row.text + "\n" : (first ? "\n  " : ",\n  ") + row.text);
        first = false;
        std::fflush(stdout);
    };
    const BatchResult result = runner.run(task, done, finished);
    // A fusion whose numbers differ (--check-numerics) makes exit 6 when nothing failed, in the summary as well.
    const int exit = result.exitCode() == Success && !totals.differByPattern.empty() ? NumericsDiffer
                                                                                     : result.exitCode();
    if (m_format == Format::Json) {
        write(std::string(first ? "]" : "\n ]") + ",\n \"skipped\": " + atLevel(skippedJson(result).dump(1), 1)
            + ",\n \"summary\": " + atLevel(summaryJson(result, totals, exit).dump(1), 1) + "\n}\n");
    } else if (m_format == Format::Jsonl) {
        const Json last
            = Json::object({{"skipped", skippedJson(result)}, {"summary", summaryJson(result, totals, exit)}});
        write(last.dump() + "\n");
    } else {
        printSummary(result, totals);
    }
    std::fflush(stdout);
    return exit;
}

void BatchOutput::printSummary(const BatchResult &result, const Totals &totals) const
{
    for (const BatchSkip &s : result.skipped)
        std::fprintf(stderr, "note: skipped %s: %s\n", s.path.c_str(), s.reason.c_str());
    std::printf("%s%zu graphs from %zu files (%zu skipped): %zu ok, %zu failed", m_summaryOnly ? "" : "\n",
        result.graphs, result.files, result.skipped.size(), result.graphs - result.failed, result.failed);
    for (size_t i = 0; i < totals.counts.size(); ++i)
        std::printf("; %lld %s", totals.counts[i], m_countNames[i].c_str());
    if (!totals.byPattern.empty())
        std::printf("\n%s by pattern: %s", m_byPatternName.c_str(), byPatternText(totals.byPattern).c_str());
    if (!totals.differByPattern.empty())
        std::printf("\nnumerics differ by pattern: %s", byPatternText(totals.differByPattern).c_str());
    if (!totals.hintsByPattern.empty())
        std::printf("\nhints by pattern: %s", byPatternText(totals.hintsByPattern).c_str());
    std::printf("\n");
    const double seconds = result.wallMs / 1000;
    std::fprintf(stderr, "%zu graphs in %.2f s with %u jobs (%.1f graphs/s)\n", result.graphs, seconds, result.jobs,
        seconds > 0 ? double(result.graphs) / seconds : 0.0);
}

Json BatchOutput::skippedJson(const BatchResult &result) const
{
    Json skipped = Json::array();
    for (const BatchSkip &s : result.skipped)
        skipped.push(Json::object({{"path", s.path}, {"reason", s.reason}}));
    return skipped;
}

Json BatchOutput::summaryJson(const BatchResult &result, const Totals &totals, int exit) const
{
    const double seconds = result.wallMs / 1000;
    Json summary = Json::object({{"files", result.files}, {"graphs", result.graphs},
        {"ok", result.graphs - result.failed}, {"failed", result.failed}, {"skipped", result.skipped.size()},
        {"exit", exit}});
    for (size_t i = 0; i < totals.counts.size(); ++i)
        summary.set(m_countNames[i], Json(int64_t(totals.counts[i])));
    summary.set("by_pattern", byPatternJson(totals.byPattern));
    if (m_numerics)
        summary.set("numerics_differ_by_pattern", byPatternJson(totals.differByPattern));
    if (m_hints)
        summary.set("hints_by_pattern", byPatternJson(totals.hintsByPattern));
    summary.set("jobs", size_t(result.jobs));
    summary.set("wall_ms", result.wallMs);
    summary.set("graphs_per_s", seconds > 0 ? double(result.graphs) / seconds : 0.0);
    return summary;
}

} // namespace fxs::cli
