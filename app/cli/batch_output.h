#pragma once
// How `match` and `apply` print a batch, row by row as the rows come in input order (nothing is kept per graph
// but counts, so a zoo of any size runs in the memory of the graphs in flight):
//   the table: one row per graph, then the totals (--summary: the totals alone);
//   --json: one document {"graphs": [...], "skipped": [...], "summary": {...}}, each graph's object written as
//     soon as it is done, so the document is valid once the run ends;
//   --jsonl: one graph's object per line, then a line {"skipped": [...], "summary": {...}}.
// --summary drops each graph's "report" (the single-graph command's JSON) and the command does not make it.

#include "batch_runner.h"
#include "util/json.h"

#include <optional>
#include <string>
#include <vector>

namespace fxs::cli {

class BatchOutput {
public:
    enum class Format { Table, Json, Jsonl };

    // countNames: the command's counts, in BatchRow::counts order ("anchors", "candidates", "accepted").
    // byPatternName: what BatchRow::byPattern counts ("accepted", "steps").
    BatchOutput(std::vector<std::string> countNames, std::string byPatternName, Format format, bool summaryOnly)
        : m_countNames(std::move(countNames)), m_byPatternName(std::move(byPatternName)), m_format(format),
          m_summaryOnly(summaryOnly)
    {
    }

    // The format --json and --jsonl ask for; nullopt after printing the error when both are given.
    static std::optional<Format> formatOf(bool json, bool jsonl);

    // --check-numerics: rows and the summary give the fusions whose numerics differ, per pattern.
    void showNumerics() { m_numerics = true; }
    void showHints() { m_hints = true; }

    // Whether the command's task should fill BatchRow::report.
    bool wantsReports() const { return m_format != Format::Table && !m_summaryOnly; }

    // Runs `task` over the runner's graphs, printing each row as soon as the rows before it are printed; returns the
    // batch's exit code.
    int run(const BatchRunner &runner, const BatchRunner::GraphTask &task) const;

private:
    struct Totals;

    void printHeader() const;
    void printRow(const BatchRow &row) const;
    // The row's object in --json (indented as the document's) or --jsonl (one line).
    std::string rowText(const BatchRow &row) const;
    // The skipped files (notes on stderr) and the totals line.
    void printSummary(const BatchResult &result, const Totals &totals) const;
    Json skippedJson(const BatchResult &result) const;
    Json summaryJson(const BatchResult &result, const Totals &totals, int exit) const;

    std::vector<std::string> m_countNames;
    std::string m_byPatternName;
    Format m_format;
    bool m_summaryOnly;
    bool m_numerics = false;
    bool m_hints = false;
};

} // namespace fxs::cli
