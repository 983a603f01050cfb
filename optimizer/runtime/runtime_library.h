#pragma once
// Loads the fxscope_runtime module (LibTorch inside) on first use and calls into it. Qt-free and
// torch-free: callers get our own types, and nothing of LibTorch is loaded until they ask.

#include "device_info.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace fxs {

struct RuntimeDevices {
    std::string libtorchVersion;
    std::vector<DeviceInfo> devices;
};

// Loads libfxscope_runtime.so from beside the executable (or FXSCOPE_RUNTIME_LIBRARY) and lists devices.
Result<RuntimeDevices> runtimeDevices();
// Every operator schema registered in LibTorch, as schema text lines.
Result<std::vector<std::string>> runtimeOpSchemas();

} // namespace fxs
