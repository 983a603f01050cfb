#include "device_info.h"

// The only translation unit family that includes torch headers (DESIGN.md: runtime/ alone).
#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/DeviceType.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/version.h>

#include <dlfcn.h>

namespace fxs {

std::string libtorchVersion()
{
    return TORCH_VERSION;
}

std::string libtorchDirectory()
{
    Dl_info info {};
    if (!dladdr(reinterpret_cast<const void *>(&c10::DeviceTypeName), &info) || !info.dli_fname)
        return FXSCOPE_TORCH_PREFIX;
    std::string path = info.dli_fname;
    return path.substr(0, path.rfind('/'));
}

std::string torchPython()
{
    return FXSCOPE_TORCH_PYTHON;
}

std::vector<DeviceInfo> discoverDevices()
{
    std::vector<DeviceInfo> devices;
    devices.push_back({"cpu", c10::DeviceTypeName(c10::DeviceType::CPU, true), true, "LibTorch " + libtorchVersion()});
    // A device type is usable when a backend registered a guard for it (CUDA by libtorch_cuda, an NPU by
    // torch_npu's PrivateUse1 registration); the guard also gives its device count.
    const c10::DeviceType accelerators[] = {c10::DeviceType::CUDA, c10::DeviceType::HIP, c10::DeviceType::XPU,
        c10::DeviceType::MPS, c10::DeviceType::PrivateUse1};
    for (c10::DeviceType type : accelerators) {
        std::string backend = c10::DeviceTypeName(type, true);
        if (!c10::impl::hasDeviceGuardImpl(type)) {
            devices.push_back({backend, backend, false, "no backend registered in this LibTorch"});
            continue;
        }
        c10::DeviceIndex count = 0;
        try {
            count = c10::impl::getDeviceGuardImpl(type)->deviceCount();
        } catch (const std::exception &e) {
            devices.push_back({backend, backend, false, e.what()});
            continue;
        }
        if (count == 0)
            devices.push_back({backend, backend, false, "backend registered, no device attached"});
        for (c10::DeviceIndex i = 0; i < count; ++i)
            devices.push_back({backend + ":" + std::to_string(i), backend, true, {}});
    }
    return devices;
}

std::string registeredOpSchemas()
{
    std::string out;
    auto &dispatcher = c10::Dispatcher::singleton();
    for (const auto &name : dispatcher.getAllOpNames()) {
        auto handle = dispatcher.findSchema(name);
        if (!handle || !handle->hasSchema())
            continue;
        out += c10::toString(handle->schema());
        out += '\n';
    }
    return out;
}

} // namespace fxs
