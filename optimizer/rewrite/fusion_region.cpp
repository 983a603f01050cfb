#include "fusion_region.h"

#include "io/fxscope_json.h"
#include "ir/graph.h"

#include <unordered_map>
#include <unordered_set>

namespace fxs {

namespace {

// The node names an argument refers to, in order (nested lists and dicts of a call's args and kwargs).
void collectRefs(const Json &value, std::vector<std::string> &out)
{
    if (value.isObject()) {
        if (const Json *node = value.find("node"); node && node->isString() && value.members().size() == 1) {
            out.push_back(node->toString());
            return;
        }
        for (const auto &member : value.members())
            collectRefs(member.second, out);
    } else if (value.isArray()) {
        for (const Json &item : value.items())
            collectRefs(item, out);
    }
}

std::vector<std::string> refsOf(const Json &node)
{
    std::vector<std::string> out;
    collectRefs(node["args"], out);
    collectRefs(node["kwargs"], out);
    return out;
}

struct IndexedNodes {
    std::vector<const Json *> order;
    std::unordered_map<std::string, const Json *> byName;
};

IndexedNodes indexNodes(const Json &graph)
{
    IndexedNodes index;
    for (const Json &n : graph["nodes"].items()) {
        index.order.push_back(&n);
        index.byName.emplace(n["name"].toString(), &n);
    }
    return index;
}

Json placeholder(const std::string &name, const Json *original)
{
    Json node = Json::object({{"name", name}, {"op", "placeholder"}, {"target", name}, {"args", Json::array()},
        {"kwargs", Json::object()}});
    if (original && original->find("meta"))
        node.set("meta", (*original)["meta"]);
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

Result<FusionRegion> fusionRegion(const Graph &before, const Graph &after, const std::vector<std::string> &removed,
    const std::vector<std::string> &added)
{
    const Json beforeJson = graphToJson(before), afterJson = graphToJson(after);
    const IndexedNodes b = indexNodes(beforeJson), a = indexNodes(afterJson);
    const std::unordered_set<std::string> removedSet(removed.begin(), removed.end());
    const std::unordered_set<std::string> addedSet(added.begin(), added.end());
    for (const auto &name : removed)
        if (!b.byName.count(name))
            return Error{"", 0, 0, "the step removed " + name + ", which the graph before it does not hold"};

    FusionRegion region;
    std::unordered_set<std::string> inputSeen;
    auto addInput = [&](const std::string &name) {
        if (inputSeen.insert(name).second)
            region.inputs.push_back(name);
    };
    // Outputs: each replaced node the rest of the graph reads, with the first place it is read (a user outside the
    // region and which of its node references), where the graph after the step reads the replacement.
    struct Use {
        std::string user;
        size_t ref;
    };
    std::vector<Use> uses;
    std::unordered_set<std::string> outputSeen;
    for (const Json *n : b.order) {
        const std::string name = (*n)["name"].toString();
        const std::vector<std::string> refs = refsOf(*n);
        if (removedSet.count(name)) {
            for (const auto &r : refs)
                if (!removedSet.count(r))
                    addInput(r);
            continue;
        }
        for (size_t k = 0; k < refs.size(); ++k)
            if (removedSet.count(refs[k]) && outputSeen.insert(refs[k]).second) {
                region.outputs.push_back(refs[k]);
                uses.push_back({name, k});
            }
    }
    std::vector<std::string> replacements;
    for (size_t i = 0; i < uses.size(); ++i) {
        auto it = a.byName.find(uses[i].user);
        const std::vector<std::string> refs = it == a.byName.end() ? std::vector<std::string>{} : refsOf(*it->second);
        if (refs.size() <= uses[i].ref)
            return Error{"", 0, 0, "after the step, " + uses[i].user + " no longer reads what replaced "
                    + region.outputs[i]};
        replacements.push_back(refs[uses[i].ref]);
    }
    // The replacement may read a node the matched part did not (or hand one of its inputs straight through).
    for (const Json *n : a.order)
        if (addedSet.count((*n)["name"].toString()))
            for (const auto &r : refsOf(*n))
                if (!addedSet.count(r))
                    addInput(r);
    for (const auto &r : replacements)
        if (!addedSet.count(r))
            addInput(r);

    auto build = [&](const IndexedNodes &index, const std::unordered_set<std::string> &members,
                     const std::vector<std::string> &outputs) {
        Json nodes = Json::array();
        for (const auto &name : region.inputs) {
            auto it = b.byName.find(name);
            nodes.push(placeholder(name, it != b.byName.end() ? it->second : index.byName.count(name)
                    ? index.byName.at(name) : nullptr));
        }
        for (const Json *n : index.order)
            if (members.count((*n)["name"].toString()))
                nodes.push(*n);
        nodes.push(outputNode(outputs));
        Json graph = Json::object({{"nodes", std::move(nodes)}});
        for (const char *key : {"subgraphs", "symbol_hints"}) // what the region's nodes may need of the whole graph
            if (const Json *value = beforeJson.find(key))
                graph.set(key, *value);
        return graph;
    };
    region.before = build(b, removedSet, region.outputs);
    region.after = build(a, addedSet, replacements);
    return region;
}

} // namespace fxs
