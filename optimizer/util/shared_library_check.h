#pragma once
// A check of a shared library before dlopen: the loader maps its segments as the file describes them, and a file
// cut short (a copy that stopped early) faults with SIGBUS when a page past its end is touched, killing the
// process instead of giving an error.

#include "result.h"

#include <string>

namespace fxs {

// Ok when `path` is a 64-bit ELF file whose headers and loadable segments lie within it; otherwise an error
// saying what was expected and what was found.
Status checkSharedLibrary(const std::string &path);

} // namespace fxs
