#include "command_inputs.h"

#include "graph_selection.h"
#include "io/loader.h"
#include "patterns/pattern_file.h"
#include "patterns/torchair_builtins.h"
#include "worker_pool.h"

#include <cstdio>
#include <cstdlib>

namespace fxs::cli {

std::optional<SelectedGraph> loadSelectedGraph(const CommandLine &cmd, int &exitCode)
{
    auto file = loadGraphFile(cmd.positional()[0]);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().toString().c_str());
        exitCode = BadInput;
        return std::nullopt;
    }
    return selectLoadedGraph(std::move(file).value(), cmd, exitCode);
}

std::optional<SelectedGraph> selectLoadedGraph(GraphFile file, const CommandLine &cmd, int &exitCode)
{
    std::string error;
    const NamedGraph *named = selectGraph(file, cmd, error);
    if (!named) {
        std::fprintf(stderr, "%s\n", error.c_str());
        exitCode = UsageError;
        return std::nullopt;
    }
    SelectedGraph selected;
    selected.index = size_t(named - file.graphs.data());
    selected.file = std::move(file);
    return selected;
}

std::optional<unsigned> jobsOption(const CommandLine &cmd)
{
    const auto jobs = cmd.value("--jobs");
    if (!jobs)
        return WorkerPool::availableCores();
    char *end = nullptr;
    const long long n = std::strtoll(jobs->c_str(), &end, 10);
    if (jobs->empty() || *end || n < 1 || n > 1024) {
        std::fprintf(stderr, "--jobs expects a thread count from 1 to 1024, found '%s'\n", jobs->c_str());
        return std::nullopt;
    }
    return unsigned(n);
}

std::vector<std::string> patternSpecs(const CommandLine &cmd)
{
    std::vector<std::string> specs = cmd.values("--patterns");
    for (size_t i = 1; i < cmd.positional().size(); ++i)
        specs.push_back(cmd.positional()[i]);
    return specs;
}

bool loadPatternSpecs(const std::vector<std::string> &specs, PatternRegistry &registry)
{
    for (const auto &spec : specs)
        if (auto loaded = loadPatternSpec(spec, registry); !loaded) {
            std::fprintf(stderr, "%s\n", loaded.error().toString().c_str());
            return false;
        }
    auto arranged = TorchairBuiltins::arrange(registry); // TorchAir's own built-ins after a TorchAir file's patterns
    if (!arranged) {
        std::fprintf(stderr, "TorchAir's built-in patterns: %s\n", arranged.error().toString().c_str());
        return false;
    }
    registry = std::move(*arranged.value());
    return true;
}

bool checkOptionFiles(const std::vector<std::string> &files, const std::vector<std::string> &plugins)
{
    std::vector<std::string> paths = files;
    for (const std::string &plugin : plugins)
        if (plugin.find('/') != std::string::npos)
            paths.push_back(plugin);
    for (const std::string &path : paths)
        if (auto size = inputFileSize(path); !size) {
            std::fprintf(stderr, "%s\n", size.error().toString().c_str());
            return false;
        }
    return true;
}

} // namespace fxs::cli
