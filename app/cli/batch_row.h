#pragma once
// One graph of a batch run (`match`/`apply` over several files or directories) and what the command made of it.

#include "util/json.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace fxs::cli {

struct BatchRow {
    std::string path; // the file as named or found in a directory
    std::string relativePath; // below the directory named, led by that directory's name; empty for a file named
    std::string graph; // the graph's name in the file (empty when it did not load)
    size_t graphCount = 0; // graphs the file holds: the table names the graph when there are several
    int exitCode = 0; // what the single-graph command would have exited with (0, 1, 2 or 3)
    std::string error; // FILE:LINE:COL: ... (or the run's error) when exitCode != 0
    size_t nodes = 0;
    double loadMs = 0; // reading and parsing the file, shared by its graphs (on the file's first row)
    double ms = 0; // the command's own work on this graph
    // Filled by the command: its counts (one per column it names), accepted or applied per pattern, and the
    // single-graph command's JSON when --json asked for it.
    std::vector<long long> counts;
    std::vector<std::pair<std::string, size_t>> byPattern;
    // --check-numerics: per pattern, the fusions whose outputs differ from the nodes they replace.
    std::vector<std::pair<std::string, size_t>> differByPattern;
    // --hints: per pattern, the verified near-miss hints found on this graph.
    std::vector<std::pair<std::string, size_t>> hintsByPattern;
    Json report;
    // The row as the output prints it, made on the worker as soon as the row is done (the report is then
    // dropped: its text is a fraction of the tree's memory while the row waits for the rows before it).
    std::string text;

    bool ok() const { return exitCode == 0; }

    // --check-numerics: the fusions that ran, as (pattern, equal), become two more counts (equal, differing) and the
    // differing ones per pattern (which make the batch's exit 6).
    void countNumerics(const std::vector<std::pair<std::string, bool>> &fusions)
    {
        long long equal = 0, differ = 0;
        for (const auto &[pattern, same] : fusions) {
            equal += same;
            if (same)
                continue;
            ++differ;
            auto it = std::find_if(differByPattern.begin(), differByPattern.end(),
                [&](const auto &entry) { return entry.first == pattern; });
            if (it == differByPattern.end())
                differByPattern.emplace_back(pattern, 1);
            else
                ++it->second;
        }
        counts.insert(counts.end(), {equal, differ});
    }
};

} // namespace fxs::cli
