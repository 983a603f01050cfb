#include "graph_file.h"

#include <charconv>

namespace fxs {

const NamedGraph *GraphFile::find(std::string_view nameOrIndex) const
{
    for (const auto &g : graphs)
        if (g.name == nameOrIndex)
            return &g;
    size_t index = 0;
    auto res = std::from_chars(nameOrIndex.data(), nameOrIndex.data() + nameOrIndex.size(), index);
    if (res.ec == std::errc() && res.ptr == nameOrIndex.data() + nameOrIndex.size() && index < graphs.size())
        return &graphs[index];
    return nullptr;
}

} // namespace fxs
