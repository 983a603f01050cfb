#pragma once
// What most subcommands start from: the graph file named by the first positional argument with the graph
// --graph picks, and the pattern files of --patterns (plus any positionals after GRAPH). Each helper prints
// its error and gives the exit code, so commands read as a straight line.

#include "command_line.h"
#include "ir/graph_file.h"
#include "patterns/pattern_registry.h"
#include "runtime/fusion_numerics.h"
#include "util/json.h"

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
// The positionals after GRAPH, then the --patterns values.
std::vector<std::string> patternSpecs(const CommandLine &cmd);
// Loads every spec into registry; false (after printing the error) when one fails. Python sources (FILE.py,
// module:callable, inductor:NAME) go to the torch host, the user's own torch, unless --sandbox was given or no
// Python with torch is there: then FILE.py runs in fxscope's sandbox and a note says so once.
bool loadPatternSpecs(const std::vector<std::string> &specs, PatternRegistry &registry);
// The same sources loaded by fxscope's sandbox whatever engine this run uses (match --compare-engines); false, with
// why in `error`, when the sandbox cannot load one (module:callable and inductor:NAME are torch's only).
bool loadPatternSpecsInSandbox(const std::vector<std::string> &specs, PatternRegistry &registry, std::string &error);
// Whether the torch host loaded this run's Python sources.
bool torchHostLoaded();
// The threads a batch runs on: --jobs, or the cores; one when the torch host decides and --jobs is not given (the
// host mirrors one graph, and graphs matched side by side would trade the mirror back and forth on every check).
unsigned batchJobs(const CommandLine &cmd, unsigned jobs);
// --check-numerics for fusions whose ops only the sources' Python defines: runs them in the torch host; empty when
// this run has none.
PythonNumerics torchHostNumerics();

// The pattern engine of this run. takeEngineOptions removes --sandbox from the arguments (every command takes
// it) and starts the torch host in the background when Python sources are named, so torch imports while the
// graph is parsed.
void takeEngineOptions(std::vector<std::string> &args);
// {"name": "torch" | "sandbox", "torch_version", "python", "why"}: what ran the pattern sources.
Json engineJson();
// One line for text output: "patterns run by torch 2.13.0 (torch host, PYTHON)" or the sandbox and why.
std::string engineLine();
// The files options name (--inputs, --device-plugin) exist and are files: a typo is bad input (exit 2) said before
// LibTorch loads. False after printing the first that is not. A plugin named without a '/' is left to dlopen's
// library search.
bool checkOptionFiles(const std::vector<std::string> &files, const std::vector<std::string> &plugins = {});

} // namespace fxs::cli
