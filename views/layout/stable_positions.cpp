#include "stable_positions.h"

#include "ir/graph.h"
#include "rewrite/graph_editor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

namespace fxs {
namespace {

// The key of the frame an item lies in (its group's label; "" at the top level) and that frame's top-left.
struct Place {
    std::string frame;
    LayoutPoint origin;
};

Place placeOf(const SceneLayout &layout, const Grouping &grouping, const SceneItem &item)
{
    if (item.frame < 0)
        return {};
    const SceneItem &frame = layout.items[size_t(item.frame)];
    return {grouping.groups[frame.index].label, {frame.rect.x, frame.rect.y}};
}

LayoutEdge straightEdge(const LayoutEdge &edge, const LayoutRect &from, const LayoutRect &to)
{
    // Bottom of the source to the top of the target, as dot draws a top-to-bottom edge.
    const LayoutPoint start{from.center().x, from.bottom()};
    const LayoutPoint tip{to.center().x, to.y};
    const double arrow = edge.hasArrow ? 8 : 0;
    const double dx = tip.x - start.x, dy = tip.y - start.y;
    const double length = std::max(1.0, std::hypot(dx, dy));
    const LayoutPoint end{tip.x - dx / length * arrow, tip.y - dy / length * arrow};
    LayoutEdge out = edge;
    out.points = {start, {start.x + (end.x - start.x) / 3, start.y + (end.y - start.y) / 3},
        {start.x + 2 * (end.x - start.x) / 3, start.y + 2 * (end.y - start.y) / 3}, end};
    out.arrowTip = tip;
    return out;
}

} // namespace

StablePositionsStats keepPreviousPositions(SceneLayout &next, const Graph &nextGraph, const Grouping &nextGrouping,
    const SceneLayout &previous, const Graph &previousGraph, const Grouping &previousGrouping)
{
    StablePositionsStats stats;
    const auto hasFrames = [](const SceneLayout &layout) {
        return std::any_of(layout.items.begin(), layout.items.end(),
            [](const SceneItem &item) { return item.kind == SceneItemKind::GroupFrame; });
    };
    // Top-level nodes of a grouped scene sit among group boxes whose sizes change: only frames and flat scenes
    // keep their coordinates.
    const bool flat = !hasFrames(next) && !hasFrames(previous);

    // Previous centre of each laid-out node, relative to its frame, by name.
    std::unordered_map<std::string, std::pair<std::string, LayoutPoint>> before;
    for (size_t n = 0; n < previous.nodeItem.size() && n < previousGraph.size(); ++n) {
        if (previous.nodeItem[n] < 0)
            continue;
        const SceneItem &item = previous.items[size_t(previous.nodeItem[n])];
        const Place place = placeOf(previous, previousGrouping, item);
        const LayoutPoint c = item.rect.center();
        before[previousGraph.nodes()[n]->name()] = {place.frame, {c.x - place.origin.x, c.y - place.origin.y}};
    }

    std::vector<bool> moved(next.items.size(), false);
    std::vector<bool> kept(next.nodeItem.size(), false);
    const auto moveTo = [&](int itemIndex, LayoutPoint centre) {
        LayoutRect &r = next.items[size_t(itemIndex)].rect;
        if (std::abs(r.center().x - centre.x) < 0.01 && std::abs(r.center().y - centre.y) < 0.01)
            return;
        r.x = centre.x - r.width / 2;
        r.y = centre.y - r.height / 2;
        moved[size_t(itemIndex)] = true;
    };
    for (size_t n = 0; n < next.nodeItem.size() && n < nextGraph.size(); ++n) {
        if (next.nodeItem[n] < 0)
            continue;
        const SceneItem &item = next.items[size_t(next.nodeItem[n])];
        const Place place = placeOf(next, nextGrouping, item);
        if (place.frame.empty() && !flat)
            continue;
        auto it = before.find(nextGraph.nodes()[n]->name());
        if (it == before.end() || it->second.first != place.frame)
            continue;
        moveTo(next.nodeItem[n], {it->second.second.x + place.origin.x, it->second.second.y + place.origin.y});
        kept[n] = true;
        ++stats.kept;
    }
    // New nodes first take the places of the nodes they replaced (their provenance), which the step freed: the
    // j-th of m nodes made from the same nodes takes the j-th of those places from the top.
    std::map<std::vector<std::string>, std::vector<size_t>> madeFrom;
    for (size_t n = 0; n < next.nodeItem.size() && n < nextGraph.size(); ++n) {
        const Json &extra = nextGraph.nodes()[n]->meta().extra;
        const Json *provenance = extra.isObject() ? extra.find(kProvenanceKey) : nullptr;
        if (next.nodeItem[n] < 0 || kept[n] || !provenance || !(*provenance)["replaced"].isArray())
            continue;
        std::vector<std::string> replaced;
        for (const Json &name : (*provenance)["replaced"].items())
            if (name.isString())
                replaced.push_back(name.toString());
        madeFrom[replaced].push_back(n);
    }
    std::vector<bool> placed(next.nodeItem.size(), false);
    for (const auto &[replaced, made] : madeFrom) {
        for (size_t j = 0; j < made.size(); ++j) {
            const size_t n = made[j];
            const SceneItem &item = next.items[size_t(next.nodeItem[n])];
            const Place place = placeOf(next, nextGrouping, item);
            if (place.frame.empty() && !flat)
                continue;
            std::vector<LayoutPoint> spots;
            for (const std::string &name : replaced)
                if (auto it = before.find(name); it != before.end() && it->second.first == place.frame)
                    spots.push_back(it->second.second);
            if (spots.empty())
                continue;
            std::sort(spots.begin(), spots.end(), [](LayoutPoint a, LayoutPoint b) { return a.y < b.y; });
            const LayoutPoint spot = spots[std::min(spots.size() - 1, (2 * j + 1) * spots.size() / (2 * made.size()))];
            moveTo(next.nodeItem[n], {spot.x + place.origin.x, spot.y + place.origin.y});
            placed[n] = true;
            ++stats.placed;
        }
    }
    // The others: at the mean of their kept inputs and users.
    for (size_t n = 0; n < next.nodeItem.size() && n < nextGraph.size(); ++n) {
        if (next.nodeItem[n] < 0 || kept[n] || placed[n])
            continue;
        const Node &node = *nextGraph.nodes()[n];
        const int frame = next.items[size_t(next.nodeItem[n])].frame;
        if (frame < 0 && !flat)
            continue;
        double x = 0, y = 0;
        int count = 0;
        const auto add = [&](const Node *neighbour) {
            const size_t m = neighbour->index();
            if (m < kept.size() && kept[m] && next.items[size_t(next.nodeItem[m])].frame == frame) {
                const LayoutPoint c = next.items[size_t(next.nodeItem[m])].rect.center();
                x += c.x;
                y += c.y;
                ++count;
            }
        };
        for (const Node *input : node.inputNodes())
            add(input);
        for (const Node *user : node.users())
            add(user);
        if (count == 0)
            continue;
        moveTo(next.nodeItem[n], {x / count, y / count});
        ++stats.placed;
    }

    // Frames grow to hold their nodes.
    for (size_t i = 0; i < next.items.size(); ++i) {
        const SceneItem &item = next.items[i];
        if (!moved[i] || item.frame < 0)
            continue;
        LayoutRect &frame = next.items[size_t(item.frame)].rect;
        const double pad = SceneMetrics::kFramePadding;
        const double left = std::min(frame.x, item.rect.x - pad), top = std::min(frame.y, item.rect.y - pad);
        const double right = std::max(frame.right(), item.rect.right() + pad);
        const double bottom = std::max(frame.bottom(), item.rect.bottom() + pad);
        frame = {left, top, right - left, bottom - top};
    }
    for (SceneEdge &edge : next.edges) {
        const int from = edge.path.from, to = edge.path.to;
        if (from < 0 || to < 0 || (!moved[size_t(from)] && !moved[size_t(to)]))
            continue;
        edge.path = straightEdge(edge.path, next.items[size_t(from)].rect, next.items[size_t(to)].rect);
        ++stats.rerouted;
    }
    for (const SceneItem &item : next.items) {
        const double left = std::min(next.bounds.x, item.rect.x), top = std::min(next.bounds.y, item.rect.y);
        const double right = std::max(next.bounds.right(), item.rect.right());
        const double bottom = std::max(next.bounds.bottom(), item.rect.bottom());
        next.bounds = {left, top, right - left, bottom - top};
    }
    return stats;
}

} // namespace fxs
