#include "node.h"

#include <algorithm>
#include <unordered_set>

namespace fxs {

namespace {
const std::pair<OpKind, const char *> kOpNames[] = {
    {OpKind::Placeholder, "placeholder"},
    {OpKind::GetAttr, "get_attr"},
    {OpKind::CallFunction, "call_function"},
    {OpKind::CallMethod, "call_method"},
    {OpKind::CallModule, "call_module"},
    {OpKind::Output, "output"},
};
}

const char *opKindName(OpKind op)
{
    for (const auto &p : kOpNames)
        if (p.first == op)
            return p.second;
    return "?";
}

std::optional<OpKind> opKindFromName(std::string_view name)
{
    for (const auto &p : kOpNames)
        if (name == p.second)
            return p.first;
    return std::nullopt;
}

const Argument *Node::kwarg(std::string_view key) const
{
    for (const auto &kv : m_kwargs)
        if (kv.first == key)
            return &kv.second;
    return nullptr;
}

std::vector<Node *> Node::inputNodes() const
{
    std::vector<Node *> out;
    // Linear search suits the usual handful of inputs; a set takes over for nodes with very many
    // (a concat of thousands), so hostile files cannot make this quadratic.
    std::unordered_set<Node *> seen;
    auto add = [&](Node *n) {
        if (!n)
            return;
        if (out.size() < 32) {
            if (std::find(out.begin(), out.end(), n) == out.end())
                out.push_back(n);
            return;
        }
        if (seen.empty())
            seen.insert(out.begin(), out.end());
        if (seen.insert(n).second)
            out.push_back(n);
    };
    for (const auto &a : m_args)
        a.forEachNode(add);
    for (const auto &kv : m_kwargs)
        kv.second.forEachNode(add);
    return out;
}

} // namespace fxs
