#pragma once
// The LibTorch devices fxscope can run graphs on, discovered through LibTorch's generic device API
// (device guards), so CUDA and an NPU's PrivateUse1 plugin are found the same way. No torch types here.

#include <string>
#include <vector>

namespace fxs {

struct DeviceInfo {
    std::string name; // "cpu", "cuda:0", "privateuseone:0"
    std::string backend; // LibTorch's device type name
    bool available = false;
    std::string detail; // why not available, or what it is
};

std::string libtorchVersion();
// Where the LibTorch in this process was loaded from (the folder of libc10.so), and the Python environment whose
// torch the runtime was built against (FXSCOPE_PYTHON at build time).
std::string libtorchDirectory();
std::string torchPython();
// CPU always; then every other device type with a registered backend and its device count.
std::vector<DeviceInfo> discoverDevices();
// The schema of every operator in LibTorch's dispatcher, one per line ("aten::add.Tensor(Tensor self, ...) -> Tensor").
std::string registeredOpSchemas();

} // namespace fxs
