#include "runtime_library.h"

#include "io/fxscope_json.h"
#include "io/loader.h"
#include "ir/graph_file.h"
#include "node_positions.h"
#include "util/json.h"
#include "util/install_layout.h"
#include "util/progress.h"
#include "util/shared_library_check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <limits.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace fxs {

namespace {

std::string runtimeLibraryPath()
{
    const char *configured = std::getenv("FXSCOPE_RUNTIME_LIBRARY");
    return configured ? configured : runtimeModuleDirectory() + "/libfxscope_runtime.so";
}

// The module finds LibTorch through the path it was built against (its RUNPATH). Installed where that torch is not
// (a .deb on another machine), LibTorch is loaded first from the torch of defaultPython(), which must be the same
// version: LibTorch has no stable ABI. Empty on success, else why not.
std::string preloadTorchFromPython()
{
    const std::string python = defaultPython();
    if (python.empty())
        return "no Python to find torch in (set FXSCOPE_PYTHON)";
    const std::string cmd = "'" + python + "' -c 'import os, torch; print(torch.__version__); "
                                           "print(os.path.join(os.path.dirname(torch.__file__), \"lib\"))' 2>/dev/null";
    std::string out;
    if (FILE *pipe = ::popen(cmd.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
            out.append(buf, n);
        if (::pclose(pipe) != 0)
            out.clear();
    }
    const size_t eol = out.find('\n');
    if (eol == std::string::npos)
        return python + " cannot import torch (set FXSCOPE_PYTHON to a Python with torch " + buildTorchVersion() + ")";
    const std::string version = out.substr(0, eol);
    std::string libDir = out.substr(eol + 1);
    while (!libDir.empty() && (libDir.back() == '\n' || libDir.back() == '\r'))
        libDir.pop_back();
    if (version != buildTorchVersion())
        return python + " has torch " + version + "; the runtime module was built against torch "
            + buildTorchVersion() + " (set FXSCOPE_PYTHON to a Python with that version)";
    for (const char *name : {"libc10.so", "libtorch_cpu.so", "libtorch.so"}) {
        const std::string lib = libDir + "/" + name;
        std::error_code ec;
        if (!std::filesystem::exists(lib, ec))
            continue;
        if (!dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            const char *why = dlerror();
            return "cannot load " + lib + ": " + (why ? why : "unknown error");
        }
    }
    spdlog::info("LibTorch {} loaded from {} ({})", version, libDir, python);
    return {};
}

// The first line of the schema cache: which runtime module (and so which LibTorch) its lines came from. A rebuilt
// module (another FXSCOPE_PYTHON, another torch) has another size or time, and the cache is made anew.
std::string schemaCacheKey(const std::string &module)
{
    struct stat st {};
    if (stat(module.c_str(), &st) != 0)
        return {};
    return "# fxscope operator schemas of " + module + " " + std::to_string(st.st_size) + " "
        + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

std::vector<std::string> schemaLines(std::string_view text)
{
    std::vector<std::string> lines;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        if (end > start && text[start] != '#')
            lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

Result<void *> runtimeHandle()
{
    // The GUI lists devices and profiles from different worker threads.
    static std::mutex lock;
    std::lock_guard<std::mutex> guard(lock);
    static void *handle = nullptr;
    static std::string failure;
    if (handle)
        return handle;
    if (!failure.empty())
        return Error{{}, 0, 0, failure};
    const std::string path = runtimeLibraryPath();
    if (auto whole = checkSharedLibrary(path); !whole) {
        failure = "cannot load the LibTorch runtime " + whole.error().toString();
        return Error{{}, 0, 0, failure};
    }
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        std::string why = error ? error : "unknown error";
        if (why.find("cannot open shared object file") != std::string::npos
            && (why.find("libtorch") != std::string::npos || why.find("libc10") != std::string::npos)) {
            if (std::string preload = preloadTorchFromPython(); preload.empty()) {
                handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
                error = handle ? nullptr : dlerror();
                why = error ? error : why;
            } else {
                why += "; " + preload;
            }
        }
        if (!handle) {
            failure = "cannot load the LibTorch runtime " + path + ": " + why;
            return Error{{}, 0, 0, failure};
        }
    }
    return handle;
}

std::string graphText(const Graph &graph)
{
    GraphFile file;
    file.format = "fxscope";
    file.graphs.push_back({"graph", {}, graph.clone(), 0});
    return writeFxscopeJson(file);
}

GraphProfile graphProfile(const Json &j)
{
    GraphProfile g;
    g.medianMs = j["median_ms"].toDouble();
    for (const Json &n : j["nodes"].items())
        g.nodes.push_back({n["name"].toString(), n["target"].toString(), n["median_us"].toDouble(),
            n["reference_kernel"].toBool(), n["stand_in"].toString()});
    for (const Json &o : j["outputs"].items()) {
        OutputValue v;
        v.dtype = o["dtype"].toString();
        for (const Json &d : o["shape"].items())
            v.shape.push_back(d.toInt());
        // Non-finite values travel as the strings JSON writing gives them ("-Infinity": a fully masked row).
        for (const Json &x : o["values"].items())
            v.values.push_back(!x.isString()      ? x.toDouble()
                    : x.toString() == "Infinity"  ? HUGE_VAL
                    : x.toString() == "-Infinity" ? -HUGE_VAL
                                                  : std::nan(""));
        g.outputs.push_back(std::move(v));
    }
    g.failedNode = j["failed_node"].toString();
    g.error = j["error"].toString();
    return g;
}

std::vector<std::string> strings(const Json &array)
{
    std::vector<std::string> out;
    for (const Json &s : array.items())
        out.push_back(s.toString());
    return out;
}

std::vector<RegionProfile> regionProfiles(const Json &regions)
{
    std::vector<RegionProfile> out;
    for (const Json &r : regions.items())
        out.push_back({r["pattern"].toString(), r["anchor"].toString(), strings(r["origin"]), strings(r["nodes"]),
            r["unfused_us"].toDouble(), r["fused_us"].toDouble(), r["speedup"].toDouble(),
            !r["complete"].isBool() || r["complete"].toBool(), r["reference_kernel"].toBool()});
    return out;
}

} // namespace

Status runtimeLoadDevicePlugins(const std::vector<std::string> &paths)
{
    if (paths.empty())
        return Ok{};
    auto handle = runtimeHandle();
    if (!handle)
        return handle.error();
    using Load = const char *(*)(const char *);
    auto call = reinterpret_cast<Load>(dlsym(handle.value(), "fxscope_runtime_load_device_plugin"));
    if (!call)
        return Error{{}, 0, 0, "the LibTorch runtime lacks fxscope_runtime_load_device_plugin"};
    for (const auto &path : paths)
        if (std::string why = call(path.c_str()); !why.empty())
            return Error{{}, 0, 0, why};
    return Ok{};
}

Json profileRequest(const Graph &unfused, const Graph *fused, const ProfileOptions &options)
{
    Json request = Json::object({{"unfused", graphText(unfused)}, {"fused", fused ? Json(graphText(*fused)) : Json()},
        {"device", options.device}, {"iters", options.iters}, {"warmup", options.warmup},
        {"seed", int64_t(options.seed)}, {"inputs", options.inputsPath},
        {"expected_outputs", options.expectedOutputsPath}, {"reference_device", options.referenceDevice},
        {"node_times", options.nodeTimes}, {"return_outputs", options.returnOutputs},
        {"source_file", options.sourceFile}, {"unfused_positions", nodePositions(unfused, options.sourceFile)},
        {"fused_positions", fused ? nodePositions(*fused, options.sourceFile) : Json()}});
    Json symbols = Json::object();
    for (const auto &[name, value] : options.symbols)
        symbols.set(name, value);
    request.set("symbols", std::move(symbols));
    return request;
}

Result<ProfileReport> profileReportFromJson(Json json, const std::string &sourceFile, ProfileReport *partial)
{
    const Json &r = json;
    if (r["canceled"].toBool())
        return canceledError(sourceFile);
    if (r["error"].isString()) {
        if (partial) {
            *partial = ProfileReport();
            partial->device = r["device"].toString();
            if (r["unfused"].isObject())
                partial->unfused = graphProfile(r["unfused"]);
            if (r["fused"].isObject())
                partial->fused = graphProfile(r["fused"]);
            partial->json = r;
        }
        const Json &at = r["error_at"];
        return Error{at["file"].toString(), int(at["line"].toInt()), int(at["column"].toInt()), r["error"].toString()};
    }
    ProfileReport report;
    report.device = r["device"].toString();
    report.unfused = graphProfile(r["unfused"]);
    for (const Json &w : r["warnings"].items())
        report.warnings.push_back(w.toString());
    if (r["fused"].isObject()) {
        report.fused = graphProfile(r["fused"]);
        report.speedup = r["speedup"].toDouble();
        report.outputsMatch = r["outputs_match"].toBool();
        report.maxAbsDiff = r["max_abs_diff"].toDouble();
        report.outputsDetail = r["outputs_detail"].toString();
        report.outputsNonFinite = r["outputs_nonfinite"].toString();
        report.regions = regionProfiles(r["regions"]);
    }
    if (r["expected"].isObject()) {
        report.expectedMatch = r["expected"]["outputs_match"].toBool();
        report.expectedMaxAbsDiff = r["expected"]["max_abs_diff"].toDouble();
    }
    if (r["reference"].isObject()) {
        report.referenceMatch = r["reference"]["outputs_match"].toBool();
        report.referenceMaxAbsDiff = r["reference"]["max_abs_diff"].toDouble();
    }
    report.json = std::move(json);
    return report;
}

Result<ProfileReport> runtimeProfile(
    const Graph &unfused, const Graph *fused, const ProfileOptions &options, ProfileReport *partial)
{
    auto handle = runtimeHandle();
    if (!handle)
        return handle.error();
    if (auto loaded = runtimeLoadDevicePlugins(options.devicePlugins); !loaded)
        return loaded.error();
    using Progress = int (*)(void *context, double fraction);
    using Profile = const char *(*)(const char *, Progress, void *);
    auto call = reinterpret_cast<Profile>(dlsym(handle.value(), "fxscope_runtime_profile"));
    if (!call)
        return Error{{}, 0, 0, "the LibTorch runtime lacks fxscope_runtime_profile"};
    const Json request = profileRequest(unfused, fused, options);
    // The callback crosses the module boundary as a C function and its context.
    Progress progress = [](void *context, double fraction) {
        return (*static_cast<const std::function<bool(double)> *>(context))(fraction) ? 1 : 0;
    };
    auto json = Json::parse(options.progress
            ? call(request.dump().c_str(), progress, const_cast<std::function<bool(double)> *>(&options.progress))
            : call(request.dump().c_str(), nullptr, nullptr),
        "runtime");
    if (!json)
        return json.error();
    return profileReportFromJson(std::move(json.value()), options.sourceFile, partial);
}

Result<Json> runtimeRankProfile(const Json &request, RankSlot *slot, const std::function<bool(double)> &progress)
{
    auto handle = runtimeHandle();
    if (!handle)
        return handle.error();
    std::vector<std::string> plugins;
    for (const Json &p : request["device_plugins"].items())
        plugins.push_back(p.toString());
    if (auto loaded = runtimeLoadDevicePlugins(plugins); !loaded)
        return loaded.error();
    using Progress = int (*)(void *context, double fraction);
    using RankProfile = const char *(*)(const char *, void *, Progress, void *);
    auto call = reinterpret_cast<RankProfile>(dlsym(handle.value(), "fxscope_runtime_rank_profile"));
    if (!call)
        return Error{{}, 0, 0, "the LibTorch runtime lacks fxscope_runtime_rank_profile"};
    Progress report = [](void *context, double fraction) {
        return (*static_cast<const std::function<bool(double)> *>(context))(fraction) ? 1 : 0;
    };
    return Json::parse(progress
            ? call(request.dump().c_str(), slot, report, const_cast<std::function<bool(double)> *>(&progress))
            : call(request.dump().c_str(), slot, nullptr, nullptr),
        "runtime");
}

Result<RuntimeDevices> runtimeDevices(const std::vector<std::string> &plugins)
{
    auto handle = runtimeHandle();
    if (!handle)
        return handle.error();
    if (auto loaded = runtimeLoadDevicePlugins(plugins); !loaded)
        return loaded.error();
    using DevicesJson = const char *(*)();
    auto call = reinterpret_cast<DevicesJson>(dlsym(handle.value(), "fxscope_runtime_devices_json"));
    if (!call)
        return Error{{}, 0, 0, "the LibTorch runtime lacks fxscope_runtime_devices_json"};
    auto json = Json::parse(call(), "runtime");
    if (!json)
        return json.error();
    if (json.value()["error"].isString())
        return Error{{}, 0, 0, json.value()["error"].toString()};
    RuntimeDevices out;
    out.libtorchVersion = json.value()["libtorch"].toString();
    out.libtorchDirectory = json.value()["torch"]["library_dir"].toString();
    out.torchPython = json.value()["torch"]["python"].toString();
    for (const Json &p : json.value()["plugins"].items())
        out.plugins.push_back(p.toString());
    for (const Json &d : json.value()["devices"].items())
        out.devices.push_back(
            {d["name"].toString(), d["backend"].toString(), d["available"].toBool(), d["detail"].toString()});
    return out;
}

Result<std::vector<std::string>> runtimeOpSchemas()
{
    // LibTorch's schemas are read once per runtime module and kept beside it (FILE.schemas), so a command that only
    // needs schemas (match, apply, patterns) reads a text file instead of loading LibTorch (0.3 s, ~120 MB). With
    // device plugins configured their ops count too, so LibTorch is asked.
    const std::string module = runtimeLibraryPath();
    std::string cache = module.substr(0, module.rfind('.')) + ".schemas";
    // An installed module's folder is not the user's to write: the cache goes to the user's cache folder (its
    // first line names the module, so one cache never serves another module).
    if (::access(module.substr(0, module.rfind('/') + 1).c_str(), W_OK) != 0) {
        const char *xdg = std::getenv("XDG_CACHE_HOME");
        const char *home = std::getenv("HOME");
        const std::string dir = xdg && *xdg ? std::string(xdg) + "/fxscope"
            : home && *home                 ? std::string(home) + "/.cache/fxscope"
                                            : std::string();
        std::error_code ec;
        if (!dir.empty() && (std::filesystem::create_directories(dir, ec) || std::filesystem::is_directory(dir, ec)))
            cache = dir + "/libfxscope_runtime.schemas";
    }
    const std::string key = schemaCacheKey(module);
    const bool plugins = std::getenv("FXSCOPE_DEVICE_PLUGINS") && *std::getenv("FXSCOPE_DEVICE_PLUGINS");
    if (!key.empty() && !plugins)
        if (auto saved = readFileBytes(cache); saved && saved.value().compare(0, key.size() + 1, key + "\n") == 0)
            return schemaLines(saved.value());
    auto handle = runtimeHandle();
    if (!handle)
        return handle.error();
    using SchemasText = const char *(*)();
    auto call = reinterpret_cast<SchemasText>(dlsym(handle.value(), "fxscope_runtime_op_schemas"));
    if (!call)
        return Error{{}, 0, 0, "the LibTorch runtime lacks fxscope_runtime_op_schemas"};
    const std::string_view text = call();
    if (!key.empty() && !plugins) // best effort: a read-only folder only means LibTorch is asked next time too
        if (auto written = writeFileAtomically(cache, key + "\n" + std::string(text)); !written)
            spdlog::debug("operator schemas not cached: {}", written.error().toString());
    return schemaLines(text);
}

} // namespace fxs
