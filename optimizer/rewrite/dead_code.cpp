#include "dead_code.h"

#include "patterns/op_schema.h"

#include <array>

namespace fxs {

bool isImpure(const Node &node)
{
    switch (node.op()) {
    case OpKind::Placeholder:
    case OpKind::Output: return true;
    case OpKind::GetAttr: return false;
    case OpKind::CallModule: return false; // FX asks the module's _is_impure; a captured graph gives no module to ask
    case OpKind::CallMethod:
    case OpKind::CallFunction: break;
    }
    const std::string &t = node.target();
    static const std::array<const char *, 9> sideEffects = {"_assert", "assert_async", "print", "record_function",
        "profiler", "set_grad_enabled", "manual_seed", "_sym_constrain_range", "rng_state"};
    for (const char *s : sideEffects)
        if (t.find(s) != std::string::npos)
            return true;
    // "aten.add_.Tensor", "aten.add.out", a method "add_": in place or out=. The schema table is not asked: a miss
    // there loads LibTorch, which DCE over a big graph of unknown ops must not do.
    std::string name = canonicalTarget(t);
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        size_t dot = name.find('.', start);
        parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (parts.size() >= 3
        && (parts[parts.size() - 1] == "out"
            || (!parts[parts.size() - 2].empty() && parts[parts.size() - 2].back() == '_')))
        return true;
    if (!parts.back().empty() && parts.back().back() == '_' && parts.back() != "_")
        return true;
    return false;
}

std::vector<std::string> eliminateDeadCode(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    std::vector<std::string> removed;
    // One pass from the end suffices: erasing a node can only make earlier nodes dead.
    for (Node *n = graph.last(), *prev = nullptr; n; n = prev) {
        prev = Graph::prev(n);
        if (n->users().empty() && !isImpure(*n)) {
            std::string name = n->name();
            if (editor.erase(n))
                removed.push_back(std::move(name));
        }
    }
    return removed;
}

} // namespace fxs
