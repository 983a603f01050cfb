#include "indexed_graph.h"

#include "rewrite/graph_diff.h"
#include "value_fields.h"

#include <functional>

namespace fxs {

uint64_t mixHash(uint64_t seed, uint64_t value)
{
    uint64_t z = seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t hashText(std::string_view text) { return std::hash<std::string_view>()(text); }

namespace {

// The literal shape of an argument: its kinds, literals and where node references stand, not which nodes they
// are. Depth is bounded by the parsers' nesting limit.
uint64_t hashLiterals(uint64_t seed, const Argument &arg)
{
    seed = mixHash(seed, uint64_t(arg.kind()));
    switch (arg.kind()) {
    case Argument::Kind::NodeRef:
    case Argument::Kind::None:
    case Argument::Kind::Ellipsis: return seed;
    case Argument::Kind::Bool:
    case Argument::Kind::Int: return mixHash(seed, uint64_t(arg.toInt()));
    case Argument::Kind::Float: return mixHash(seed, hashText(arg.toFxText()));
    default: break;
    }
    seed = mixHash(seed, hashText(arg.text()));
    for (const auto &key : arg.keys())
        seed = mixHash(seed, hashText(key));
    for (const auto &item : arg.items())
        seed = hashLiterals(seed, item);
    return mixHash(seed, arg.items().size());
}

} // namespace

IndexedGraph::IndexedGraph(const Graph &graph) : m_graph(graph)
{
    const size_t n = graph.size();
    m_nodes.reserve(n);
    for (const auto &node : graph.nodes())
        m_nodes.push_back(node.get());
    m_inputs.resize(n);
    m_uses.resize(n);
    m_opKeys.resize(n);
    m_strict.resize(n);
    m_loose.resize(n);
    uint64_t placeholderOrdinal = 0;
    for (size_t i = 0; i < n; ++i) {
        const Node &node = *m_nodes[i];
        auto addInput = [&](const Node *ref) {
            if (ref->graph() != &graph)
                return; // a reference into another graph is no edge of this one
            const uint32_t from = uint32_t(ref->index());
            m_uses[from].push_back({uint32_t(i), uint32_t(m_inputs[i].size())});
            m_inputs[i].push_back(from);
        };
        for (const auto &arg : node.args())
            arg.forEachNode(addInput);
        for (const auto &kv : node.kwargs())
            kv.second.forEachNode(addInput);

        m_opKeys[i] = fxs::opKey(node);
        uint64_t loose = mixHash(hashText(m_opKeys[i]), uint64_t(node.op()));
        // A placeholder is its position in the signature: renamed inputs still pair.
        if (node.op() == OpKind::Placeholder)
            loose = mixHash(loose, placeholderOrdinal++);
        if (node.op() == OpKind::GetAttr)
            loose = mixHash(loose, hashText(node.target()));
        loose = mixHash(loose, m_inputs[i].size());
        m_loose[i] = loose;

        uint64_t strict = loose;
        for (const auto &arg : node.args())
            strict = hashLiterals(strict, arg);
        for (const auto &kv : node.kwargs())
            strict = hashLiterals(mixHash(strict, hashText(kv.first)), kv.second);
        if (node.meta().val)
            strict = mixHash(strict, hashText(valueText(*node.meta().val)));
        m_strict[i] = strict;
    }
}

int64_t IndexedGraph::find(std::string_view name) const
{
    const Node *node = m_graph.find(name);
    return node ? int64_t(node->index()) : -1;
}

} // namespace fxs
