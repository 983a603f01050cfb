#pragma once
// Device plugins: shared libraries that register a LibTorch backend when loaded (torch_npu's libtorch_npu.so
// registers the PrivateUse1 device this way; fxscope's emulated device is a test stand-in). Loaded at run time
// from paths the user gives (--device-plugin, FXSCOPE_DEVICE_PLUGINS); internal to the runtime module.

#include "util/result.h"

#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxs {

struct DeviceMemoryStats {
    int64_t currentBytes = 0;
    int64_t peakBytes = 0;
    int64_t allocations = 0;
};

// dlopen's the library once per path; its static initialisers register allocator, guard and kernels.
Status loadDevicePlugin(const std::string &path);
// Every path in FXSCOPE_DEVICE_PLUGINS (colon-separated), once per process.
Status loadConfiguredDevicePlugins();
std::vector<std::string> loadedDevicePlugins();

// Allocator statistics from a loaded plugin that exports fxscope_device_memory_stats; none otherwise.
std::optional<DeviceMemoryStats> deviceMemoryStats(c10::Device device);
// Starts a new peak (fxscope_device_reset_peak) where the plugin offers it.
void resetDevicePeak(c10::Device device);

} // namespace fxs
