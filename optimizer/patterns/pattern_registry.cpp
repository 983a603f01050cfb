#include "pattern_registry.h"

#include "match/pattern_matcher.h"

namespace fxs {

namespace {

std::string duplicateKey(const PatternEntry &e)
{
    std::string k = e.pattern ? e.pattern->repr(size_t(1) << 20) : std::string();
    if (e.searchGraph)
        for (const auto &n : e.searchGraph->nodes()) {
            k += '\n' + n->name() + '=' + n->target() + '(';
            for (const auto &a : n->args())
                k += a.toFxText() + ',';
            for (const auto &kv : n->kwargs()) // str(search_gm.graph) holds kwargs (dtype=...) as well
                k += kv.first + '=' + kv.second.toFxText() + ',';
            k += ')';
        }
    return k;
}

} // namespace

std::string PatternRegistry::key(OpKind op, const std::string &target)
{
    return std::string(opKindName(op)) + '\n' + target;
}

Status PatternRegistry::add(PatternEntryPtr entry, bool prepend)
{
    const PatternExpr *root = entry->pattern ? entry->pattern->root() : nullptr;
    if (!root)
        return Error{entry->source, 0, 0,
            "pattern '" + entry->name + "': expected a call (CallFunction/CallMethod/CallModule) at the root, found "
                + (entry->pattern ? entry->pattern->repr() : std::string("nothing"))};
    for (const PatternPtr &p : {entry->pattern, entry->specificPattern})
        if (p && patternDepth(*p) > kMaxPatternDepth)
            return Error{entry->source, 0, 0,
                "pattern '" + entry->name + "' is " + std::to_string(patternDepth(*p)) + " sub-patterns deep; at most "
                    + std::to_string(kMaxPatternDepth) + " are supported"};
    if (prepend)
        m_entries.insert(m_entries.begin(), entry);
    else
        m_entries.push_back(entry);
    for (const auto &fn : root->fns) {
        auto &slot = m_index[key(root->op, fn)];
        if (prepend)
            slot.insert(slot.begin(), entry);
        else
            slot.push_back(entry);
    }
    return Ok{};
}

const std::vector<PatternEntryPtr> *PatternRegistry::entriesFor(OpKind op, const std::string &target) const
{
    auto it = m_index.find(key(op, target));
    return it == m_index.end() ? nullptr : &it->second;
}

const PatternEntry *PatternRegistry::torchairEntry() const
{
    for (const auto &e : m_entries)
        if (e->api == PatternApi::Torchair)
            return e.get();
    return nullptr;
}

const PatternEntry *PatternRegistry::find(std::string_view name) const
{
    for (const auto &e : m_entries)
        if (e->name == name)
            return e.get();
    return nullptr;
}

std::optional<std::string> PatternRegistry::duplicateOf(const PatternEntry &entry) const
{
    std::string k = duplicateKey(entry);
    for (const auto &e : m_entries)
        if (duplicateKey(*e) == k)
            return e->name;
    return std::nullopt;
}

} // namespace fxs
