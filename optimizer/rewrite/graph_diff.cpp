#include "graph_diff.h"

#include "patterns/op_schema.h"
#include "replacement.h"

#include <cstdio>

namespace fxs {

namespace {

const Json *provenanceOf(const Node &n)
{
    return n.meta().extra.isObject() ? n.meta().extra.find(kProvenanceKey) : nullptr;
}

bool sameNode(const Node &a, const Node &b)
{
    const Json *pa = provenanceOf(a);
    const Json *pb = provenanceOf(b);
    if (!pa || !pb)
        return !pa && !pb;
    return *pa == *pb;
}

std::string argsText(const Node &n)
{
    std::string out = "(";
    for (size_t i = 0; i < n.args().size(); ++i)
        out += (i ? ", " : "") + n.args()[i].toFxText();
    out += ")";
    if (!n.kwargs().empty()) {
        out += " {";
        for (size_t i = 0; i < n.kwargs().size(); ++i)
            out += (i ? ", " : "") + n.kwargs()[i].first + ": " + n.kwargs()[i].second.toFxText();
        out += "}";
    }
    return out;
}

std::string metaText(const NodeMeta &m)
{
    std::string out = m.val ? m.val->toAnnotation() : std::string("val=?");
    if (m.val && m.val->kind == ValueMeta::Kind::Tuple)
        out = "tuple[" + std::to_string(m.val->items.size()) + "]";
    if (m.extra.isObject() && !m.extra.members().empty())
        out += " " + m.extra.dump();
    return out;
}

DiffNode describe(const Node &n)
{
    DiffNode d;
    d.name = n.name();
    d.target = opKey(n);
    if (const Json *p = provenanceOf(n)) {
        d.pattern = (*p)["pattern"].isString() ? (*p)["pattern"].toString() : std::string();
        d.pass = (*p)["pass"].isString() ? (*p)["pass"].toString() : std::string();
        for (const auto &r : (*p)["replaced"].items())
            d.replaced.push_back(r.toString());
    }
    return d;
}

} // namespace

std::string opKey(const Node &node)
{
    // One spelling per op: a pass that writes aten.cat.default where the dump said torch.ops.aten.cat.default
    // changes no count and no target.
    if (node.op() == OpKind::CallFunction)
        return canonicalTarget(node.target());
    if (node.op() == OpKind::CallMethod || node.op() == OpKind::CallModule)
        return node.target();
    return opKindName(node.op());
}

GraphDiff diffGraphs(const Graph &before, const Graph &after)
{
    GraphDiff d;
    d.nodesBefore = before.size();
    d.nodesAfter = after.size();
    for (const auto &n : before.nodes())
        ++d.opCounts[opKey(*n)].first;
    for (const auto &n : after.nodes())
        ++d.opCounts[opKey(*n)].second;
    for (const auto &n : before.nodes()) {
        const Node *m = after.find(n->name());
        if (!m || !sameNode(*n, *m)) {
            d.removed.push_back(describe(*n));
            continue;
        }
        // Spellings are compared only where the targets differ: most nodes are unchanged, and opKey allocates.
        if (n->op() != m->op() || (n->target() != m->target() && opKey(*n) != opKey(*m)))
            d.changed.push_back({n->name(), "target", opKey(*n), opKey(*m)});
        std::string a = argsText(*n), b = argsText(*m);
        if (a != b)
            d.changed.push_back({n->name(), "args", std::move(a), std::move(b)});
        if (!(n->meta() == m->meta()))
            d.changed.push_back({n->name(), "meta", metaText(n->meta()), metaText(m->meta())});
    }
    for (const auto &m : after.nodes()) {
        const Node *n = before.find(m->name());
        if (!n || !sameNode(*n, *m))
            d.added.push_back(describe(*m));
    }
    return d;
}

Json GraphDiff::toJson() const
{
    auto nodes = [](const std::vector<DiffNode> &list) {
        Json out = Json::array();
        for (const auto &n : list) {
            Json o = Json::object({{"name", n.name}, {"target", n.target}});
            if (!n.pattern.empty() || !n.pass.empty()) {
                o.set(n.pattern.empty() ? "pass" : "pattern", n.pattern.empty() ? n.pass : n.pattern);
                Json r = Json::array();
                for (const auto &x : n.replaced)
                    r.push(x);
                o.set("replaced", std::move(r));
            }
            out.push(std::move(o));
        }
        return out;
    };
    Json changes = Json::array();
    for (const auto &c : changed)
        changes.push(Json::object({{"name", c.name}, {"field", c.field}, {"before", c.before}, {"after", c.after}}));
    Json ops = Json::array();
    for (const auto &kv : opCounts)
        ops.push(Json::object({{"op", kv.first}, {"before", kv.second.first}, {"after", kv.second.second},
            {"delta", int64_t(kv.second.second) - int64_t(kv.second.first)}}));
    return Json::object({{"nodes_before", nodesBefore}, {"nodes_after", nodesAfter}, {"removed", nodes(removed)},
        {"added", nodes(added)}, {"changed", std::move(changes)}, {"ops", std::move(ops)}});
}

std::string GraphDiff::opTable(bool changedOnly) const
{
    size_t width = 2;
    for (const auto &kv : opCounts)
        width = std::max(width, kv.first.size());
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %7s %7s %7s\n", int(width), "op", "before", "after", "delta");
    out += line;
    for (int pass = 0; pass < 2; ++pass)
        for (const auto &kv : opCounts) {
            bool differs = kv.second.first != kv.second.second;
            if ((pass == 0) != differs || (changedOnly && !differs))
                continue;
            long long delta = (long long)kv.second.second - (long long)kv.second.first;
            std::snprintf(line, sizeof line, "%-*s %7zu %7zu %+7lld\n", int(width), kv.first.c_str(), kv.second.first,
                kv.second.second, delta);
            out += line;
        }
    std::snprintf(line, sizeof line, "%-*s %7zu %7zu %+7lld\n", int(width), "(all nodes)", nodesBefore, nodesAfter,
        (long long)nodesAfter - (long long)nodesBefore);
    out += line;
    return out;
}

} // namespace fxs
