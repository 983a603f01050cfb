// Fuzzes the .pt2 archive reader (zip parsing, entry limits, the JSON inside): never crash or hang,
// and whatever it accepts is a valid graph.
#include "io/pt2_archive.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto file = fxs::parsePt2Archive(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz.pt2");
    if (!file)
        return 0;
    for (const auto &g : file->graphs)
        if (!fxs::lint(*g.graph).empty())
            std::abort();
    return 0;
}
