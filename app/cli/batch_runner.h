#pragma once
// `match` and `apply` over many graphs: the files named and every graph dump under the directories named
// (walked recursively, sniffed by content as the loader does; what is not a graph dump is skipped with a note),
// loaded and run on a WorkerPool. Every graph gives a BatchRow, handed over in input order whatever order the
// workers finish in; a file that does not load is a row with its error and never stops the others.

#include "batch_row.h"
#include "ir/graph_file.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fxs::cli {

struct BatchSkip {
    std::string path;
    std::string reason;
};

// What a batch run leaves once every row has gone to RowDone: counts, not rows, so memory does not grow with the
// number of graphs.
struct BatchResult {
    std::vector<BatchSkip> skipped;
    size_t files = 0; // graph files loaded or tried (skipped ones not counted)
    size_t graphs = 0; // rows
    size_t failed = 0; // rows that are not ok
    unsigned jobs = 1;
    double wallMs = 0;

    void add(const BatchRow &row);
    // 3 when a graph failed at run time, else 2 when a file failed to load (or a graph was not found, or a pass
    // stopped where Inductor's would raise), else 0.
    int exitCode() const { return m_exit; }

private:
    int m_exit = 0;
};

class BatchRunner {
public:
    struct Options {
        std::vector<std::string> inputs; // files and directories, in the order given
        std::optional<std::string> graphChoice; // --graph: picks the graph of files that hold several
        unsigned jobs = 1;
    };
    // Runs the command on graph `index` of `file` and fills row's exitCode, error, counts, byPattern and report.
    // Called concurrently from the workers: it may only read what it shares with other calls.
    using GraphTask = std::function<void(const GraphFile &file, size_t index, BatchRow &row)>;
    // Called on the worker as soon as a row is complete (timings included), concurrently for different rows: where
    // a row's output text is made while the other workers go on.
    using RowFinished = std::function<void(BatchRow &row)>;
    // Called once per row, in input order, under a lock (so it may print), as soon as the rows before it are done.
    using RowDone = std::function<void(const BatchRow &row)>;

    explicit BatchRunner(Options options) : m_options(std::move(options)) { }

    // Rows are dropped once rowDone has seen them. Workers run at most 2 * jobs files ahead of the first file not
    // yet done, so the rows waiting for it (the reorder buffer) are bounded by the jobs, not by the inputs.
    BatchResult run(const GraphTask &task, const RowDone &rowDone = {}, const RowFinished &rowFinished = {}) const;

    // The files the inputs name, directories walked and sorted by path; `fromDirectory` marks the ones found
    // there (those are sniffed and skipped when they are not graph dumps), with their path below it.
    struct Input {
        std::string path;
        bool fromDirectory = false;
        std::string relativePath; // "corpus/readable/x.py" for corpus/readable/x.py found under corpus/
    };
    static std::vector<Input> expand(const std::vector<std::string> &inputs, std::vector<BatchSkip> &skipped);

private:
    Options m_options;
};

// True when path names a directory (which asks for batch mode).
bool isDirectory(const std::string &path);
// A directory of graph files, which a command walks; a recording (python -m fxscope_capture.record) is a directory
// too, but one graph file.
bool isGraphFolder(const std::string &path);

} // namespace fxs::cli
