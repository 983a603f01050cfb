#include "compare_regions.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace fxs {

const char *regionKindName(RegionKind kind)
{
    switch (kind) {
    case RegionKind::Removed: return "removed";
    case RegionKind::Added: return "added";
    case RegionKind::Replaced: return "replaced";
    case RegionKind::Changed: return "changed";
    }
    return "";
}

namespace {

class UnionFind {
public:
    explicit UnionFind(size_t n) : m_parent(n) { std::iota(m_parent.begin(), m_parent.end(), size_t(0)); }
    size_t find(size_t x)
    {
        while (m_parent[x] != x)
            x = m_parent[x] = m_parent[m_parent[x]];
        return x;
    }
    void unite(size_t x, size_t y)
    {
        x = find(x);
        y = find(y);
        if (x != y)
            m_parent[std::max(x, y)] = std::min(x, y);
    }

private:
    std::vector<size_t> m_parent;
};

// "a → b → c", long runs shortened to their ends.
std::string chain(const IndexedGraph &g, const std::vector<uint32_t> &nodes)
{
    constexpr size_t kShown = 6;
    std::string out;
    for (size_t k = 0; k < nodes.size(); ++k) {
        if (nodes.size() > kShown + 1 && k == kShown - 1) {
            out += " → … (" + std::to_string(nodes.size() - kShown) + " more)";
            k = nodes.size() - 1;
        }
        out += (out.empty() ? "" : " → ") + g.node(nodes[k]).name();
    }
    return out;
}

std::string describe(const IndexedGraph &a, const IndexedGraph &b, const CompareRegion &r,
    const std::vector<NodeChange> &changes, const std::vector<int32_t> &changeOfA)
{
    switch (r.kind) {
    case RegionKind::Removed: return "A's " + chain(a, r.a) + " removed";
    case RegionKind::Added: return "B's " + chain(b, r.b) + " added";
    case RegionKind::Replaced: return "A's " + chain(a, r.a) + " became B's " + chain(b, r.b);
    case RegionKind::Changed: break;
    }
    std::set<std::string> fields;
    for (uint32_t i : r.a)
        for (const FieldChange &f : changes[size_t(changeOfA[i])].fields)
            fields.insert(f.field);
    std::string what;
    for (const auto &f : fields)
        what += (what.empty() ? "" : ", ") + f;
    return chain(a, r.a) + " changed (" + what + ")";
}

void sortUnique(std::vector<uint32_t> &v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

std::vector<CompareRegion> groupRegions(
    const IndexedGraph &a, const IndexedGraph &b, const NodePairing &pairing, const std::vector<NodeChange> &changes)
{
    const size_t nA = a.size();
    const auto &pa = pairing.partnerOfA;
    const auto &pb = pairing.partnerOfB;
    // Items 0..nA-1 are A's nodes, nA.. B's. Unpaired nodes join their unpaired neighbours and, across the sides,
    // the nodes they stand in for; a changed pair joins the changed pairs next to it in A.
    UnionFind groups(nA + b.size());
    std::vector<int32_t> changeOfA(nA, -1);
    for (size_t k = 0; k < changes.size(); ++k)
        changeOfA[changes[k].a] = int32_t(k);
    for (uint32_t i = 0; i < nA; ++i)
        for (uint32_t in : a.inputs(i))
            if ((pa[i] < 0 && pa[in] < 0) || (changeOfA[i] >= 0 && changeOfA[in] >= 0))
                groups.unite(i, in);
    for (uint32_t j = 0; j < b.size(); ++j)
        for (uint32_t in : b.inputs(j))
            if (pb[j] < 0 && pb[in] < 0)
                groups.unite(nA + j, nA + in);
    for (uint32_t i = 0; i < nA; ++i) {
        if (pa[i] < 0)
            continue;
        const auto &inA = a.inputs(i);
        const auto &inB = b.inputs(uint32_t(pa[i]));
        for (size_t k = 0; k < std::min(inA.size(), inB.size()); ++k)
            if (pa[inA[k]] < 0 && pb[inB[k]] < 0)
                groups.unite(inA[k], nA + inB[k]);
    }
    for (const auto &[i, j] : pairing.replacedBy)
        groups.unite(i, nA + j);

    std::vector<CompareRegion> regions;
    std::vector<int32_t> regionOf(nA + b.size(), -1);
    auto regionFor = [&](size_t item) -> CompareRegion & {
        const size_t root = groups.find(item);
        if (regionOf[root] < 0) {
            regionOf[root] = int32_t(regions.size());
            regions.emplace_back();
        }
        return regions[size_t(regionOf[root])];
    };
    for (uint32_t i = 0; i < nA; ++i)
        if (pa[i] < 0 || changeOfA[i] >= 0) {
            CompareRegion &r = regionFor(i);
            r.a.push_back(i);
            if (pa[i] >= 0)
                r.b.push_back(uint32_t(pa[i]));
            for (uint32_t in : a.inputs(i))
                if (pa[in] >= 0 && (pa[i] < 0 || changeOfA[in] < 0))
                    r.inputs.push_back(in);
            for (const IndexedUse &use : a.uses(i))
                if (pa[use.user] >= 0 && (pa[i] < 0 || changeOfA[use.user] < 0))
                    r.users.push_back(use.user);
        }
    for (uint32_t j = 0; j < b.size(); ++j)
        if (pb[j] < 0) {
            CompareRegion &r = regionFor(nA + j);
            r.b.push_back(j);
            for (uint32_t in : b.inputs(j))
                if (pb[in] >= 0)
                    r.inputs.push_back(uint32_t(pb[in]));
            for (const IndexedUse &use : b.uses(j))
                if (pb[use.user] >= 0)
                    r.users.push_back(uint32_t(pb[use.user]));
        }
    // Where a region sits in A: its first A node, else (added only) just after the last paired node it reads.
    std::vector<std::pair<double, size_t>> order;
    for (size_t k = 0; k < regions.size(); ++k) {
        CompareRegion &r = regions[k];
        const bool changed = !r.a.empty() && pa[r.a.front()] >= 0;
        r.kind = changed ? RegionKind::Changed
            : r.a.empty() ? RegionKind::Added
            : r.b.empty() ? RegionKind::Removed
                          : RegionKind::Replaced;
        sortUnique(r.b);
        sortUnique(r.inputs);
        sortUnique(r.users);
        r.description = describe(a, b, r, changes, changeOfA);
        const double at = !r.a.empty() ? double(r.a.front()) : r.inputs.empty() ? -1.0 : r.inputs.back() + 0.5;
        order.emplace_back(at, k);
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<CompareRegion> sorted;
    sorted.reserve(regions.size());
    for (const auto &o : order)
        sorted.push_back(std::move(regions[o.second]));
    return sorted;
}

} // namespace fxs
