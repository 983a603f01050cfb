#include "command_inputs.h"

#include "graph_selection.h"
#include "io/loader.h"
#include "patterns/host/torch_host_engine.h"
#include "patterns/pattern_file.h"
#include "patterns/torchair_builtins.h"
#include "util/install_layout.h"
#include "worker_pool.h"

#include <filesystem>

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
    // The positional alias first, as `patterns` reads it: `GRAPH A --patterns B` is A, then B.
    std::vector<std::string> specs;
    for (size_t i = 1; i < cmd.positional().size(); ++i)
        specs.push_back(cmd.positional()[i]);
    for (const auto &spec : cmd.values("--patterns"))
        specs.push_back(spec);
    return specs;
}

namespace {

struct EngineState {
    bool sandboxAsked = false; // --sandbox
    std::string sandboxWhy; // why the sandbox runs the Python sources (empty: the host does)
    std::shared_ptr<TorchHostEngine> host;
    bool usedSandbox = false;
    bool usedHost = false;
};

EngineState &engineState()
{
    static EngineState state;
    return state;
}

// A source only Python can load: a .py file, module:callable or inductor:NAME (not builtin, not JSON).
bool isPythonSource(const std::string &spec)
{
    if (spec == "builtin" || spec.rfind("builtin:", 0) == 0)
        return false;
    if (spec.size() > 3 && spec.compare(spec.size() - 3, 3, ".py") == 0)
        return true;
    if (spec.rfind("inductor:", 0) == 0)
        return true;
    return spec.find(':') != std::string::npos && !std::filesystem::exists(spec);
}

std::shared_ptr<TorchHostEngine> hostEngine()
{
    EngineState &state = engineState();
    if (state.sandboxAsked || !state.sandboxWhy.empty())
        return nullptr;
    if (!state.host) {
        const std::string python = defaultPython();
        if (python.empty()) {
            state.sandboxWhy = "no Python with torch (set FXSCOPE_PYTHON)";
            return nullptr;
        }
        TorchHostSettings settings;
        settings.python = python;
        settings.packageDir = pythonPackageDirectory();
        if (const char *t = std::getenv("FXSCOPE_HOST_TIMEOUT"); t && std::atoi(t) > 0)
            settings.timeout = std::chrono::seconds(std::atoi(t));
        state.host = TorchHostEngine::create(std::move(settings));
    }
    return state.host;
}

} // namespace

void takeEngineOptions(std::vector<std::string> &args)
{
    EngineState &state = engineState();
    for (auto it = args.begin(); it != args.end();)
        if (*it == "--sandbox") {
            state.sandboxAsked = true;
            it = args.erase(it);
        } else {
            ++it;
        }
    if (const char *env = std::getenv("FXSCOPE_ENGINE"); env && std::string(env) == "sandbox")
        state.sandboxAsked = true;
    if (state.sandboxAsked)
        state.sandboxWhy = "--sandbox";
    // The sources after --patterns (up to the next option): a graph dump may end in .py too, and needs no torch.
    bool sources = false, python = false;
    for (const auto &a : args) {
        if (a.rfind("--", 0) == 0)
            sources = a == "--patterns";
        else if (sources && isPythonSource(a))
            python = true;
    }
    if (python)
        hostEngine(); // starts torch in the background
}

Json engineJson()
{
    const EngineState &state = engineState();
    if (state.usedHost && state.host) {
        Json hello = state.host->host().hello();
        const TorchHostEngine::Stats stats = state.host->stats();
        return Json::object({{"name", "torch"}, {"torch_version", hello["torch_version"]},
            {"python", hello["python"]}, {"why", "the torch host (python -m fxscope_capture.host)"},
            {"checks", stats.checks}, {"mirrors", stats.mirrors}, {"edits", stats.edits},
            {"check_ms", stats.checkMs}, {"mirror_ms", stats.mirrorMs}, {"edit_ms", stats.editMs}});
    }
    if (state.usedSandbox)
        return Json::object({{"name", "sandbox"}, {"why", state.sandboxWhy}});
    return Json::object({{"name", "fxscope"}, {"why", "no Python pattern source"}});
}

std::string engineLine()
{
    const Json e = engineJson();
    if (e["name"].toString() == "torch")
        return "patterns run by torch " + e["torch_version"].toString() + " (torch host, " + e["python"].toString()
            + ")";
    if (e["name"].toString() == "sandbox")
        return "patterns run by fxscope's sandbox (Python subset), not torch: " + e["why"].toString();
    return {};
}

bool loadPatternSpecs(const std::vector<std::string> &specs, PatternRegistry &registry)
{
    EngineState &state = engineState();
    std::vector<std::string> pythonSources;
    for (const auto &spec : specs)
        if (isPythonSource(spec))
            pythonSources.push_back(spec);
    std::shared_ptr<TorchHostEngine> host = pythonSources.empty() ? nullptr : hostEngine();
    if (host) {
        // One load, so torch registers every source into one pass (and TorchAir's built-ins after them).
        Status st = host->load(pythonSources, registry);
        if (!st && host->host().hello().isNull()) {
            // The host never answered: this Python cannot run it (no torch there). The sandbox runs instead.
            state.sandboxWhy = "the torch host did not start: " + st.error().message.substr(0, 400);
            state.host.reset();
            host.reset();
        } else if (!st) {
            std::fprintf(stderr, "%s\n", st.error().toString().c_str());
            return false;
        } else {
            state.usedHost = true;
        }
    }
    for (const auto &spec : specs) {
        if (host && isPythonSource(spec))
            continue;
        if (isPythonSource(spec)) {
            if (spec.size() < 3 || spec.compare(spec.size() - 3, 3, ".py") != 0) {
                std::fprintf(stderr, "%s: only the torch host loads module:callable and inductor:NAME sources (%s)\n",
                    spec.c_str(), state.sandboxWhy.c_str());
                return false;
            }
            if (!state.usedSandbox && !state.sandboxAsked)
                std::fprintf(stderr, "note: %s; fxscope's sandbox runs the pattern files instead\n",
                    state.sandboxWhy.c_str());
            state.usedSandbox = true;
        }
        if (auto loaded = loadPatternSpec(spec, registry); !loaded) {
            std::fprintf(stderr, "%s\n", loaded.error().toString().c_str());
            return false;
        }
    }
    if (host)
        return true; // torch registered TorchAir's built-ins after the user's patterns itself
    auto arranged = TorchairBuiltins::arrange(registry); // TorchAir's own built-ins after a TorchAir file's patterns
    if (!arranged) {
        std::fprintf(stderr, "TorchAir's built-in patterns: %s\n", arranged.error().toString().c_str());
        return false;
    }
    registry = std::move(*arranged.value());
    return true;
}

bool loadPatternSpecsInSandbox(const std::vector<std::string> &specs, PatternRegistry &registry, std::string &error)
{
    for (const auto &spec : specs) {
        if (isPythonSource(spec) && (spec.size() < 3 || spec.compare(spec.size() - 3, 3, ".py") != 0)) {
            error = spec + ": only torch loads module:callable and inductor:NAME sources";
            return false;
        }
        if (auto loaded = loadPatternSpec(spec, registry); !loaded) {
            error = loaded.error().toString();
            return false;
        }
    }
    auto arranged = TorchairBuiltins::arrange(registry);
    if (!arranged) {
        error = "TorchAir's built-in patterns: " + arranged.error().toString();
        return false;
    }
    registry = std::move(*arranged.value());
    return true;
}

bool torchHostLoaded()
{
    return engineState().usedHost;
}

unsigned batchJobs(const CommandLine &cmd, unsigned jobs)
{
    return torchHostLoaded() && !cmd.value("--jobs") ? 1 : jobs;
}

PythonNumerics torchHostNumerics()
{
    std::shared_ptr<TorchHostEngine> host = torchHostLoaded() ? hostEngine() : nullptr;
    return host ? host->numericsRunner() : PythonNumerics{};
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
