// Fuzzes the print(gm.graph) text reader: never crash or hang; whatever it accepts is a valid graph that
// the writer prints as text which reads back to the same graph.
#include "io/fx_text_parser.h"
#include "io/fx_text_writer.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseFxText(text, "fuzz.txt");
    if (!file)
        return 0;
    for (const auto &g : file->graphs) {
        if (!fxs::lint(*g.graph).empty())
            std::abort();
        std::string written = fxs::writeFxText(*g.graph);
        auto again = fxs::parseFxText(written, "again.txt");
        if (!again || again->graphs.size() != 1)
            std::abort();
        if (fxs::printCanonical(*again->graphs[0].graph) != fxs::printCanonical(*g.graph))
            std::abort();
    }
    return 0;
}
