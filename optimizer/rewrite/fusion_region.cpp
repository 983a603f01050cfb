#include "fusion_region.h"

#include "io/fxscope_json.h"
#include "ir/graph.h"

#include <algorithm>
#include <unordered_set>

namespace fxs {

namespace {

// The names `node` refers to, args then kwargs, depth first (the position a replacement takes in a user's
// arguments).
std::vector<std::string> refsOf(const Node &node)
{
    std::vector<std::string> out;
    auto collect = [&](const Node *n) { out.push_back(n->name()); };
    for (const auto &a : node.args())
        a.forEachNode(collect);
    for (const auto &kv : node.kwargs())
        kv.second.forEachNode(collect);
    return out;
}

// `names` that `graph` holds, as nodes in graph order.
Result<std::vector<const Node *>> nodesInOrder(const Graph &graph, const std::vector<std::string> &names, const char *which)
{
    std::vector<const Node *> nodes;
    for (const auto &name : names) {
        const Node *n = graph.find(name);
        if (!n)
            return Error{"", 0, 0, std::string("the step ") + which + " " + name + ", which the graph does not hold"};
        nodes.push_back(n);
    }
    std::sort(nodes.begin(), nodes.end(), [](const Node *a, const Node *b) { return Graph::precedes(a, b); });
    return nodes;
}

Json placeholder(const Node &original)
{
    Json node = Json::object({{"name", original.name()}, {"op", "placeholder"}, {"target", original.name()},
        {"args", Json::array()}, {"kwargs", Json::object()}});
    if (Json meta = metaToJson(original.meta()); meta.size())
        node.set("meta", std::move(meta));
    return node;
}

Json outputNode(const std::vector<std::string> &values)
{
    Json refs = Json::array();
    for (const auto &v : values)
        refs.push(Json::object({{"node", v}}));
    return Json::object({{"name", "output"}, {"op", "output"}, {"target", "output"},
        {"args", Json::array({Json::object({{"tuple", std::move(refs)}})})}, {"kwargs", Json::object()}});
}

} // namespace

// Only the step's own nodes, the nodes they read and their outside users are looked at: a step on a 23k-node
// graph costs what the step touched.
Result<FusionRegion> fusionRegion(const Graph &before, const Graph &after, const std::vector<std::string> &removed,
    const std::vector<std::string> &added)
{
    auto removedNodes = nodesInOrder(before, removed, "removed");
    if (!removedNodes)
        return removedNodes.error();
    auto addedNodes = nodesInOrder(after, added, "added");
    if (!addedNodes)
        return addedNodes.error();
    const std::unordered_set<std::string> removedSet(removed.begin(), removed.end());
    const std::unordered_set<std::string> addedSet(added.begin(), added.end());

    FusionRegion region;
    std::unordered_set<std::string> inputSeen;
    auto addInput = [&](const std::string &name) {
        if (inputSeen.insert(name).second)
            region.inputs.push_back(name);
    };
    // Outputs: each replaced node the rest of the graph reads, with the first user outside the region and which of
    // its node references it is: the graph after the step reads the replacement there.
    std::vector<std::string> replacements;
    for (const Node *n : removedNodes.value()) {
        for (const auto &r : refsOf(*n))
            if (!removedSet.count(r))
                addInput(r);
        const auto &users = n->users();
        auto outside = std::find_if(
            users.begin(), users.end(), [&](const Node *u) { return !removedSet.count(u->name()); });
        if (outside == users.end())
            continue;
        const std::vector<std::string> refs = refsOf(**outside);
        const size_t k = size_t(std::find(refs.begin(), refs.end(), n->name()) - refs.begin());
        const Node *userAfter = after.find((*outside)->name());
        const std::vector<std::string> refsAfter = userAfter ? refsOf(*userAfter) : std::vector<std::string>{};
        if (k >= refsAfter.size())
            return Error{"", 0, 0, "after the step, " + (*outside)->name() + " no longer reads what replaced " + n->name()};
        region.outputs.push_back(n->name());
        replacements.push_back(refsAfter[k]);
    }
    // The replacement may read a node the matched part did not (or hand one of its inputs straight through).
    for (const Node *n : addedNodes.value())
        for (const auto &r : refsOf(*n))
            if (!addedSet.count(r))
                addInput(r);
    for (const auto &r : replacements)
        if (!addedSet.count(r))
            addInput(r);

    const Json graphLevel = graphLevelToJson(before); // symbol hints, subgraphs: what the nodes may need
    auto build = [&](const std::vector<const Node *> &members, const std::vector<std::string> &outputs) -> Result<Json> {
        Json nodes = Json::array();
        for (const auto &name : region.inputs) {
            const Node *original = before.find(name);
            original = original ? original : after.find(name);
            if (!original)
                return Error{"", 0, 0, "the step reads " + name + ", which neither graph holds"};
            nodes.push(placeholder(*original));
        }
        for (const Node *n : members)
            nodes.push(nodeToJson(*n));
        nodes.push(outputNode(outputs));
        Json graph = graphLevel;
        graph.set("nodes", std::move(nodes));
        return graph;
    };
    auto unfused = build(removedNodes.value(), region.outputs);
    if (!unfused)
        return unfused.error();
    auto fused = build(addedNodes.value(), replacements);
    if (!fused)
        return fused.error();
    region.before = std::move(unfused.value());
    region.after = std::move(fused.value());
    return region;
}

} // namespace fxs
