// Fuzzes the readable-code parser (print_readable, gm.code, depyf, black-formatted, print(ep)): never crash,
// hang or overflow the stack, and whatever it accepts is a valid graph (nested graphs included).
#include "io/readable_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseReadable(text, "fuzz.py");
    if (!file) {
        // Every error is located and phrased "expected ..., found ...".
        if (file.error().line < 1 || file.error().message.rfind("expected ", 0) != 0)
            std::abort();
        return 0;
    }
    for (const auto &g : file->graphs) {
        if (!fxs::lint(*g.graph).empty())
            std::abort();
        (void)fxs::printCanonical(*g.graph);
    }
    return 0;
}
