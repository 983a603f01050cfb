#include "torchair_builtins.h"

#include "pattern_file.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>

#ifndef FXSCOPE_TORCH_PREFIX
#define FXSCOPE_TORCH_PREFIX "" // a build without torch (the fuzz targets)
#endif

namespace fxs {

namespace {

// _apply_pattern_passes' registrations in max-autotune (batch_matmul_transpose and add_rms_norm_quant only in the
// other modes).
const char *const kFiles[] = {"add_rms_norm_dynamic_quant.py", "add_rms_norm_cast.py"};

// Loaded once per folder and process: the files take a few ms each and never change under a running fxscope.
Result<std::shared_ptr<const PatternRegistry>> loadOnce(const std::string &folder)
{
    static std::mutex mutex;
    static std::string loadedFrom;
    static std::shared_ptr<const PatternRegistry> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    if (loaded && loadedFrom == folder)
        return loaded;
    PatternRegistry files;
    for (const char *name : kFiles) {
        const std::string path = (std::filesystem::path(folder) / name).string();
        if (!std::filesystem::exists(path))
            continue; // an older TorchAir without it
        if (auto st = loadPatternFile(path, files); !st)
            return st.error();
    }
    auto marked = std::make_shared<PatternRegistry>();
    for (const auto &e : files.entries()) {
        auto entry = std::make_shared<PatternEntry>(*e);
        entry->torchairBuiltin = true;
        if (auto st = marked->add(entry); !st)
            return st.error();
    }
    loaded = std::move(marked);
    loadedFrom = folder;
    return loaded;
}

} // namespace

std::string TorchairBuiltins::folder()
{
    if (const char *env = std::getenv("FXSCOPE_TORCHAIR_PATTERNS"))
        return env;
    const std::filesystem::path site = std::filesystem::path(FXSCOPE_TORCH_PREFIX).parent_path();
    for (const char *relative : {"torch_npu/dynamo/torchair/patterns", "torchair/patterns"}) {
        std::error_code ec;
        if (std::filesystem::is_directory(site / relative, ec))
            return (site / relative).string();
    }
    return {};
}

Result<std::shared_ptr<PatternRegistry>> TorchairBuiltins::arrange(const PatternRegistry &registry)
{
    auto out = std::make_shared<PatternRegistry>();
    bool torchair = false;
    std::vector<PatternEntryPtr> loaded; // built-ins already here (the torch host registers them itself)
    for (const auto &e : registry.entries()) {
        if (e->torchairBuiltin) {
            loaded.push_back(e);
            continue;
        }
        torchair = torchair || e->api == PatternApi::Torchair;
        if (auto st = out->add(e); !st)
            return st.error();
    }
    for (const auto &w : registry.warnings())
        out->addWarning(w);
    if (!loaded.empty()) { // moved last, not loaded again
        for (const auto &e : loaded)
            if (auto st = out->add(e); !st)
                return st.error();
        out->setTorchairBuiltinsFrom(registry.torchairBuiltinsFrom());
        return out;
    }
    const std::string from = torchair ? folder() : std::string();
    if (from.empty())
        return out;
    auto builtins = loadOnce(from);
    if (!builtins)
        return builtins.error();
    for (const auto &e : builtins.value()->entries())
        if (auto st = out->add(e); !st)
            return st.error();
    out->setTorchairBuiltinsFrom(builtins.value()->entries().empty() ? std::string() : from);
    return out;
}

} // namespace fxs
