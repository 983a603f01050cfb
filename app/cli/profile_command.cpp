#include "profile_command.h"

#include "command_inputs.h"
#include "command_line.h"
#include "profile_ranks.h"
#include "io/loader.h"
#include "patterns/pattern_file.h"
#include "rewrite/session.h"
#include "runtime/profile_export.h"
#include "runtime/runtime_library.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

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

// "cpu", "cuda:1", "npu": a LibTorch device type name (c10/core/Device.cpp) or npu (PrivateUse1, as torch_npu names
// it), with an optional index. Checked here so a typo is a usage error, not a failure from inside LibTorch.
bool isDeviceName(const std::string &text)
{
    static const char *const types[] = {"cpu", "cuda", "npu", "privateuseone", "xpu", "hip", "mps", "ipu", "mkldnn",
        "opengl", "opencl", "ideep", "ve", "fpga", "ort", "xla", "lazy", "vulkan", "meta", "hpu"};
    const size_t colon = text.find(':');
    const std::string type = text.substr(0, colon);
    if (std::find(std::begin(types), std::end(types), type) == std::end(types))
        return false;
    if (colon == std::string::npos)
        return true;
    const std::string index = text.substr(colon + 1);
    return !index.empty() && index.size() <= 4
        && std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// One line per op that ran on a stand-in (stand_in_kernels.h), over both graphs: which op, as what, on how many nodes.
void printStandIns(const ProfileReport &r)
{
    std::map<std::pair<std::string, std::string>, std::set<std::string>> nodesOf; // (target, stand-in) -> nodes
    for (const GraphProfile *g : {&r.unfused, r.fused ? &*r.fused : nullptr})
        if (g)
            for (const auto &n : g->nodes)
                if (!n.standIn.empty())
                    nodesOf[{n.target, n.standIn}].insert(n.name);
    for (const auto &[op, nodes] : nodesOf)
        std::printf("stand-in: %s ran as %s on %zu node%s (this torch lacks it here): outputs checked, time not "
                    "the original op's\n",
            op.first.c_str(), op.second.c_str(), nodes.size(), nodes.size() == 1 ? "" : "s");
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
        const char *mark = n.standIn.empty() ? "" : "  stand-in";
        if (it != fusedByName.end())
            std::printf("%-28s %-44s %12.1f %12.1f%s\n", n.name.c_str(), n.target.c_str(), n.medianUs, it->second, mark);
        else
            std::printf("%-28s %-44s %12.1f %12s%s\n", n.name.c_str(), n.target.c_str(), n.medianUs, "-", mark);
    }
    std::map<std::string, bool> unfusedNames;
    for (const auto &n : r.unfused.nodes)
        unfusedNames[n.name] = true;
    size_t onReference = 0;
    if (r.fused)
        for (const auto &n : r.fused->nodes) {
            onReference += n.referenceKernel ? 1 : 0;
            if (!unfusedNames.count(n.name))
                std::printf("%-28s %-44s %12s %12.1f%s\n", n.name.c_str(), n.target.c_str(), "-", n.medianUs,
                    n.referenceKernel ? "  reference kernel" : "");
        }
    printStandIns(r);
    std::printf("\nunfused %.3f ms", r.unfused.medianMs);
    if (r.fused)
        std::printf("   fused %.3f ms   speedup %.2fx   outputs %s (max abs diff %g)", r.fused->medianMs, r.speedup,
            r.outputsMatch ? "match" : "DIFFER", r.maxAbsDiff);
    std::printf("\n");
    if (!r.outputsDetail.empty())
        std::printf("outputs: %s\n", r.outputsDetail.c_str());
    if (!r.outputsNonFinite.empty())
        std::printf("non-finite outputs: %s\n", r.outputsNonFinite.c_str());
    for (const RegionProfile &region : r.regions)
        std::printf("region %-24s at %-24s %10.1f µs -> %10.1f µs   %.2fx%s%s\n", region.pattern.c_str(),
            region.anchor.c_str(), region.unfusedUs, region.fusedUs, region.speedup,
            region.complete ? "" : " (incomplete: some replaced nodes are not in the unfused graph)",
            region.referenceKernel ? " (reference kernel: outputs checked, time not the device's)" : "");
    if (onReference)
        std::printf("%zu fused node%s ran on fxscope's CPU reference kernels (no device plugin defines them): their "
                    "outputs are checked, their times are not the device's\n",
            onReference, onReference == 1 ? "" : "s");
    if (r.expectedMatch) {
        const Json &expected = r.json["expected"];
        std::printf("outputs against %s: %s (max abs diff %g)%s%s\n", expected["path"].toString().c_str(),
            *r.expectedMatch ? "match" : "DIFFER", r.expectedMaxAbsDiff, expected["outputs_detail"].isString() ? ": " : "",
            expected["outputs_detail"].toString().c_str());
    }
    if (r.referenceMatch)
        std::printf("%s outputs against %s: %s (max abs diff %g)\n", r.device.c_str(),
            r.json["reference"]["device"].toString().c_str(), *r.referenceMatch ? "match" : "DIFFER",
            r.referenceMaxAbsDiff);
}

void printPartial(const ProfileReport &partial)
{
    const std::pair<const char *, const GraphProfile *> sides[]
        = {{"unfused", &partial.unfused}, {"fused", partial.fused ? &*partial.fused : nullptr}};
    for (const auto &[side, g] : sides) {
        if (!g || g->failedNode.empty())
            continue;
        std::printf("%s graph: ran %zu nodes before '%s' failed\n", side, g->nodes.size(), g->failedNode.c_str());
        for (const NodeProfile &n : g->nodes)
            std::printf("  %-28s %-44s %12.1f\n", n.name.c_str(), n.target.c_str(), n.medianUs);
    }
}

} // namespace

int runProfile(const std::vector<std::string> &args)
{
    const char *usage
        = "usage: fxscope-cli profile GRAPH [--patterns FILE...|builtin] [--device cpu|cuda[:i]|npu[:i]] "
          "[--device-plugin LIBRARY.so]... [--check-on cpu] [--iters N] [--warmup N] [--inputs FILE.safetensors] "
          "[--graph NAME|INDEX] [--sym SYMBOL=N]... [--expected OUTPUTS.safetensors] [--trace OUT.json] [--csv OUT.csv] "
          "[--ranks N [--rank-timeout SECONDS]] [--json]\n"
          "runs GRAPH unfused and fused through LibTorch: per-node times, the speedup, outputs checked\n"
          "  --patterns FILE...     every argument up to the next option: a Python or JSON pattern file, 'builtin'\n"
          "                         or 'builtin:NAME' (files after GRAPH without it are read the same way)\n"
          "  --device D             cpu (default), cuda[:i], npu[:i] or another LibTorch device type\n"
          "  --device-plugin LIB    load a device plugin first (torch_npu's libtorch_npu.so)\n"
          "  --check-on cpu         also run the unfused graph there and check the device's outputs\n"
          "  --iters N, --warmup N  timed and untimed iterations\n"
          "  --inputs FILE          inputs (and weights) from a .safetensors file; else generated, seeded\n"
          "  --graph NAME|INDEX     the graph of a file that holds several\n"
          "  --sym SYMBOL=N         a value for a symbolic size the inputs do not fix\n"
          "  --expected FILE        outputs PyTorch gave (a capture's), which the unfused outputs must equal\n"
          "  --trace OUT.json       a Chrome trace; --csv OUT.csv the per-node table\n"
          "  --ranks N              N ranks of a real process group (Gloo on the CPU), one process each; GRAPH,\n"
          "                         --inputs and --expected may hold {r}, each rank's number\n"
          "  --rank-timeout S       seconds a rank may take (default 60)\n"
          "  --json                 one JSON document on stdout (docs/cli-json-contract.md)\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    auto err = cmd.parse(args,
        {"--device", "--device-plugin", "--check-on", "--iters", "--warmup", "--inputs", "--graph", "--trace", "--csv",
            "--sym", "--expected", "--ranks", "--rank-timeout"},
        {"--json"}, {"--patterns"});
    ProfileOptions options;
    if (!err && !parseCount(cmd.value("--iters"), 1, options.iters))
        err = "--iters expects a count >= 1";
    if (!err && !parseCount(cmd.value("--warmup"), 0, options.warmup))
        err = "--warmup expects a count >= 0";
    int ranks = 0;
    if (!err && !parseCount(cmd.value("--ranks"), 1, ranks))
        err = "--ranks expects a count >= 1";
    double rankTimeout = 60;
    if (auto t = cmd.value("--rank-timeout"); !err && t) {
        char *end = nullptr;
        rankTimeout = std::strtod(t->c_str(), &end);
        if (t->empty() || *end || !(rankTimeout > 0) || rankTimeout > 86400)
            err = "--rank-timeout expects seconds > 0";
        else if (!cmd.value("--ranks"))
            err = "--rank-timeout goes with --ranks N";
    }
    for (const auto &assignment : cmd.values("--sym"))
        if (auto parsed = parseSymbolAssignments(assignment, options.symbols); !err && !parsed)
            err = parsed.error().message;
    for (const char *option : {"--device", "--check-on"})
        if (auto device = cmd.value(option); !err && device && !isDeviceName(*device))
            err = std::string(option) + ": expected cpu, cuda[:i], npu[:i] or another LibTorch device type "
                + "(privateuseone, xpu, hip, mps...), found '" + *device + "'";
    if (err || cmd.positional().empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    if (auto device = cmd.value("--device"))
        options.device = *device;
    if (auto inputs = cmd.value("--inputs"))
        options.inputsPath = *inputs;
    options.devicePlugins = cmd.values("--device-plugin");
    if (auto reference = cmd.value("--check-on"))
        options.referenceDevice = *reference;

    // --expected: outputs PyTorch gave (output_0, output_1, ...: what fxscope_capture writes beside a capture), which
    // the unfused graph's outputs must equal within their dtype's tolerance.
    if (auto expected = cmd.value("--expected"))
        options.expectedOutputsPath = *expected;
    std::vector<std::string> inputFiles;
    for (const std::string *path : {&options.inputsPath, &options.expectedOutputsPath})
        if (!path->empty())
            for (int r = 0; r < std::max(ranks, 1); ++r) // each rank's file, where the path holds {r}
                if (auto resolved = ranks ? rankPath(*path, r) : Result<std::string>(*path); resolved)
                    inputFiles.push_back(resolved.value());
                else {
                    std::fprintf(stderr, "%s\n", resolved.error().toString().c_str());
                    return BadInput;
                }
    if (!checkOptionFiles(inputFiles, options.devicePlugins))
        return BadInput;

    const std::vector<std::string> specs = patternSpecs(cmd);
    auto registry = std::make_shared<PatternRegistry>();
    if (!loadPatternSpecs(specs, *registry))
        return BadInput;
    if (ranks)
        return runProfileRanks(cmd, {ranks, rankTimeout, options, specs, registry});
    int exitCode = Success;
    auto selected = loadSelectedGraph(cmd, exitCode);
    if (!selected)
        return exitCode;
    const NamedGraph *named = &selected->named();
    options.sourceFile = selected->file.path;
    // A value for a symbol the inputs do not use is most likely a typo for one they do.
    const std::vector<std::string> used = inputSymbols(*named->graph);
    std::string usedNames;
    for (const auto &name : used)
        usedNames += (usedNames.empty() ? "" : ", ") + name;
    for (const auto &given : options.symbols)
        if (std::find(used.begin(), used.end(), given.first) == used.end())
            std::fprintf(stderr, "warning: --sym %s: the graph's inputs use no symbol %s (they use %s)\n",
                given.first.c_str(), given.first.c_str(), usedNames.empty() ? "none" : usedNames.c_str());

    // The fused graph is the session's last revision with every pattern applied to the end.
    std::optional<Session> session;
    if (!specs.empty()) {
        session.emplace(named->graph->clone(), registry);
        if (auto applied = session->run(std::numeric_limits<size_t>::max()); !applied) {
            std::fprintf(stderr, "%s\n", applied.error().toString().c_str());
            return RuntimeFailure;
        }
    }
    ProfileReport partial;
    auto report = runtimeProfile(*named->graph, session ? &session->graph() : nullptr, options, &partial);
    if (!report) {
        // What ran before the failing node is still reported.
        if (cmd.flag("--json") && partial.json.isObject())
            std::printf("%s\n", partial.json.dump(1).c_str());
        else
            printPartial(partial);
        std::fprintf(stderr, "%s\n", report.error().toString().c_str());
        return RuntimeFailure;
    }
    for (const std::string &warning : report->warnings)
        std::fprintf(stderr, "warning: %s\n", warning.c_str());
    for (const char *option : {"--trace", "--csv"}) {
        auto path = cmd.value(option);
        if (!path)
            continue;
        std::string bytes
            = std::string(option) == "--trace" ? profileChromeTrace(report->json) : profileCsv(report->json);
        if (auto written = writeFileAtomically(*path, bytes); !written) {
            std::fprintf(stderr, "%s\n", written.error().toString().c_str());
            return RuntimeFailure;
        }
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
