#include "graph_comparison.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace fxs {

size_t GraphComparison::pairedCount() const
{
    return a.names.size() - size_t(std::count(pairing.partnerOfA.begin(), pairing.partnerOfA.end(), -1));
}

size_t GraphComparison::pairedBy(PairedBy how) const
{
    size_t n = 0;
    for (size_t i = 0; i < pairing.partnerOfA.size(); ++i)
        n += pairing.partnerOfA[i] >= 0 && pairing.pairedBy[i] == how;
    return n;
}

const NodeChange *GraphComparison::changeOfA(uint32_t i) const
{
    auto it = std::lower_bound(
        changes.begin(), changes.end(), i, [](const NodeChange &c, uint32_t node) { return c.a < node; });
    return it != changes.end() && it->a == i ? &*it : nullptr;
}

Json GraphComparison::toJson() const
{
    auto names = [](const ComparedSide &side, const std::vector<uint32_t> &nodes) {
        Json out = Json::array();
        for (uint32_t n : nodes)
            out.push(side.names[n]);
        return out;
    };
    Json summary = Json::object({{"equal", equal()}, {"nodes_a", a.names.size()}, {"nodes_b", b.names.size()},
        {"paired", pairedCount()}, {"changed", changes.size()}, {"only_a", onlyInA()}, {"only_b", onlyInB()},
        {"regions", regions.size()},
        {"paired_by",
            Json::object({{"provenance", pairedBy(PairedBy::Provenance)}, {"name", pairedBy(PairedBy::Name)},
                {"structure", pairedBy(PairedBy::Structure)}})}});
    Json ops = Json::array();
    for (const auto &[op, counts] : opCounts)
        ops.push(Json::object({{"op", op}, {"a", counts.first}, {"b", counts.second},
            {"delta", int64_t(counts.second) - int64_t(counts.first)}}));
    Json regionList = Json::array();
    for (const CompareRegion &r : regions)
        regionList.push(Json::object({{"kind", regionKindName(r.kind)}, {"description", r.description},
            {"a", names(a, r.a)}, {"b", names(b, r.b)}, {"inputs", names(a, r.inputs)}, {"users", names(a, r.users)}}));
    Json changeList = Json::array();
    for (const NodeChange &c : changes) {
        Json fields = Json::array();
        for (const FieldChange &f : c.fields)
            fields.push(Json::object({{"field", f.field}, {"a", f.a}, {"b", f.b}}));
        changeList.push(Json::object({{"a", a.names[c.a]}, {"b", b.names[c.b]}, {"fields", std::move(fields)}}));
    }
    Json renamed = Json::array();
    for (size_t i = 0; i < pairing.partnerOfA.size(); ++i)
        if (const int32_t j = pairing.partnerOfA[i]; j >= 0 && a.names[i] != b.names[size_t(j)])
            renamed.push(Json::object({{"a", a.names[i]}, {"b", b.names[size_t(j)]}}));
    return Json::object({{"summary", std::move(summary)}, {"ops", std::move(ops)}, {"regions", std::move(regionList)},
        {"changes", std::move(changeList)}, {"renamed", std::move(renamed)}});
}

GraphComparison compareGraphs(const Graph &a, const Graph &b)
{
    const auto start = std::chrono::steady_clock::now();
    const IndexedGraph ia(a), ib(b);
    GraphComparison result;
    result.pairing = pairNodes(ia, ib);
    for (uint32_t i = 0; i < ia.size(); ++i)
        if (const int32_t j = result.pairing.partnerOfA[i]; j >= 0)
            if (auto fields = compareFields(ia, i, ib, uint32_t(j), result.pairing); !fields.empty())
                result.changes.push_back({i, uint32_t(j), std::move(fields)});
    result.regions = groupRegions(ia, ib, result.pairing, result.changes);
    auto describeSide = [](const IndexedGraph &g, ComparedSide &side) {
        side.names.reserve(g.size());
        side.ops.reserve(g.size());
        for (size_t i = 0; i < g.size(); ++i) {
            side.names.push_back(g.node(i).name());
            side.ops.push_back(g.opKey(i));
        }
    };
    describeSide(ia, result.a);
    describeSide(ib, result.b);
    for (const auto &op : result.a.ops)
        ++result.opCounts[op].first;
    for (const auto &op : result.b.ops)
        ++result.opCounts[op].second;
    spdlog::debug("compare: {} vs {} nodes in {} ms", a.size(), b.size(),
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
    return result;
}

} // namespace fxs
