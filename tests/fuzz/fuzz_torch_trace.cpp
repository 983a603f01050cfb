// Fuzzes the TORCH_TRACE log parser: never crash or hang; accepted logs hold valid graphs, and every
// warning about a skipped record is located in the file.
#include "io/torch_trace_parser.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseTorchTrace(text, "fuzz.log");
    if (!file) {
        if (file.error().message.rfind("expected ", 0) != 0)
            std::abort();
        return 0;
    }
    if (file->graphs.empty())
        std::abort();
    for (const auto &g : file->graphs) {
        if (!fxs::lint(*g.graph).empty())
            std::abort();
        (void)fxs::printCanonical(*g.graph);
    }
    for (const auto &w : file->warnings)
        if (w.message.empty())
            std::abort();
    return 0;
}
