#include "field_changes.h"

#include "value_fields.h"

#include <algorithm>

namespace fxs {

namespace {

class Correspondence {
public:
    Correspondence(const IndexedGraph &a, const IndexedGraph &b, const NodePairing &pairing)
        : m_a(a), m_b(b), m_pairing(pairing)
    {
    }

    // Depth is bounded by the parsers' nesting limit.
    bool same(const Argument &x, const Argument &y) const
    {
        if (x.kind() != y.kind())
            return false;
        if (x.isNode())
            return sameNode(*x.node(), *y.node());
        if (x.items().size() != y.items().size() || x.keys() != y.keys())
            return false;
        if (x.items().empty())
            return x == y;
        for (size_t k = 0; k < x.items().size(); ++k)
            if (!same(x.items()[k], y.items()[k]))
                return false;
        return x.text() == y.text();
    }

private:
    bool sameNode(const Node &x, const Node &y) const
    {
        if (x.graph() != &m_a.graph() || y.graph() != &m_b.graph())
            return x.name() == y.name(); // a reference into a nested graph: no pairing there
        const int32_t partner = m_pairing.partnerOfA[x.index()];
        if (partner < 0 || m_pairing.partnerOfB[y.index()] < 0)
            return true; // an unpaired input belongs to a region, which reports it
        return partner == int32_t(y.index());
    }

    const IndexedGraph &m_a, &m_b;
    const NodePairing &m_pairing;
};

std::string argsText(const std::vector<Argument> &args)
{
    std::string out = "(";
    for (size_t k = 0; k < args.size(); ++k)
        out += (k ? ", " : "") + args[k].toFxText();
    return out + ")";
}

std::string kwargsText(const Kwargs &kwargs)
{
    std::string out = "{";
    for (size_t k = 0; k < kwargs.size(); ++k)
        out += (k ? ", " : "") + kwargs[k].first + ": " + kwargs[k].second.toFxText();
    return out + "}";
}

bool sameKwargs(const Kwargs &x, const Kwargs &y, const Correspondence &c)
{
    if (x.size() != y.size())
        return false;
    for (const auto &entry : x) {
        auto it = std::find_if(y.begin(), y.end(), [&](const auto &kv) { return kv.first == entry.first; });
        if (it == y.end() || !c.same(entry.second, it->second))
            return false;
    }
    return true;
}

} // namespace

std::vector<FieldChange> compareFields(
    const IndexedGraph &a, uint32_t i, const IndexedGraph &b, uint32_t j, const NodePairing &pairing)
{
    std::vector<FieldChange> out;
    const Node &x = a.node(i);
    const Node &y = b.node(j);
    switch (x.op()) {
    case OpKind::Placeholder:
    case OpKind::Output: break; // their target is their name, or "output"
    case OpKind::GetAttr:
        if (x.target() != y.target())
            out.push_back({"target", x.target(), y.target()});
        break;
    default:
        if (a.opKey(i) != b.opKey(j))
            out.push_back({"target", a.opKey(i), b.opKey(j)});
    }
    const Correspondence correspondence(a, b, pairing);
    bool sameArgs = x.args().size() == y.args().size();
    for (size_t k = 0; sameArgs && k < x.args().size(); ++k)
        sameArgs = correspondence.same(x.args()[k], y.args()[k]);
    if (!sameArgs)
        out.push_back({"args", argsText(x.args()), argsText(y.args())});
    if (!sameKwargs(x.kwargs(), y.kwargs(), correspondence))
        out.push_back({"kwargs", kwargsText(x.kwargs()), kwargsText(y.kwargs())});
    // Meta is compared only where both dumps have it: a dump without meta is no change of every node.
    if (x.meta().val && y.meta().val && !(*x.meta().val == *y.meta().val))
        for (ValueField field : kAllValueFields) {
            std::string ta = valueFieldText(*x.meta().val, field);
            std::string tb = valueFieldText(*y.meta().val, field);
            if (ta != tb && !(field == ValueField::Stride && (ta.empty() || tb.empty())))
                out.push_back({valueFieldName(field), std::move(ta), std::move(tb)});
        }
    return out;
}

} // namespace fxs
