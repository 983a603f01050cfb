// Fuzzes the torch.export JSON reader: never crash or hang, and whatever it accepts is a valid graph
// (nested graphs included) that prints canonically.
#include "io/export_json_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseExportJson(text, "fuzz.json");
    if (!file)
        return 0;
    for (const auto &g : file->graphs) {
        if (!fxs::lint(*g.graph).empty())
            std::abort();
        (void)fxs::printCanonical(*g.graph);
    }
    return 0;
}
