#pragma once
// Loads the fxscope_runtime module (LibTorch inside) on first use and calls into it. Qt-free and
// torch-free: callers get our own types, and nothing of LibTorch is loaded until they ask.

#include "device_info.h"
#include "symbol_values.h"
#include "util/json.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

class Graph;

struct RuntimeDevices {
    std::string libtorchVersion;
    std::string libtorchDirectory; // where the loaded LibTorch lies
    std::string torchPython; // the Python environment the runtime was built against
    std::vector<DeviceInfo> devices;
    std::vector<std::string> plugins; // device plugins loaded into the runtime
};

// Loads device plugins into the runtime (libraries registering a LibTorch backend: torch_npu's library for an
// Ascend NPU as PrivateUse1, or fxscope's emulated device); FXSCOPE_DEVICE_PLUGINS (colon-separated) adds more.
Status runtimeLoadDevicePlugins(const std::vector<std::string> &paths);
// Loads libfxscope_runtime.so from beside the executable (or FXSCOPE_RUNTIME_LIBRARY), then `plugins`, and lists
// devices.
Result<RuntimeDevices> runtimeDevices(const std::vector<std::string> &plugins = {});
// Every operator schema registered in LibTorch, as schema text lines.
Result<std::vector<std::string>> runtimeOpSchemas();

struct ProfileOptions {
    std::string device = "cpu"; // cpu, cuda[:i], npu[:i]
    int iters = 10;
    int warmup = 2;
    uint64_t seed = 0; // for inputs generated from meta
    std::string inputsPath; // safetensors with inputs/weights by node name; others are generated
    std::string expectedOutputsPath; // safetensors (output_0, ...) to check the unfused outputs against
    std::string referenceDevice; // runs the unfused graph once there too (cpu) and checks the device's outputs
    bool returnOutputs = false; // copy every output value back (small graphs: tests)
    bool nodeTimes = true; // false: whole-graph times only, no per-node clock or liveness (overhead benchmarks)
    SymbolValues symbols; // values of the symbols in symbolic dims (s0=128), for inputs generated from meta
    std::vector<std::string> devicePlugins; // loaded before the device is looked up (runtimeLoadDevicePlugins)
    std::string sourceFile; // the dump the graph was read from: runtime errors then read FILE:LINE:COL
    // Called from the profiling thread with the fraction of the job done, every few hundred nodes; returning
    // false stops the run at the next node, and runtimeProfile fails with canceledError (util/progress.h).
    std::function<bool(double)> progress;
};

struct NodeProfile {
    std::string name;
    std::string target;
    double medianUs = 0;
    bool referenceKernel = false; // ran on fxscope's CPU stand-in for a device op: the time is not the device's
    // An op this torch or device lacks ran as this equivalent (stand_in_kernels.h): outputs are the op's, the time
    // is not. Empty when the op ran on its own kernel.
    std::string standIn;
};

struct OutputValue {
    std::string dtype; // LibTorch's name: Float, Half, ...
    std::vector<int64_t> shape;
    std::vector<double> values; // only with ProfileOptions::returnOutputs
};

struct GraphProfile {
    double medianMs = 0;
    std::vector<NodeProfile> nodes; // in a failed run's partial report: the nodes that ran before failedNode
    std::vector<OutputValue> outputs;
    std::string failedNode; // partial report only: the node whose run failed
    std::string error; // partial report only: why
};

// What one fusion bought: the nodes it added (they share its provenance) against the unfused nodes they replaced,
// timed by the runtime from the two graphs' per-node medians.
struct RegionProfile {
    std::string pattern;
    std::string anchor;
    std::vector<std::string> origin; // the unfused graph's nodes it stands for (through earlier fusions)
    std::vector<std::string> nodes; // nodes of the fused graph, in graph order
    double unfusedUs = 0; // sum of the origin nodes' medians
    double fusedUs = 0;
    double speedup = 0; // 0 when incomplete
    // false when some origin nodes are not in the unfused graph (a file fused elsewhere, whose provenance has no
    // origin): unfusedUs then leaves them out and no speedup is claimed.
    bool complete = true;
    bool referenceKernel = false; // a node of it ran on fxscope's CPU stand-in: outputs checked, time not the device's
};

// The result of runtimeProfile; json is DESIGN.md's `profile` object as the runtime produced it.
struct ProfileReport {
    std::string device;
    GraphProfile unfused;
    std::optional<GraphProfile> fused;
    double speedup = 0;
    bool outputsMatch = false;
    double maxAbsDiff = 0; // over the places where both outputs are finite
    std::string outputsDetail; // where they differ first, when they do
    std::string outputsNonFinite; // the NaN and inf counts, when there are any
    std::vector<std::string> warnings; // said once per profile (non-finite outputs from generated inputs)
    std::optional<bool> expectedMatch; // against ProfileOptions::expectedOutputsPath
    double expectedMaxAbsDiff = 0;
    std::optional<bool> referenceMatch; // against ProfileOptions::referenceDevice
    double referenceMaxAbsDiff = 0;
    std::vector<RegionProfile> regions; // one per fusion applied, with a fused graph
    Json json;
};

// Runs and profiles `unfused` and, when given, `fused` on one device with the same inputs, and compares outputs.
// When a graph fails part-way, the error names the node and `partial` (if given) receives what ran before it: the
// failing graph's nodes with failedNode and error set (the unfused graph's in full when the fused one failed), and
// the runtime's JSON in `json`.
Result<ProfileReport> runtimeProfile(
    const Graph &unfused, const Graph *fused, const ProfileOptions &options, ProfileReport *partial = nullptr);

// The request runtimeProfile sends the runtime module (a rank launcher sends it, with its rank, to each worker).
Json profileRequest(const Graph &unfused, const Graph *fused, const ProfileOptions &options);
// The runtime's answer to a profile request as a report; its error, with `partial` filled, when it holds one.
Result<ProfileReport> profileReportFromJson(Json json, const std::string &sourceFile, ProfileReport *partial = nullptr);

struct RankSlot;
// One rank of a multi-rank profile, in a rank worker: the runtime's fxscope_runtime_rank_profile on `request`
// (profileRequest's, with "rank" and "device_plugins"); its answer as JSON.
Result<Json> runtimeRankProfile(
    const Json &request, RankSlot *slot, const std::function<bool(double)> &progress = {});

} // namespace fxs
