#pragma once
// How `match` and `apply` print a batch: a table with one row per graph (streamed in input order, a summary at
// the end) and, for --json, one document {"graphs": [...], "skipped": [...], "summary": {...}}.

#include "batch_runner.h"
#include "util/json.h"

#include <string>
#include <vector>

namespace fxs::cli {

class BatchOutput {
public:
    // countNames: the command's counts, in BatchRow::counts order ("anchors", "candidates", "accepted").
    // byPatternName: what BatchRow::byPattern counts ("accepted", "steps").
    BatchOutput(std::vector<std::string> countNames, std::string byPatternName)
        : m_countNames(std::move(countNames)), m_byPatternName(std::move(byPatternName))
    {
    }

    // Runs `task` over the runner's graphs, printing rows as they finish (or the JSON document at the end); returns
    // the batch's exit code.
    int run(const BatchRunner &runner, const BatchRunner::GraphTask &task, bool json) const;

    void printHeader() const;
    void printRow(const BatchRow &row) const;
    // The skipped files (notes on stderr) and the totals line.
    void printSummary(const BatchResult &result) const;
    Json toJson(const BatchResult &result) const;

private:
    std::vector<std::string> m_countNames;
    std::string m_byPatternName;
};

} // namespace fxs::cli
