// The C entry points of the fxscope_runtime module. The module is loaded with dlopen only when a
// command needs LibTorch, so the CLI and GUI start without loading LibTorch's ~300 shared libraries.
// Results cross the boundary as JSON text: no C++ or torch types are shared with the caller. Each thread has its
// own result text (the GUI lists devices and profiles from different workers), valid until its next call.

#include "device_info.h"
#include "device_plugins.h"
#include "profiler.h"
#include "rank_slot.h"
#include "util/json.h"

#include <string>

extern "C" __attribute__((visibility("default"))) const char *fxscope_runtime_devices_json()
{
    static thread_local std::string text;
    if (auto loaded = fxs::loadConfiguredDevicePlugins(); !loaded) {
        text = fxs::Json::object({{"error", loaded.error().toString()}}).dump();
        return text.c_str();
    }
    fxs::Json devices = fxs::Json::array();
    for (const auto &d : fxs::discoverDevices())
        devices.push(fxs::Json::object(
            {{"name", d.name}, {"backend", d.backend}, {"available", d.available}, {"detail", d.detail}}));
    fxs::Json plugins = fxs::Json::array();
    for (const auto &path : fxs::loadedDevicePlugins())
        plugins.push(path);
    text = fxs::Json::object(
        {{"libtorch", fxs::libtorchVersion()},
            {"torch", fxs::Json::object({{"library_dir", fxs::libtorchDirectory()}, {"python", fxs::torchPython()}})},
            {"devices", std::move(devices)}, {"plugins", std::move(plugins)}})
               .dump();
    return text.c_str();
}

// Every operator schema LibTorch has registered (aten, prims, and any loaded plugin's ops such as
// torch_npu's), one per line, in the text form native_functions.yaml uses.
extern "C" __attribute__((visibility("default"))) const char *fxscope_runtime_op_schemas()
{
    static std::string text = fxs::registeredOpSchemas();
    return text.c_str();
}

// Profiles a graph and its fused form (fxs::runProfile's request and result, as JSON text). progress (may be
// null) receives the fraction done and returns 0 to cancel. The returned text lives until this thread's next call.
extern "C" __attribute__((visibility("default"))) const char *fxscope_runtime_profile(
    const char *requestJson, int (*progress)(void *context, double fraction), void *context)
{
    static thread_local std::string text;
    auto request = fxs::Json::parse(requestJson ? requestJson : "", "request");
    std::function<bool(double)> report;
    if (progress)
        report = [progress, context](double fraction) { return progress(context, fraction) != 0; };
    text = request ? fxs::runProfile(request.value(), report).dump()
                   : fxs::Json::object({{"error", request.error().toString()}}).dump();
    return text.c_str();
}

// Loads a device plugin (a library registering a LibTorch backend, such as torch_npu's); returns an empty text
// on success, else the error.
extern "C" __attribute__((visibility("default"))) const char *fxscope_runtime_load_device_plugin(const char *path)
{
    static thread_local std::string text;
    auto loaded = fxs::loadDevicePlugin(path ? path : "");
    text = loaded ? std::string() : loaded.error().toString();
    return text.c_str();
}

// One rank of a multi-rank profile (fxs::runRankProfile): `slot` is the rank's fxs::RankSlot in memory its launcher
// maps too. Same result text rules as fxscope_runtime_profile.
extern "C" __attribute__((visibility("default"))) const char *fxscope_runtime_rank_profile(
    const char *requestJson, void *slot, int (*progress)(void *context, double fraction), void *context)
{
    static thread_local std::string text;
    auto request = fxs::Json::parse(requestJson ? requestJson : "", "request");
    std::function<bool(double)> report;
    if (progress)
        report = [progress, context](double fraction) { return progress(context, fraction) != 0; };
    text = request ? fxs::runRankProfile(request.value(), static_cast<fxs::RankSlot *>(slot), report).dump()
                   : fxs::Json::object({{"error", request.error().toString()}}).dump();
    return text.c_str();
}
