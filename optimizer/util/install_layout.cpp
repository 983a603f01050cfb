#include "install_layout.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

// Set by optimizer/CMakeLists.txt; the defaults are for builds without LibTorch (the fuzz targets).
#ifndef FXSCOPE_VERSION
#define FXSCOPE_VERSION "unknown"
#endif
#ifndef FXSCOPE_BUILD_TORCH_VERSION
#define FXSCOPE_BUILD_TORCH_VERSION ""
#endif
#ifndef FXSCOPE_BUILD_PYTHON
#define FXSCOPE_BUILD_PYTHON ""
#endif
#ifndef FXSCOPE_BUILD_SOURCE_DIR
#define FXSCOPE_BUILD_SOURCE_DIR ""
#endif

namespace fxs {

namespace {

namespace fs = std::filesystem;

bool isDir(const fs::path &p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool isExecutable(const std::string &p)
{
    std::error_code ec;
    return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// PREFIX/share/fxscope for a program in PREFIX/bin, when it is there.
fs::path installedData()
{
    const fs::path share = fs::path(executableDirectory()).parent_path() / "share" / "fxscope";
    return isDir(share) ? share : fs::path();
}

std::string findOnPath(const std::string &name)
{
    const char *path = std::getenv("PATH");
    std::string list = path ? path : "/usr/local/bin:/usr/bin:/bin";
    for (size_t start = 0; start <= list.size();) {
        size_t end = list.find(':', start);
        if (end == std::string::npos)
            end = list.size();
        const std::string dir = list.substr(start, end - start);
        if (!dir.empty() && isExecutable(dir + "/" + name))
            return dir + "/" + name;
        start = end + 1;
    }
    return {};
}

} // namespace

std::string executableDirectory()
{
    char path[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return ".";
    const std::string p(path, size_t(n));
    return p.substr(0, p.rfind('/'));
}

std::string runtimeModuleDirectory()
{
    const std::string exe = executableDirectory();
    std::error_code ec;
    if (fs::exists(exe + "/libfxscope_runtime.so", ec))
        return exe;
    const fs::path installed = fs::path(exe).parent_path() / "lib" / "fxscope";
    return isDir(installed) ? installed.string() : exe; // neither: the error names the build tree's path
}

std::string dataDirectory()
{
    if (fs::path share = installedData(); !share.empty())
        return share.string();
    return std::string(FXSCOPE_BUILD_SOURCE_DIR) + "/resources";
}

std::string pythonPackageDirectory()
{
    if (fs::path share = installedData(); !share.empty() && isDir(share / "python" / "fxscope_capture"))
        return (share / "python").string();
    const fs::path source = fs::path(FXSCOPE_BUILD_SOURCE_DIR) / "python";
    return isDir(source / "fxscope_capture") ? source.string() : std::string();
}

std::string defaultPython()
{
    if (const char *env = std::getenv("FXSCOPE_PYTHON"); env && *env)
        return env;
    if (isExecutable(FXSCOPE_BUILD_PYTHON))
        return FXSCOPE_BUILD_PYTHON;
    return findOnPath("python3");
}

std::string buildTorchVersion()
{
    return FXSCOPE_BUILD_TORCH_VERSION;
}

std::string versionText(const std::string &program)
{
    const std::string torch = FXSCOPE_BUILD_TORCH_VERSION;
    const std::string python = defaultPython();
    const char *env = std::getenv("FXSCOPE_PYTHON");
    const std::string pythonWhy = env && *env   ? "FXSCOPE_PYTHON"
        : python == FXSCOPE_BUILD_PYTHON        ? "the one fxscope was built with"
        : python.empty()                        ? ""
                                                : "from PATH; set FXSCOPE_PYTHON to choose";
    std::string text = program + " " + FXSCOPE_VERSION + "\n";
    text += "LibTorch " + (torch.empty() ? std::string("(none: built without the runtime)") : torch)
        + (torch.empty() ? "" : " (built against the torch of " + std::string(FXSCOPE_BUILD_PYTHON) + ")") + "\n";
    text += "Python " + (python.empty() ? std::string("(none found: set FXSCOPE_PYTHON)") : python)
        + (pythonWhy.empty() ? "" : " (" + pythonWhy + ")") + "\n";
    text += "runtime module " + runtimeModuleDirectory() + "/libfxscope_runtime.so\n";
    text += "data " + dataDirectory() + "\n";
    return text;
}

} // namespace fxs
