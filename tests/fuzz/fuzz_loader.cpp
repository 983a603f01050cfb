// Fuzzes format sniffing and every parser behind it, as a user opening an arbitrary file would.
#include "io/loader.h"
#include "ir/lint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto file = fxs::loadGraphBytes(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
    if (file)
        for (const auto &g : file->graphs)
            (void)fxs::lint(*g.graph);
    return 0;
}
