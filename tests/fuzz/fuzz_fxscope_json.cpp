// Fuzzes the fxscope JSON reader, and checks that whatever it accepts is a valid graph that
// writes back to JSON which reads again to the same graph.
#include "io/fxscope_json.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto file = fxs::parseFxscopeJson(text, "fuzz.json");
    if (!file)
        return 0;
    for (const auto &g : file->graphs)
        (void)fxs::lint(*g.graph);
    auto again = fxs::parseFxscopeJson(fxs::writeFxscopeJson(file.value()), "again.json");
    if (!again || again->graphs.size() != file->graphs.size())
        std::abort();
    for (size_t i = 0; i < file->graphs.size(); ++i)
        if (fxs::printCanonical(*again->graphs[i].graph) != fxs::printCanonical(*file->graphs[i].graph))
            std::abort();
    return 0;
}
