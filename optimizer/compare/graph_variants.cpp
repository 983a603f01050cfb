#include "graph_variants.h"

#include "rewrite/graph_diff.h"
#include "rewrite/graph_editor.h"

#include <map>
#include <unordered_map>

namespace fxs {

namespace {

std::vector<std::string> newNames(const Graph &graph, Renaming renaming)
{
    const auto &nodes = graph.nodes();
    std::vector<std::string> names(nodes.size());
    if (renaming == Renaming::Fresh) {
        for (size_t i = 0; i < nodes.size(); ++i)
            names[i] = "t" + std::to_string(i);
        return names;
    }
    std::map<std::string, std::vector<size_t>> byOp;
    for (size_t i = 0; i < nodes.size(); ++i) {
        names[i] = nodes[i]->name();
        if (nodes[i]->op() != OpKind::Placeholder)
            byOp[opKey(*nodes[i])].push_back(i);
    }
    for (const auto &[op, members] : byOp)
        for (size_t k = 0; k < members.size(); ++k)
            names[members[k]] = nodes[members[(k + 1) % members.size()]]->name();
    return names;
}

} // namespace

std::unique_ptr<Graph> renamedCopy(const Graph &graph, Renaming renaming)
{
    auto copy = std::make_unique<Graph>();
    const std::vector<std::string> names = newNames(graph, renaming);
    std::unordered_map<const Node *, Node *> map;
    const auto &nodes = graph.nodes();
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node &n = *nodes[i];
        auto remap = [&](Node *ref) { return map.count(ref) ? map[ref] : ref; };
        std::vector<Argument> args = n.args();
        for (auto &arg : args)
            arg.remapNodes(remap);
        Kwargs kwargs = n.kwargs();
        for (auto &kv : kwargs)
            kv.second.remapNodes(remap);
        const std::string target = n.op() == OpKind::Placeholder ? names[i] : n.target();
        Node *added = copy->append(n.op(), names[i], target, std::move(args), std::move(kwargs));
        added->meta() = n.meta();
        map[&n] = added;
    }
    for (const auto &[name, sub] : graph.subgraphs())
        copy->addSubgraph(name, sub->clone());
    copy->setSymbolHints(graph.symbolHints());
    return copy;
}

void stripProvenance(Graph &graph)
{
    for (const auto &node : graph.nodes()) {
        Json &extra = node->meta().extra;
        if (!extra.isObject() || !extra.find(kProvenanceKey))
            continue;
        Json kept = Json::object();
        for (const auto &[key, value] : extra.members())
            if (key != kProvenanceKey)
                kept.set(key, value);
        extra = std::move(kept);
    }
}

} // namespace fxs
