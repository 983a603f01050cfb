#include "device_plugins.h"

#include "device_info.h"
#include "util/shared_library_check.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace fxs {

namespace {

using MemoryStats = bool (*)(int, int, int64_t *, int64_t *, int64_t *);
using ResetPeak = void (*)(int, int);

// The optional memory hooks are looked up once at load: every profiled run asks for them.
struct Plugin {
    std::string path;
    MemoryStats memoryStats = nullptr;
    ResetPeak resetPeak = nullptr;
};

std::mutex pluginsMutex;
std::vector<Plugin> plugins;

std::string lastDlError()
{
    const char *why = dlerror();
    return why ? why : "unknown error";
}

// torch_npu's libtorch_npu.so links torch's Python bindings (libtorch_python.so), which need libpython's symbols: a
// Python process has both loaded before it imports torch_npu, fxscope has neither. Loads them, globally, from the
// environment the runtime was built against.
std::optional<std::string> loadTorchPythonBindings()
{
    if (!*FXSCOPE_LIBPYTHON)
        return "the Python environment it was built against (" + torchPython() + ") has no shared libpython";
    if (!dlopen(FXSCOPE_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL))
        return "cannot load libpython (" + lastDlError() + ")";
    const std::string bindings = libtorchDirectory() + "/libtorch_python.so";
    if (!dlopen(bindings.c_str(), RTLD_NOW | RTLD_GLOBAL))
        return "cannot load torch's Python bindings (" + lastDlError() + ")";
    return std::nullopt;
}

bool needsTorchPython(const std::string &why)
{
    return why.find("libtorch_python.so") != std::string::npos || why.find("undefined symbol: Py") != std::string::npos
        || why.find("undefined symbol: _Py") != std::string::npos;
}

// What to do about a library or symbol the plugin needs that is not there, where we know whose it is: torch_npu
// links CANN's runtime (libascendcl, libhccl, libacl_*, libge_runner, libgraph; symbols acl*, Hccl*).
std::string missingLibraryHint(const std::string &why)
{
    static const char *const cann[] = {"libascend", "libhccl", "libacl_", "libge_runner", "libgraph.so", "libopapi",
        "undefined symbol: acl", "undefined symbol: Hccl", "undefined symbol: hccl"};
    for (const char *mark : cann)
        if (why.find(mark) != std::string::npos)
            return " (this comes from Huawei's CANN toolkit, which torch_npu needs at run time: install CANN for your NPU "
                   "and start fxscope from a shell that ran `source /usr/local/Ascend/ascend-toolkit/set_env.sh`)";
    return {};
}

} // namespace

Status loadDevicePlugin(const std::string &path)
{
    std::lock_guard<std::mutex> lock(pluginsMutex);
    for (const Plugin &p : plugins)
        if (p.path == path)
            return Ok{};
    // A path with a '/' names a file, checked first (dlopen faults on a file cut short); a bare name is found
    // by dlopen's library search.
    if (path.find('/') != std::string::npos)
        if (auto whole = checkSharedLibrary(path); !whole)
            return Error{path, 0, 0, "cannot load the device plugin: " + whole.error().message};
    // RTLD_GLOBAL: a vendor plugin's own dependants (its ops libraries) resolve symbols against it.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        std::string why = lastDlError();
        if (needsTorchPython(why)) {
            if (auto failed = loadTorchPythonBindings())
                return Error{path, 0, 0, "cannot load the device plugin: it needs torch's Python bindings, and " + *failed};
            handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
            if (!handle)
                why = lastDlError();
        }
        if (!handle)
            return Error{path, 0, 0, "cannot load the device plugin: " + why + missingLibraryHint(why)};
    }
    plugins.push_back({path, reinterpret_cast<MemoryStats>(dlsym(handle, "fxscope_device_memory_stats")),
        reinterpret_cast<ResetPeak>(dlsym(handle, "fxscope_device_reset_peak"))});
    return Ok{};
}

Status loadConfiguredDevicePlugins()
{
    static std::once_flag once;
    static Status result = Ok{};
    std::call_once(once, [] {
        const char *configured = std::getenv("FXSCOPE_DEVICE_PLUGINS");
        std::string list = configured ? configured : "";
        for (size_t start = 0; start < list.size();) {
            size_t end = list.find(':', start);
            if (end == std::string::npos)
                end = list.size();
            if (end > start)
                if (auto loaded = loadDevicePlugin(list.substr(start, end - start)); !loaded) {
                    result = loaded.error();
                    return;
                }
            start = end + 1;
        }
    });
    return result;
}

std::vector<std::string> loadedDevicePlugins()
{
    std::lock_guard<std::mutex> lock(pluginsMutex);
    std::vector<std::string> paths;
    for (const Plugin &p : plugins)
        paths.push_back(p.path);
    return paths;
}

std::optional<DeviceMemoryStats> deviceMemoryStats(c10::Device device)
{
    std::lock_guard<std::mutex> lock(pluginsMutex);
    for (const Plugin &p : plugins) {
        DeviceMemoryStats s;
        if (p.memoryStats
            && p.memoryStats(int(device.type()), device.has_index() ? device.index() : 0, &s.currentBytes, &s.peakBytes,
                &s.allocations))
            return s;
    }
    return std::nullopt;
}

void resetDevicePeak(c10::Device device)
{
    std::lock_guard<std::mutex> lock(pluginsMutex);
    for (const Plugin &p : plugins)
        if (p.resetPeak)
            p.resetPeak(int(device.type()), device.has_index() ? device.index() : 0);
}

} // namespace fxs
