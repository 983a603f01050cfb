#pragma once
// What most subcommands start from: the graph file named by the first positional argument with the graph
// --graph picks, and the pattern files of --patterns (plus any positionals after GRAPH). Each helper prints
// its error and gives the exit code, so commands read as a straight line.

#include "command_line.h"
#include "ir/graph_file.h"
#include "patterns/pattern_registry.h"

#include <optional>
#include <string>
#include <vector>

namespace fxs::cli {

struct SelectedGraph {
    GraphFile file;
    size_t index = 0;
    const NamedGraph &named() const { return file.graphs[index]; }
};

// The graph of GRAPH chosen by --graph; nullopt (and exitCode set to BadInput or UsageError) on failure.
std::optional<SelectedGraph> loadSelectedGraph(const CommandLine &cmd, int &exitCode);
// The same for a file already loaded (match and apply look at how many graphs it holds first).
std::optional<SelectedGraph> selectLoadedGraph(GraphFile file, const CommandLine &cmd, int &exitCode);
// --jobs N (N >= 1); without it the cores this process may use. nullopt after printing the error.
std::optional<unsigned> jobsOption(const CommandLine &cmd);
// --patterns values, then the positionals after GRAPH.
std::vector<std::string> patternSpecs(const CommandLine &cmd);
// Loads every spec into registry; false (after printing the error) when one fails.
bool loadPatternSpecs(const std::vector<std::string> &specs, PatternRegistry &registry);
// The files options name (--inputs, --device-plugin) exist and are files: a typo is bad input (exit 2) said before
// LibTorch loads. False after printing the first that is not. A plugin named without a '/' is left to dlopen's
// library search.
bool checkOptionFiles(const std::vector<std::string> &files, const std::vector<std::string> &plugins = {});

} // namespace fxs::cli
