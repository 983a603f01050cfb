// fxscope-cli: everything the GUI shows, headless. The subcommands and their JSON are a stable contract
// (docs/cli-json-contract.md); exit codes: 0 success, 1 usage, 2 bad input, 3 runtime failure (diff: 5 when the graphs
// differ).

#include "apply_command.h"
#include "command_inputs.h"
#include "command_line.h"
#include "convert_command.h"
#include "devices_command.h"
#include "diff_command.h"
#include "info_command.h"
#include "match_command.h"
#include "passes_command.h"
#include "patterns_command.h"
#include "profile_command.h"

#include "runtime/rank_worker.h"

#include "util/closest_name.h"
#include "util/install_layout.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

const char *kUsage = R"(usage: fxscope-cli COMMAND ...

commands:
  info     GRAPH [--graph NAME|INDEX] [--json]     formats, graphs, node counts by op, inputs, outputs
  convert  GRAPH -o OUT.{json,py,dot,svg,png} [--graph NAME|INDEX]
  devices  [--json]                                 LibTorch version and the devices graphs can run on
  profile  GRAPH [--patterns FILE...] [--device D] [--iters N] [--warmup N] [--inputs F] [--json]
                                                    run unfused and fused through LibTorch: times, speedup, outputs checked
           [--ranks N [--rank-timeout S]]           on N ranks of a real process group (Gloo on the CPU), one process each
  patterns --patterns FILE... [--json]              the patterns a file registers, in the order they are tried
  match    GRAPH --patterns FILE... [--pattern NAME] [--subgraph] [--json]
                                                    every candidate match, its verdict, stage and reasons
           [--check-with-torch [PYTHON]]            ... and Inductor's real pass on the same graph; exit 4 if it differs
  apply    GRAPH --patterns FILE... [--steps N] [--all] [-o OUT] [--json]
                                                    apply the matches step by step; each step and the per-op diff
  match|apply GRAPH|DIR... --patterns FILE... [--jobs N] [--json]
                                                    a batch: one row per graph of the files and directories (walked),
                                                    on N threads (default: the cores; one with the torch host); apply
                                                    -o DIR writes each fused graph; exit 2 if a file did not load, 3 if
                                                    a graph failed
  passes   GRAPH --pass NAME... [--steps N] [--supported T,T...|--partition FILE] [-o OUT] [--json]
                                                    a PassManager pipeline (dce, cse, inline, partition, ...);
                                                    with a support set, partitions and why nodes are outside
  diff     A B [--graph-a NAME|INDEX] [--graph-b NAME|INDEX] [--json]
                                                    the structural diff of two graphs (exit 5 when they differ):
                                                    what paired, what changed, regions only one side has

Pattern files follow --patterns (every argument up to the next option) in every command; graphs come before it.
fxscope-cli COMMAND --help lists the options of COMMAND; fxscope-cli --version names the version, LibTorch and Python.
GRAPH is any FX dump: print(gm.graph) text, print_readable/TORCH_LOGS code, a TORCH_TRACE log,
torch.export JSON or .pt2, a TorchAir graph dump, or fxscope JSON. The format is read from the content.
Logs go to stderr (FXSCOPE_LOG=debug for more).
)";

} // namespace

int main(int argc, char **argv)
{
    // Logs never mix with --json output on stdout.
    auto logger = spdlog::stderr_color_mt("fxscope");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::warn);
    if (const char *level = std::getenv("FXSCOPE_LOG"))
        spdlog::set_level(spdlog::level::from_str(level));

    if (argc == 2 && (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "-V"))) {
        std::fputs(fxs::versionText("fxscope-cli").c_str(), stdout);
        return fxs::cli::Success;
    }
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? fxs::cli::UsageError : fxs::cli::Success;
    }
    // One list for dispatch and for the "did you mean" of a mistyped command.
    using Command = int (*)(const std::vector<std::string> &);
    static const std::vector<std::pair<std::string, Command>> kCommands
        = {{"info", fxs::cli::runInfo}, {"convert", fxs::cli::runConvert}, {"devices", fxs::cli::runDevices},
            {"profile", fxs::cli::runProfile}, {"patterns", fxs::cli::runPatterns}, {"match", fxs::cli::runMatch},
            {"apply", fxs::cli::runApply}, {"passes", fxs::cli::runPasses}, {"diff", fxs::cli::runDiff}};
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    fxs::cli::takeEngineOptions(args); // --sandbox, and the torch host started while the command parses
    if (command == "rank-worker") // hidden: the processes profile --ranks starts
        return fxs::runRankWorker(args);
    std::vector<std::string> names;
    for (const auto &[name, run] : kCommands) {
        if (name == command)
            return run(args);
        names.push_back(name);
    }
    const std::string meant = fxs::didYouMean(command, names);
    std::fprintf(stderr, "unknown command '%s'%s\n\n%s", command.c_str(), meant.c_str(), kUsage);
    return fxs::cli::UsageError;
}
