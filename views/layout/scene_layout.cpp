#include "scene_layout.h"

#include "ir/graph.h"
#include "util/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace fxs {

namespace {

uint64_t pairKey(size_t a, size_t b)
{
    return (uint64_t(a) << 32) | uint64_t(b);
}

void translate(LayoutEdge &edge, double dx, double dy)
{
    for (LayoutPoint &p : edge.points) {
        p.x += dx;
        p.y += dy;
    }
    edge.arrowTip.x += dx;
    edge.arrowTip.y += dy;
}

} // namespace

void moveEdgeEnd(LayoutEdge &edge, LayoutPoint to, double direction)
{
    if (edge.points.size() < 4)
        return;
    const LayoutPoint from = edge.points[edge.points.size() - 4];
    const double reach = std::clamp(std::abs(to.y - from.y) / 3, 6.0, 40.0);
    edge.points.back() = to;
    edge.points[edge.points.size() - 2] = LayoutPoint{to.x, to.y + direction * reach};
}

void moveEdgeStart(LayoutEdge &edge, LayoutPoint to, double direction)
{
    if (edge.points.size() < 4)
        return;
    const LayoutPoint next = edge.points[3];
    const double reach = std::clamp(std::abs(next.y - to.y) / 3, 6.0, 40.0);
    edge.points.front() = to;
    edge.points[1] = LayoutPoint{to.x, to.y + direction * reach};
}

size_t countOverlappingBoxes(const SceneLayout &scene, double tolerance)
{
    // Boxes of one frame (or of the top level) sorted by their left side; each is compared with those that start
    // before it ends.
    std::unordered_map<int, std::vector<const LayoutRect *>> byFrame;
    for (const SceneItem &item : scene.items)
        if (item.kind != SceneItemKind::Port)
            byFrame[item.frame].push_back(&item.rect);
    size_t overlaps = 0;
    for (auto &[frame, boxes] : byFrame) {
        std::sort(boxes.begin(), boxes.end(), [](const LayoutRect *a, const LayoutRect *b) { return a->x < b->x; });
        for (size_t i = 0; i < boxes.size(); ++i)
            for (size_t j = i + 1; j < boxes.size() && boxes[j]->x < boxes[i]->right() - tolerance; ++j)
                if (boxes[j]->y < boxes[i]->bottom() - tolerance && boxes[i]->y < boxes[j]->bottom() - tolerance)
                    ++overlaps;
    }
    return overlaps;
}

NodeBoxSize groupBoxSize(const NodeGroup &group)
{
    const size_t chars = std::max(group.label.size(), group.detail.size() + 12);
    return {std::clamp(double(chars) * 6.4 + 28, 130.0, 280.0), 44.0};
}

Result<std::shared_ptr<const GroupInterior>> layoutGroupInterior(
    const Graph &graph, const Grouping &grouping, size_t group)
{
    auto interior = std::make_shared<GroupInterior>();
    interior->group = group;
    const NodeGroup &g = grouping.groups.at(group);
    interior->nodeCount = g.nodes.size();

    FlatLayoutInput input;
    std::unordered_map<size_t, int> local; // node index -> item
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const NodeBoxSize size = nodeBoxSize(nodeLabel(*graph.nodes()[g.nodes[i]]));
        input.items.push_back({size.width, size.height});
        local.emplace(g.nodes[i], int(i));
    }
    std::unordered_map<size_t, int> inPorts, outPorts; // unit -> item
    auto port = [&](size_t unit, bool isInput) {
        auto &ports = isInput ? inPorts : outPorts;
        auto it = ports.find(unit);
        if (it != ports.end())
            return it->second;
        const int item = int(input.items.size());
        input.items.push_back({SceneMetrics::kPortSize, SceneMetrics::kPortSize});
        interior->portUnit.push_back(unit);
        interior->portIsInput.push_back(isInput);
        ports.emplace(unit, item);
        return item;
    };
    std::unordered_map<uint64_t, bool> seen;
    auto addEdge = [&](int from, int to) {
        if (seen.emplace(pairKey(size_t(from), size_t(to)), true).second)
            input.edges.push_back({from, to, 1});
    };
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node &node = *graph.nodes()[g.nodes[i]];
        for (const Node *in : node.inputNodes()) {
            auto it = local.find(in->index());
            addEdge(it != local.end() ? it->second : port(grouping.unitOf(in->index()), true), int(i));
        }
        for (const Node *user : node.users())
            if (!local.count(user->index()))
                addEdge(int(i), port(grouping.unitOf(user->index()), false));
    }
    auto layout = layoutFlat(input);
    if (!layout.ok())
        return layout.error();
    interior->layout = std::move(layout).value();
    return std::shared_ptr<const GroupInterior>(std::move(interior));
}

Result<SceneLayout> layoutScene(
    const Graph &graph, const Grouping &grouping, const std::vector<bool> &expanded, InteriorCache &cache)
{
    const size_t groupCount = grouping.groups.size();
    auto isExpanded = [&](size_t group) { return group < expanded.size() && expanded[group]; };

    // 1. Interiors of expanded groups that were never laid out.
    std::vector<size_t> missing;
    for (size_t g = 0; g < groupCount; ++g)
        if (isExpanded(g) && !cache.count(g))
            missing.push_back(g);
    const size_t steps = missing.size() + 1;
    for (size_t i = 0; i < missing.size(); ++i) {
        if (!reportProgress(i, steps))
            return canceledError("layout");
        auto interior = layoutGroupInterior(graph, grouping, missing[i]);
        if (!interior.ok())
            return interior.error();
        cache[missing[i]] = interior.value();
    }
    if (!reportProgress(missing.size(), steps))
        return canceledError("layout");

    // 2. The top level: one box per unit, in graph order of first appearance.
    const size_t n = graph.size();
    std::vector<int> unitItem(grouping.unitCount(), -1);
    std::vector<size_t> units;
    FlatLayoutInput top;
    top.nodeSeparation = 20;
    top.rankSeparation = 34;
    for (size_t i = 0; i < n; ++i) {
        const size_t unit = grouping.unitOf(i);
        if (unitItem[unit] >= 0)
            continue;
        unitItem[unit] = int(units.size());
        units.push_back(unit);
        NodeBoxSize size;
        if (!grouping.isGroupUnit(unit)) {
            size = nodeBoxSize(nodeLabel(*graph.nodes()[i]));
        } else if (isExpanded(unit)) {
            const LayoutRect &b = cache.at(unit)->layout.bounds;
            size = {b.width + 2 * SceneMetrics::kFramePadding,
                b.height + 2 * SceneMetrics::kFramePadding + SceneMetrics::kFrameTitle};
        } else {
            size = groupBoxSize(grouping.groups[unit]);
        }
        top.items.push_back({size.width, size.height});
    }
    std::unordered_map<uint64_t, size_t> topEdgeOf;
    std::vector<int> topCounts;
    for (size_t v = 0; v < n; ++v) {
        const size_t to = grouping.unitOf(v);
        for (const Node *in : graph.nodes()[v]->inputNodes()) {
            const size_t from = grouping.unitOf(in->index());
            if (from == to)
                continue;
            auto [it, inserted] = topEdgeOf.emplace(pairKey(from, to), top.edges.size());
            if (inserted) {
                top.edges.push_back({unitItem[from], unitItem[to], 1});
                topCounts.push_back(0);
            }
            ++topCounts[it->second];
        }
    }
    // Only the backbone goes to dot: edges between units close in graph order, and for a unit with
    // none of those, its heaviest input. The long-range rest (a joint graph's activations saved for
    // backward: thousands of edges spanning a hundred ranks) would make dot insert a virtual node per
    // rank crossed and run for minutes; they are drawn on demand along simple curves instead.
    std::vector<FlatLayoutInput::Edge> allEdges = std::move(top.edges);
    std::vector<int> layoutIndex(allEdges.size(), -1);
    std::vector<int> heaviestInput(units.size(), -1);
    std::vector<bool> hasBackboneInput(units.size(), false);
    for (size_t e = 0; e < allEdges.size(); ++e) {
        allEdges[e].weight = std::min(topCounts[e], 8);
        const int to = allEdges[e].to;
        if (allEdges[e].to - allEdges[e].from <= SceneMetrics::kBackboneSpan) {
            layoutIndex[e] = 0;
            hasBackboneInput[size_t(to)] = true;
        }
        if (heaviestInput[size_t(to)] < 0 || topCounts[e] > topCounts[size_t(heaviestInput[size_t(to)])])
            heaviestInput[size_t(to)] = int(e);
    }
    for (size_t u = 0; u < units.size(); ++u)
        if (!hasBackboneInput[u] && heaviestInput[u] >= 0)
            layoutIndex[size_t(heaviestInput[u])] = 0;
    top.edges.clear();
    for (size_t e = 0; e < allEdges.size(); ++e) {
        if (layoutIndex[e] < 0)
            continue;
        layoutIndex[e] = int(top.edges.size());
        top.edges.push_back(allEdges[e]);
    }
    auto topLayout = layoutFlat(top);
    if (!topLayout.ok())
        return topLayout.error();
    const FlatLayout &placed = topLayout.value();
    if (!reportProgress(steps, steps))
        return canceledError("layout");

    // 3. Compose: top-level items, then every expanded group's nodes and ports in absolute coordinates.
    SceneLayout scene;
    scene.nodeItem.assign(n, -1);
    scene.groupItem.assign(groupCount, -1);
    scene.bounds = placed.bounds;
    std::vector<int> sceneOfTop(units.size(), -1);
    // Per expanded group: the scene item of each interior item.
    std::unordered_map<size_t, std::vector<int>> interiorItems;
    for (size_t t = 0; t < units.size(); ++t) {
        const size_t unit = units[t];
        const LayoutRect rect = placed.items[t];
        sceneOfTop[t] = int(scene.items.size());
        if (!grouping.isGroupUnit(unit)) {
            const size_t node = unit - groupCount;
            scene.items.push_back({SceneItemKind::Node, node, rect, -1});
            scene.nodeItem[node] = sceneOfTop[t];
            continue;
        }
        scene.groupItem[unit] = sceneOfTop[t];
        if (!isExpanded(unit)) {
            scene.items.push_back({SceneItemKind::CollapsedGroup, unit, rect, -1});
            continue;
        }
        scene.items.push_back({SceneItemKind::GroupFrame, unit, rect, -1});
        const GroupInterior &interior = *cache.at(unit);
        const double dx = rect.x + SceneMetrics::kFramePadding;
        const double dy = rect.y + SceneMetrics::kFramePadding + SceneMetrics::kFrameTitle;
        auto &items = interiorItems[unit];
        const auto &nodes = grouping.groups[unit].nodes;
        for (size_t i = 0; i < interior.layout.items.size(); ++i) {
            LayoutRect r = interior.layout.items[i];
            r.x += dx;
            r.y += dy;
            items.push_back(int(scene.items.size()));
            if (i < interior.nodeCount) {
                scene.nodeItem[nodes[i]] = int(scene.items.size());
                scene.items.push_back({SceneItemKind::Node, nodes[i], r, sceneOfTop[t]});
            } else {
                // Ports sit on the frame: inputs on its top edge, outputs on its bottom edge.
                const bool isInput = interior.portIsInput[i - interior.nodeCount];
                const double half = SceneMetrics::kPortSize / 2;
                r.y = (isInput ? rect.y : rect.bottom()) - half;
                scene.items.push_back({SceneItemKind::Port, unit, r, sceneOfTop[t]});
            }
        }
        for (const LayoutEdge &e : interior.layout.edges) {
            SceneEdge edge{e, 1};
            translate(edge.path, dx, dy);
            edge.path.from = items[size_t(e.from)];
            edge.path.to = items[size_t(e.to)];
            const SceneItem &from = scene.items[size_t(edge.path.from)];
            const SceneItem &to = scene.items[size_t(edge.path.to)];
            if (from.kind == SceneItemKind::Port)
                moveEdgeStart(edge.path, from.rect.center(), 1);
            if (to.kind == SceneItemKind::Port) {
                moveEdgeEnd(edge.path, to.rect.center(), -1);
                edge.path.hasArrow = false; // the arrow is drawn where the edge finally arrives
            }
            scene.edges.push_back(std::move(edge));
        }
    }
    // The port of expanded group `group` that leads to or from `unit`.
    auto portItem = [&](size_t group, size_t unit, bool isInput) {
        const GroupInterior &interior = *cache.at(group);
        for (size_t p = 0; p < interior.portUnit.size(); ++p)
            if (interior.portUnit[p] == unit && interior.portIsInput[p] == isInput)
                return interiorItems.at(group)[interior.nodeCount + p];
        return -1;
    };
    for (size_t e = 0; e < allEdges.size(); ++e) {
        SceneEdge edge;
        edge.count = topCounts[e];
        const int fromTop = allEdges[e].from;
        const int toTop = allEdges[e].to;
        if (layoutIndex[e] >= 0) {
            edge.path = placed.edges[size_t(layoutIndex[e])];
        } else {
            // A long-range edge: out of the source's bottom, into the target's top.
            edge.longRange = true;
            const LayoutRect &a = placed.items[size_t(fromTop)];
            const LayoutRect &b = placed.items[size_t(toTop)];
            const LayoutPoint p0{a.center().x, a.bottom()};
            const LayoutPoint p3{b.center().x, b.y - 6};
            const double reach = std::clamp(std::abs(p3.y - p0.y) / 3, 20.0, 200.0);
            edge.path.points = {p0, {p0.x, p0.y + reach}, {p3.x, p3.y - reach}, p3};
            edge.path.hasArrow = true;
            edge.path.arrowTip = {b.center().x, b.y};
        }
        const size_t fromUnit = units[size_t(fromTop)];
        const size_t toUnit = units[size_t(toTop)];
        edge.path.from = sceneOfTop[size_t(fromTop)];
        edge.path.to = sceneOfTop[size_t(toTop)];
        if (grouping.isGroupUnit(fromUnit) && isExpanded(fromUnit)) {
            const int port = portItem(fromUnit, toUnit, false);
            if (port >= 0) {
                edge.path.from = port;
                moveEdgeStart(edge.path, scene.items[size_t(port)].rect.center(), 1);
            }
        }
        if (grouping.isGroupUnit(toUnit) && isExpanded(toUnit)) {
            const int port = portItem(toUnit, fromUnit, true);
            if (port >= 0) {
                edge.path.to = port;
                moveEdgeEnd(edge.path, scene.items[size_t(port)].rect.center(), -1);
                edge.path.hasArrow = false;
            }
        }
        scene.edges.push_back(std::move(edge));
    }
    // Long-range curves may leave the box dot computed (they bow above their target).
    for (const SceneEdge &edge : scene.edges)
        for (const LayoutPoint &p : edge.path.points) {
            const double top = std::min(scene.bounds.y, p.y);
            const double left = std::min(scene.bounds.x, p.x);
            scene.bounds.width = std::max(scene.bounds.right(), p.x) - left;
            scene.bounds.height = std::max(scene.bounds.bottom(), p.y) - top;
            scene.bounds.x = left;
            scene.bounds.y = top;
        }
    return scene;
}

} // namespace fxs
