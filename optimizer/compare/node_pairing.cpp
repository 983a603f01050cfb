#include "node_pairing.h"

#include "rewrite/graph_editor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_map>

namespace fxs {

const char *pairedByName(PairedBy how)
{
    switch (how) {
    case PairedBy::None: return "none";
    case PairedBy::Provenance: return "provenance";
    case PairedBy::Name: return "name";
    case PairedBy::Structure: return "structure";
    }
    return "";
}

namespace {

enum class Level { Strict, Loose };

// Each refinement round pairs at least one node or stops; the cap bounds pathological inputs.
constexpr int kMaxRounds = 64;
constexpr uint64_t kPairedTag = 0x70a1edULL;

const Json *provenanceOf(const Node &node)
{
    return node.meta().extra.isObject() ? node.meta().extra.find(kProvenanceKey) : nullptr;
}

class Pairer {
public:
    Pairer(const IndexedGraph &a, const IndexedGraph &b) : m_a(a), m_b(b)
    {
        m_result.partnerOfA.assign(a.size(), -1);
        m_result.partnerOfB.assign(b.size(), -1);
        m_result.pairedBy.assign(a.size(), PairedBy::None);
        m_blockedA.assign(a.size(), 0);
        m_blockedB.assign(b.size(), 0);
    }

    NodePairing run()
    {
        byProvenance();
        // An upstream or downstream cone found once on each side is that node whatever it is called: names are
        // asked only about the rest, where they are the better evidence than the order of appearance.
        byStructure(Level::Strict, false);
        byName();
        byStructure(Level::Strict, true);
        byStructure(Level::Loose, true);
        return std::move(m_result);
    }

private:
    bool freeA(uint32_t i) const { return m_result.partnerOfA[i] < 0 && !m_blockedA[i]; }
    bool freeB(uint32_t j) const { return m_result.partnerOfB[j] < 0 && !m_blockedB[j]; }

    bool pair(uint32_t i, uint32_t j, PairedBy how)
    {
        if (!freeA(i) || !freeB(j) || m_a.node(i).op() != m_b.node(j).op())
            return false;
        m_result.partnerOfA[i] = int32_t(j);
        m_result.partnerOfB[j] = int32_t(i);
        m_result.pairedBy[i] = how;
        m_queue.emplace_back(i, j);
        return true;
    }

    uint64_t signature(const IndexedGraph &g, size_t i, Level level) const
    {
        return level == Level::Strict ? g.strictSignature(i) : g.looseSignature(i);
    }

    void byProvenance()
    {
        for (uint32_t i = 0; i < m_a.size(); ++i)
            if (const Json *pa = provenanceOf(m_a.node(i))) {
                const int64_t j = m_b.find(m_a.node(i).name());
                const Json *pb = j >= 0 ? provenanceOf(m_b.node(size_t(j))) : nullptr;
                if (pb && *pa == *pb)
                    pair(i, uint32_t(j), PairedBy::Provenance);
            }
        // A node a fusion made that A does not have is new, and the nodes it names are gone: neither pairs.
        for (uint32_t j = 0; j < m_b.size(); ++j) {
            const Json *pb = provenanceOf(m_b.node(j));
            if (!pb || m_result.partnerOfB[j] >= 0)
                continue;
            m_blockedB[j] = 1;
            for (const char *key : {"replaced", "origin"})
                for (const Json &name : (*pb)[key].items()) {
                    const int64_t i = m_a.find(name.toString());
                    if (i >= 0 && m_result.partnerOfA[size_t(i)] < 0) {
                        m_blockedA[size_t(i)] = 1;
                        m_result.replacedBy.emplace_back(uint32_t(i), j);
                    }
                }
        }
    }

    // Equal names count only where the node agrees too: same op and inputs that are each other's partners
    // (placeholders and attributes excepted: their name is their identity). Renumbered names (add_3 here is add_4
    // there) fail the input check and are left to structure. Among identical nodes (the same op on the same
    // inputs), which is which shows only downstream, and a node whose target, literals or meta changed is the same
    // node only if it is used the same way: in both cases their users must agree by name too.
    void byName()
    {
        const std::vector<uint64_t> keysA = upstreamKeys(m_a), keysB = upstreamKeys(m_b);
        std::unordered_map<uint64_t, uint32_t> countA, countB;
        for (uint64_t k : keysA)
            ++countA[k];
        for (uint64_t k : keysB)
            ++countB[k];
        for (uint32_t i = 0; i < m_a.size(); ++i) {
            if (!freeA(i))
                continue;
            const Node &node = m_a.node(i);
            const int64_t found = m_b.find(node.name());
            if (found < 0 || !freeB(uint32_t(found)) || m_b.node(size_t(found)).op() != node.op())
                continue;
            const uint32_t j = uint32_t(found);
            if (node.op() != OpKind::Placeholder && node.op() != OpKind::GetAttr) {
                const auto &inA = m_a.inputs(i);
                const auto &inB = m_b.inputs(j);
                bool sameInputs = inA.size() == inB.size();
                for (size_t k = 0; sameInputs && k < inA.size(); ++k)
                    sameInputs = m_result.partnerOfA[inA[k]] == int32_t(inB[k]);
                if (!sameInputs)
                    continue;
                // A node that changed (target, literals, meta) keeps its name where it reads the same nodes and
                // the same-named nodes read it.
                const bool identical = m_a.strictSignature(i) == m_b.strictSignature(j);
                const bool ambiguous = countA[keysA[i]] > 1 || countB[keysB[j]] > 1;
                if (identical ? ambiguous && !usersAgreeByName(i, j) : inA.empty() || !usersAgreeByName(i, j))
                    continue;
            }
            pair(i, j, PairedBy::Name);
        }
    }

    // What a node computes from which nodes of its own graph: equal keys are identical nodes.
    static std::vector<uint64_t> upstreamKeys(const IndexedGraph &g)
    {
        std::vector<uint64_t> keys(g.size());
        for (size_t i = 0; i < g.size(); ++i) {
            uint64_t k = g.strictSignature(i);
            for (uint32_t in : g.inputs(i))
                k = mixHash(k, in);
            keys[i] = k;
        }
        return keys;
    }

    bool usersAgreeByName(uint32_t i, uint32_t j) const
    {
        auto named = [](const IndexedGraph &g, uint32_t node) {
            std::vector<std::pair<std::string_view, uint32_t>> out;
            for (const IndexedUse &use : g.uses(node))
                out.emplace_back(g.node(use.user).name(), use.position);
            std::sort(out.begin(), out.end());
            return out;
        };
        return named(m_a, i) == named(m_b, j);
    }

    void byStructure(Level level, bool inOrder)
    {
        // Every pair so far propagates again (under a looser signature, or to what is unpaired after names).
        m_queue.clear();
        for (uint32_t i = 0; i < m_a.size(); ++i)
            if (m_result.partnerOfA[i] >= 0)
                m_queue.emplace_back(i, uint32_t(m_result.partnerOfA[i]));
        m_queueHead = 0;
        for (int round = 0; round < kMaxRounds; ++round) {
            bool progress = propagate(level);
            std::vector<uint64_t> forwardA = forwardHashes(m_a, level, true);
            std::vector<uint64_t> forwardB = forwardHashes(m_b, level, false);
            progress = pairUnique(forwardA, forwardB) || progress;
            std::vector<uint64_t> backwardA = backwardHashes(m_a, level, true);
            std::vector<uint64_t> backwardB = backwardHashes(m_b, level, false);
            progress = pairUnique(backwardA, backwardB) || progress;
            if (progress)
                continue;
            if (!inOrder)
                break;
            // Only indistinguishable nodes are left (the same cone both ways): pair them in order of appearance.
            for (size_t i = 0; i < forwardA.size(); ++i)
                forwardA[i] = mixHash(forwardA[i], backwardA[i]);
            for (size_t j = 0; j < forwardB.size(); ++j)
                forwardB[j] = mixHash(forwardB[j], backwardB[j]);
            if (!pairInOrder(forwardA, forwardB))
                break;
        }
    }

    uint64_t pairId(bool sideA, size_t i) const
    {
        return mixHash(kPairedTag, sideA ? i : size_t(m_result.partnerOfB[i]));
    }
    bool isPaired(bool sideA, size_t i) const
    {
        return (sideA ? m_result.partnerOfA[i] : m_result.partnerOfB[i]) >= 0;
    }

    // What flows into each node: its signature and its inputs' hashes, a paired input standing as its pair.
    std::vector<uint64_t> forwardHashes(const IndexedGraph &g, Level level, bool sideA) const
    {
        std::vector<uint64_t> h(g.size(), 0);
        for (size_t i = 0; i < g.size(); ++i) {
            if (isPaired(sideA, i)) {
                h[i] = pairId(sideA, i);
                continue;
            }
            uint64_t v = signature(g, i, level);
            for (uint32_t in : g.inputs(i))
                v = mixHash(v, in < i ? h[in] : 0);
            h[i] = v;
        }
        return h;
    }

    // What each node flows into: its signature and, order-free, its users' hashes with the position it is read at.
    std::vector<uint64_t> backwardHashes(const IndexedGraph &g, Level level, bool sideA) const
    {
        std::vector<uint64_t> h(g.size(), 0);
        for (size_t i = g.size(); i-- > 0;) {
            if (isPaired(sideA, i)) {
                h[i] = pairId(sideA, i);
                continue;
            }
            uint64_t users = 0;
            for (const IndexedUse &use : g.uses(i))
                users += mixHash(use.user > i ? h[use.user] : 0, use.position);
            h[i] = mixHash(signature(g, i, level), users);
        }
        return h;
    }

    bool pairUnique(const std::vector<uint64_t> &ha, const std::vector<uint64_t> &hb)
    {
        struct Slot {
            uint32_t a = 0, b = 0, countA = 0, countB = 0;
        };
        std::unordered_map<uint64_t, Slot> slots;
        slots.reserve(ha.size() + hb.size());
        for (uint32_t i = 0; i < ha.size(); ++i)
            if (freeA(i)) {
                Slot &s = slots[ha[i]];
                s.a = i;
                ++s.countA;
            }
        for (uint32_t j = 0; j < hb.size(); ++j)
            if (freeB(j))
                if (auto it = slots.find(hb[j]); it != slots.end()) {
                    it->second.b = j;
                    ++it->second.countB;
                }
        bool progress = false;
        // In A's order, so the pairs (and what propagates from them) do not depend on the hash table's order.
        for (uint32_t i = 0; i < ha.size(); ++i) {
            if (!freeA(i))
                continue;
            const Slot &s = slots[ha[i]];
            if (s.countA == 1 && s.countB == 1)
                progress = pair(i, s.b, PairedBy::Structure) || progress;
        }
        return progress;
    }

    bool pairInOrder(const std::vector<uint64_t> &ha, const std::vector<uint64_t> &hb)
    {
        std::vector<std::pair<uint64_t, uint32_t>> sa, sb;
        for (uint32_t i = 0; i < ha.size(); ++i)
            if (freeA(i))
                sa.emplace_back(ha[i], i);
        for (uint32_t j = 0; j < hb.size(); ++j)
            if (freeB(j))
                sb.emplace_back(hb[j], j);
        std::sort(sa.begin(), sa.end());
        std::sort(sb.begin(), sb.end());
        bool progress = false;
        for (size_t x = 0, y = 0; x < sa.size() && y < sb.size();) {
            if (sa[x].first < sb[y].first)
                ++x;
            else if (sb[y].first < sa[x].first)
                ++y;
            else
                progress = pair(sa[x++].second, sb[y++].second, PairedBy::Structure) || progress;
        }
        return progress;
    }

    // From each new pair to its neighbours: inputs at the same position, and users that are the only unpaired
    // one of their kind reading the node at that position on each side.
    bool propagate(Level level)
    {
        bool progress = false;
        while (m_queueHead < m_queue.size()) {
            const auto [i, j] = m_queue[m_queueHead++];
            const auto &inA = m_a.inputs(i);
            const auto &inB = m_b.inputs(j);
            if (inA.size() == inB.size())
                for (size_t k = 0; k < inA.size(); ++k)
                    if (freeA(inA[k]) && freeB(inB[k])
                        && signature(m_a, inA[k], level) == signature(m_b, inB[k], level))
                        progress = pair(inA[k], inB[k], PairedBy::Structure) || progress;
            progress = pairUsers(i, j, level) || progress;
        }
        return progress;
    }

    bool pairUsers(uint32_t i, uint32_t j, Level level)
    {
        using Keyed = std::pair<std::pair<uint64_t, uint32_t>, uint32_t>; // ((signature, position), user)
        auto collect = [&](const IndexedGraph &g, uint32_t node, bool sideA) {
            std::vector<Keyed> out;
            for (const IndexedUse &use : g.uses(node))
                if (sideA ? freeA(use.user) : freeB(use.user))
                    out.push_back({{signature(g, use.user, level), use.position}, use.user});
            std::sort(out.begin(), out.end());
            return out;
        };
        const std::vector<Keyed> ua = collect(m_a, i, true);
        if (ua.empty())
            return false;
        const std::vector<Keyed> ub = collect(m_b, j, false);
        auto unique = [](const std::vector<Keyed> &v, size_t k) {
            return (k == 0 || v[k - 1].first != v[k].first) && (k + 1 == v.size() || v[k + 1].first != v[k].first);
        };
        bool progress = false;
        for (size_t x = 0, y = 0; x < ua.size() && y < ub.size();) {
            if (ua[x].first < ub[y].first)
                ++x;
            else if (ub[y].first < ua[x].first)
                ++y;
            else {
                if (unique(ua, x) && unique(ub, y))
                    progress = pair(ua[x].second, ub[y].second, PairedBy::Structure) || progress;
                ++x;
                ++y;
            }
        }
        return progress;
    }

    const IndexedGraph &m_a, &m_b;
    NodePairing m_result;
    std::vector<char> m_blockedA, m_blockedB;
    std::vector<std::pair<uint32_t, uint32_t>> m_queue; // pairs whose neighbours are still to be tried
    size_t m_queueHead = 0;
};

} // namespace

NodePairing pairNodes(const IndexedGraph &a, const IndexedGraph &b)
{
    NodePairing pairing = Pairer(a, b).run();
    spdlog::debug("compare: {} of {} A nodes paired with {} B nodes", a.size()
            - size_t(std::count(pairing.partnerOfA.begin(), pairing.partnerOfA.end(), -1)),
        a.size(), b.size());
    return pairing;
}

} // namespace fxs
