#pragma once
// Where fxscope's own files are, wherever it runs from. Installed (cmake --install, the .deb), a program in
// PREFIX/bin finds PREFIX/lib/fxscope (the LibTorch runtime module and its plugins) and PREFIX/share/fxscope
// (samples, pattern files, the fxscope_capture package and its wheel). Run from a build tree (build/bin), the
// runtime module sits beside the program and the rest is the source tree's, as before there was an install.

#include <string>

namespace fxs {

// The folder of the running program (/proc/self/exe), "." when it cannot be read.
std::string executableDirectory();

// The folder libfxscope_runtime.so (and libfxscope_emulated_npu.so) is in: beside the program when it is there
// (the build tree), else PREFIX/lib/fxscope. FXSCOPE_RUNTIME_LIBRARY still names the module itself.
std::string runtimeModuleDirectory();

// PREFIX/share/fxscope when the program is installed, else the source tree's resources/.
std::string dataDirectory();

// The folder that holds the fxscope_capture package, for PYTHONPATH: PREFIX/share/fxscope/python installed, else
// the source tree's python/. Empty when neither has it.
std::string pythonPackageDirectory();

// The Python fxscope runs torch's own code in (--check-with-torch, the Torch column): FXSCOPE_PYTHON, else the one
// fxscope was built with when it is still there, else python3 from PATH. Empty when there is none.
std::string defaultPython();

// The torch version the runtime module was built against (empty in a build without LibTorch).
std::string buildTorchVersion();

// `--version`: fxscope's version, the LibTorch it was built with (and from which Python), the Python it uses now,
// and where its files are. `program` names the executable ("fxscope", "fxscope-cli").
std::string versionText(const std::string &program);

} // namespace fxs
