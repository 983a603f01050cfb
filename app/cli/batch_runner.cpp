#include "batch_runner.h"

#include "command_line.h"
#include "io/format.h"
#include "io/loader.h"
#include "io/recording_reader.h"
#include "worker_pool.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

namespace fxs::cli {

namespace {

namespace fs = std::filesystem;

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The first bytes of a file, enough for sniffFormat (which looks at 64 KiB), without reading a large weight file
// that happens to sit in a model's directory.
std::string readHead(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(std::max<std::streamsize>(in.gcount(), 0)));
    return head;
}

// What one input file gave: its rows, or the reason it was skipped.
struct FileOutcome {
    std::vector<BatchRow> rows;
    std::optional<BatchSkip> skipped;
};

FileOutcome runFile(const BatchRunner::Input &input, const std::optional<std::string> &graphChoice,
    const BatchRunner::GraphTask &task, const BatchRunner::RowFinished &rowFinished)
{
    FileOutcome outcome;
    // Documentation beside the dumps (a README, a SOURCES.md quoting a dump's lines) is not one, whatever it quotes.
    const std::string ext = fs::path(input.path).extension().string();
    if (input.fromDirectory && (ext == ".md" || ext == ".rst")) {
        outcome.skipped = BatchSkip{input.path, "documentation (" + ext + "), not a graph dump"};
        return outcome;
    }
    if (input.fromDirectory) {
        auto format = sniffFormat(readHead(input.path), input.path);
        if (!format) {
            outcome.skipped = BatchSkip{input.path, format.error().message};
            return outcome;
        }
    }
    const auto start = std::chrono::steady_clock::now();
    auto file = loadGraphFile(input.path);
    const double loadMs = msSince(start);
    if (!file) {
        BatchRow row;
        row.path = input.path;
        row.exitCode = BadInput;
        row.error = file.error().toString();
        row.loadMs = loadMs;
        if (rowFinished)
            rowFinished(row);
        outcome.rows.push_back(std::move(row));
        return outcome;
    }
    std::vector<size_t> indices;
    std::string choiceError;
    if (graphChoice && file->graphs.size() > 1) {
        if (const NamedGraph *g = file->find(*graphChoice))
            indices.push_back(size_t(g - file->graphs.data()));
        else
            choiceError = "no graph '" + *graphChoice + "' in " + input.path + " (it holds "
                + std::to_string(file->graphs.size()) + ")";
    } else {
        for (size_t i = 0; i < file->graphs.size(); ++i)
            indices.push_back(i);
    }
    if (indices.empty()) {
        BatchRow row;
        row.path = input.path;
        row.graphCount = file->graphs.size();
        row.exitCode = BadInput;
        row.error = choiceError.empty() ? input.path + ": the file holds no graph" : choiceError;
        row.loadMs = loadMs;
        if (rowFinished)
            rowFinished(row);
        outcome.rows.push_back(std::move(row));
        return outcome;
    }
    for (size_t index : indices) {
        BatchRow row;
        row.path = input.path;
        row.relativePath = input.relativePath;
        row.graph = file->graphs[index].name;
        row.graphCount = file->graphs.size();
        row.nodes = file->graphs[index].graph->size();
        row.loadMs = outcome.rows.empty() ? loadMs : 0;
        const auto runStart = std::chrono::steady_clock::now();
        task(file.value(), index, row);
        row.ms = msSince(runStart);
        if (rowFinished)
            rowFinished(row);
        outcome.rows.push_back(std::move(row));
    }
    return outcome;
}

} // namespace

bool isDirectory(const std::string &path)
{
    std::error_code ec;
    return fs::is_directory(path, ec);
}

bool isGraphFolder(const std::string &path)
{
    return isDirectory(path) && !isRecordingPath(path);
}

void BatchResult::add(const BatchRow &row)
{
    ++graphs;
    failed += row.ok() ? 0 : 1;
    if (row.exitCode == RuntimeFailure)
        m_exit = RuntimeFailure;
    else if (row.exitCode != Success && m_exit == Success)
        m_exit = BadInput;
}

std::vector<BatchRunner::Input> BatchRunner::expand(
    const std::vector<std::string> &inputs, std::vector<BatchSkip> &skipped)
{
    std::vector<Input> files;
    for (const std::string &path : inputs) {
        if (!isGraphFolder(path)) {
            files.push_back({path, false, {}}); // a missing file is its row's error
            continue;
        }
        std::vector<std::string> found;
        std::error_code ec;
        fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) {
            skipped.push_back({path, "cannot list: " + ec.message()});
            continue;
        }
        for (; it != end; it.increment(ec)) {
            if (ec) {
                skipped.push_back({path, "cannot list: " + ec.message()});
                break;
            }
            std::error_code typeError;
            if (it->is_regular_file(typeError))
                found.push_back(it->path().string());
        }
        // Directory order is the file system's: sorted, the rows are the same on every machine.
        std::sort(found.begin(), found.end());
        if (found.empty())
            skipped.push_back({path, "no files in the directory"});
        fs::path root = fs::path(path).lexically_normal();
        if (root.filename().empty()) // "corpus/"
            root = root.parent_path();
        const fs::path rootName = root.filename();
        for (auto &f : found) {
            fs::path relative = fs::path(f).lexically_relative(path);
            if (!rootName.empty() && rootName != "." && rootName != "..")
                relative = rootName / relative;
            files.push_back({std::move(f), true, relative.string()});
        }
    }
    return files;
}

BatchResult BatchRunner::run(const GraphTask &task, const RowDone &rowDone, const RowFinished &rowFinished) const
{
    const auto start = std::chrono::steady_clock::now();
    BatchResult result;
    const std::vector<Input> inputs = expand(m_options.inputs, result.skipped);
    // Files done while one before them still runs, by input index; handed on and dropped in order.
    std::map<size_t, FileOutcome> waiting;
    std::mutex lock;
    size_t reported = 0; // files whose rows went to rowDone, in order
    const size_t window = 2 * size_t(std::max(1u, m_options.jobs));
    WorkerPool(m_options.jobs).run(
        inputs.size(),
        [&](size_t i) {
            FileOutcome outcome = runFile(inputs[i], m_options.graphChoice, task, rowFinished);
            std::lock_guard<std::mutex> guard(lock);
            waiting.emplace(i, std::move(outcome));
            for (auto it = waiting.begin(); it != waiting.end() && it->first == reported; it = waiting.erase(it)) {
                ++reported;
                if (it->second.skipped) {
                    result.skipped.push_back(std::move(*it->second.skipped));
                    continue;
                }
                ++result.files;
                for (const BatchRow &row : it->second.rows) {
                    result.add(row);
                    if (rowDone)
                        rowDone(row);
                }
            }
        },
        window);
    result.jobs = std::max(1u, std::min<unsigned>(m_options.jobs, unsigned(std::max<size_t>(inputs.size(), 1))));
    result.wallMs = msSince(start);
    return result;
}

} // namespace fxs::cli
