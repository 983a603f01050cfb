// Fuzzes the TorchAir graph_dump .py reader: never crash or hang; whatever it accepts is a valid graph
// that the FX text writer can print.
#include "io/fx_text_writer.h"
#include "io/torchair_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseTorchAirPy(text, "fuzz.py");
    if (!file)
        return 0;
    for (const auto &g : file->graphs) {
        if (!fxs::lint(*g.graph).empty())
            std::abort();
        (void)fxs::writeFxText(*g.graph);
        (void)fxs::printCanonical(*g.graph);
    }
    return 0;
}
