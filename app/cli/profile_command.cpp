#include "profile_command.h"

#include "command_inputs.h"
#include "command_line.h"
#include "patterns/pattern_file.h"
#include "rewrite/session.h"
#include "runtime/runtime_library.h"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace fxs::cli {

namespace {

bool parseCount(const std::optional<std::string> &text, int minimum, int &out)
{
    if (!text)
        return true;
    char *end = nullptr;
    long n = std::strtol(text->c_str(), &end, 10);
    if (text->empty() || *end || n < minimum || n > 1000000)
        return false;
    out = int(n);
    return true;
}

void printTable(const ProfileReport &r)
{
    std::printf("device %s\n\n", r.device.c_str());
    std::map<std::string, double> fusedByName;
    if (r.fused)
        for (const auto &n : r.fused->nodes)
            fusedByName[n.name] = n.medianUs;
    std::printf("%-28s %-44s %12s %12s\n", "node", "target", "unfused µs", "fused µs");
    for (const auto &n : r.unfused.nodes) {
        auto it = fusedByName.find(n.name);
        if (it != fusedByName.end())
            std::printf("%-28s %-44s %12.1f %12.1f\n", n.name.c_str(), n.target.c_str(), n.medianUs, it->second);
        else
            std::printf("%-28s %-44s %12.1f %12s\n", n.name.c_str(), n.target.c_str(), n.medianUs, "-");
    }
    std::map<std::string, bool> unfusedNames;
    for (const auto &n : r.unfused.nodes)
        unfusedNames[n.name] = true;
    if (r.fused)
        for (const auto &n : r.fused->nodes)
            if (!unfusedNames.count(n.name))
                std::printf("%-28s %-44s %12s %12.1f\n", n.name.c_str(), n.target.c_str(), "-", n.medianUs);
    std::printf("\nunfused %.3f ms", r.unfused.medianMs);
    if (r.fused)
        std::printf("   fused %.3f ms   speedup %.2fx   outputs %s (max abs diff %g)", r.fused->medianMs, r.speedup,
            r.outputsMatch ? "match" : "DIFFER", r.maxAbsDiff);
    std::printf("\n");
}

} // namespace

int runProfile(const std::vector<std::string> &args)
{
    CommandLine cmd;
    const char *usage = "usage: fxscope-cli profile GRAPH [--patterns FILE...|builtin] [--device cpu|cuda[:i]|npu[:i]] "
                        "[--iters N] [--warmup N] [--inputs FILE.safetensors] [--graph NAME|INDEX] [--json]\n";
    auto err = cmd.parse(args, {"--patterns", "--device", "--iters", "--warmup", "--inputs", "--graph"}, {"--json"});
    ProfileOptions options;
    if (!err && !parseCount(cmd.value("--iters"), 1, options.iters))
        err = "--iters expects a count >= 1";
    if (!err && !parseCount(cmd.value("--warmup"), 0, options.warmup))
        err = "--warmup expects a count >= 0";
    if (err || cmd.positional().empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    if (auto device = cmd.value("--device"))
        options.device = *device;
    if (auto inputs = cmd.value("--inputs"))
        options.inputsPath = *inputs;

    const std::vector<std::string> specs = patternSpecs(cmd);
    auto registry = std::make_shared<PatternRegistry>();
    if (!loadPatternSpecs(specs, *registry))
        return BadInput;
    int exitCode = Success;
    auto selected = loadSelectedGraph(cmd, exitCode);
    if (!selected)
        return exitCode;
    const NamedGraph *named = &selected->named();

    // The fused graph is the session's last revision with every pattern applied to the end.
    std::optional<Session> session;
    if (!specs.empty()) {
        session.emplace(named->graph->clone(), registry);
        if (auto applied = session->run(std::numeric_limits<size_t>::max()); !applied) {
            std::fprintf(stderr, "%s\n", applied.error().toString().c_str());
            return RuntimeFailure;
        }
    }
    auto report = runtimeProfile(*named->graph, session ? &session->graph() : nullptr, options);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().toString().c_str());
        return RuntimeFailure;
    }
    if (cmd.flag("--json")) {
        Json root = report->json;
        root.set("graph", named->name);
        root.set("fused_steps", session ? int64_t(session->revision()) : int64_t(0));
        std::printf("%s\n", root.dump(1).c_str());
    } else {
        printTable(report.value());
    }
    return Success;
}

} // namespace fxs::cli
