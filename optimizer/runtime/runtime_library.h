#pragma once
// Loads the fxscope_runtime module (LibTorch inside) on first use and calls into it. Qt-free and
// torch-free: callers get our own types, and nothing of LibTorch is loaded until they ask.

#include "device_info.h"
#include "util/json.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

class Graph;

struct RuntimeDevices {
    std::string libtorchVersion;
    std::vector<DeviceInfo> devices;
};

// Loads libfxscope_runtime.so from beside the executable (or FXSCOPE_RUNTIME_LIBRARY) and lists devices.
Result<RuntimeDevices> runtimeDevices();
// Every operator schema registered in LibTorch, as schema text lines.
Result<std::vector<std::string>> runtimeOpSchemas();

struct ProfileOptions {
    std::string device = "cpu"; // cpu, cuda[:i], npu[:i]
    int iters = 10;
    int warmup = 2;
    uint64_t seed = 0; // for inputs generated from meta
    std::string inputsPath; // safetensors with inputs/weights by node name; others are generated
    std::string expectedOutputsPath; // safetensors (output_0, ...) to check the unfused outputs against
    bool returnOutputs = false; // copy every output value back (small graphs: tests)
};

struct NodeProfile {
    std::string name;
    std::string target;
    double medianUs = 0;
};

struct OutputValue {
    std::string dtype; // LibTorch's name: Float, Half, ...
    std::vector<int64_t> shape;
    std::vector<double> values; // only with ProfileOptions::returnOutputs
};

struct GraphProfile {
    double medianMs = 0;
    std::vector<NodeProfile> nodes;
    std::vector<OutputValue> outputs;
};

// The result of runtimeProfile; json is DESIGN.md's `profile` object as the runtime produced it.
struct ProfileReport {
    std::string device;
    GraphProfile unfused;
    std::optional<GraphProfile> fused;
    double speedup = 0;
    bool outputsMatch = false;
    double maxAbsDiff = 0;
    std::optional<bool> expectedMatch; // against ProfileOptions::expectedOutputsPath
    double expectedMaxAbsDiff = 0;
    Json json;
};

// Runs and profiles `unfused` and, when given, `fused` on one device with the same inputs, and compares outputs.
Result<ProfileReport> runtimeProfile(const Graph &unfused, const Graph *fused, const ProfileOptions &options);

} // namespace fxs
