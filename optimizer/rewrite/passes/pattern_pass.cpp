#include "pattern_pass.h"

#include "match/matcher.h"
#include "match/pattern_matcher.h"
#include "rewrite/replacement.h"

#include <algorithm>
#include <unordered_map>

namespace fxs {

Result<bool> applyPatternSet(GraphEditor &editor, const PatternRegistry &registry, size_t *applied)
{
    Graph &graph = editor.graph();
    auto report = Matcher(registry).run(graph);
    if (!report)
        return report.error();
    struct Item {
        size_t anchorIndex, entryIndex;
        const PatternEntry *entry;
        std::string anchor;
        std::vector<std::string> nodes;
    };
    std::unordered_map<std::string, size_t> order;
    for (size_t i = 0; i < registry.entries().size(); ++i)
        order.emplace(registry.entries()[i]->name, i);
    std::vector<Item> items;
    for (const auto &p : report->patterns) {
        const PatternEntry *entry = registry.find(p.name);
        for (const auto &c : p.candidates)
            if (c.accepted && entry)
                if (const Node *anchor = graph.find(c.anchor))
                    items.push_back({anchor->index(), order[p.name], entry, c.anchor, c.nodes});
    }
    std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.anchorIndex != b.anchorIndex ? a.anchorIndex > b.anchorIndex : a.entryIndex < b.entryIndex;
    });
    PatternMatcher matcher;
    size_t count = 0;
    for (const Item &item : items) {
        // An earlier replacement of this sweep may have erased or changed these nodes.
        Node *anchor = graph.find(item.anchor);
        if (!anchor)
            continue;
        auto m = matchAt(*item.entry, anchor, matcher);
        if (!m)
            continue;
        std::vector<std::string> names;
        for (const Node *n : m->nodes)
            names.push_back(n->name());
        if (names != item.nodes)
            continue;
        auto r = applyReplacement(editor, *item.entry, m.value(), item.anchor);
        if (!r)
            return Error{"", 0, 0, "'" + item.entry->name + "' at " + item.anchor + ": " + r.error().message};
        ++count;
    }
    if (applied)
        *applied = count;
    return count > 0;
}

} // namespace fxs
