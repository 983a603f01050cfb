#include "op_base_name.h"

#include "ir/node.h"
#include "util/text.h"

#include <vector>

namespace fxs {

std::string opBaseName(const Node &node)
{
    std::string t = node.target();
    if (auto builtin = t.find("function "); builtin != std::string::npos && t.back() == '>')
        return t.substr(builtin + 9, t.size() - builtin - 10);
    if (startsWith(t, "torch.ops."))
        t = t.substr(10);
    std::vector<std::string> parts;
    for (size_t at = 0;;) {
        size_t dot = t.find('.', at);
        parts.push_back(t.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
        if (dot == std::string::npos)
            break;
        at = dot + 1;
    }
    // namespace.op.overload (aten.embedding.default) or a Python path (torch.nn.functional.embedding).
    bool opOverload = parts.size() == 3 && parts[0] != "torch" && parts[0] != "operator";
    return opOverload ? parts[1] : parts.back();
}

} // namespace fxs
