#include "devices_command.h"

#include "command_inputs.h"
#include "command_line.h"
#include "runtime/runtime_library.h"
#include "util/json.h"

#include <cstdio>

namespace fxs::cli {

int runDevices(const std::vector<std::string> &args)
{
    const char *usage = "usage: fxscope-cli devices [--device-plugin LIBRARY.so]... [--json]\n"
                        "the LibTorch in use, the Python it came from and the devices graphs can run on\n"
                        "  --device-plugin LIBRARY.so  load a device plugin first (torch_npu's libtorch_npu.so)\n"
                        "  --json                      one JSON document on stdout\n";
    if (helpRequested(args))
        return printHelp(usage);
    CommandLine cmd;
    if (auto err = cmd.parse(args, {"--device-plugin"}, {"--json"}); err || !cmd.positional().empty()) {
        std::fprintf(stderr, "%s%s\n", usage, err ? err->c_str() : "");
        return UsageError;
    }
    if (!checkOptionFiles({}, cmd.values("--device-plugin")))
        return BadInput;
    auto runtime = runtimeDevices(cmd.values("--device-plugin"));
    if (!runtime) {
        std::fprintf(stderr, "%s\n", runtime.error().message.c_str());
        return RuntimeFailure;
    }
    const auto &devices = runtime->devices;
    if (cmd.flag("--json")) {
        Json list = Json::array();
        for (const auto &d : devices)
            list.push(Json::object(
                {{"name", d.name}, {"backend", d.backend}, {"available", d.available}, {"detail", d.detail}}));
        Json plugins = Json::array();
        for (const auto &p : runtime->plugins)
            plugins.push(p);
        std::printf("%s\n",
            Json::object(
                {{"libtorch", runtime->libtorchVersion},
                    {"torch",
                        Json::object({{"library_dir", runtime->libtorchDirectory}, {"python", runtime->torchPython}})},
                    {"devices", std::move(list)}, {"plugins", std::move(plugins)}})
                .dump(2)
                .c_str());
        return Success;
    }
    std::printf("LibTorch %s from %s\n  built against the torch of %s\n", runtime->libtorchVersion.c_str(),
        runtime->libtorchDirectory.c_str(), runtime->torchPython.c_str());
    for (const auto &p : runtime->plugins)
        std::printf("  plugin %s\n", p.c_str());
    for (const auto &d : devices)
        std::printf("  %-16s %-10s %s\n", d.name.c_str(), d.available ? "available" : "-", d.detail.c_str());
    return Success;
}

} // namespace fxs::cli
