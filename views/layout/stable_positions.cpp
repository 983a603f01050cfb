#include "stable_positions.h"

#include "flat_layout.h"
#include "ir/graph.h"
#include "rewrite/graph_editor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace fxs {
namespace {

// The key of the frame an item lies in and that frame's top-left. The key is a group of the previous revision (the
// one most of a new frame's nodes come from; -2 when none does); -1 at the top level.
struct Place {
    int frame = -1;
    LayoutPoint origin;
};

Place placeOf(const SceneLayout &layout, const std::vector<int> &groupKeys, const SceneItem &item)
{
    if (item.frame < 0)
        return {};
    const SceneItem &frame = layout.items[size_t(item.frame)];
    return {groupKeys[frame.index], {frame.rect.x, frame.rect.y}};
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

// Where boxes of one frame already are, hashed into square cells so that a free-space search looks at a few boxes.
class Occupancy {
public:
    void add(const LayoutRect &r)
    {
        const size_t index = m_rects.size();
        m_rects.push_back(r);
        forCells(r, [&](int64_t key) { m_cells[key].push_back(index); });
    }
    // Whether `r`, grown by `gap` on every side, touches a box.
    bool isFree(const LayoutRect &r, double gap) const
    {
        const LayoutRect grown{r.x - gap, r.y - gap, r.width + 2 * gap, r.height + 2 * gap};
        bool free = true;
        forCells(grown, [&](int64_t key) {
            auto it = m_cells.find(key);
            if (!free || it == m_cells.end())
                return;
            for (size_t i : it->second) {
                const LayoutRect &o = m_rects[i];
                if (grown.x < o.right() && o.x < grown.right() && grown.y < o.bottom() && o.y < grown.bottom()) {
                    free = false;
                    return;
                }
            }
        });
        return free;
    }
    double right() const
    {
        double right = -std::numeric_limits<double>::max();
        for (const LayoutRect &r : m_rects)
            right = std::max(right, r.right());
        return right;
    }
    bool empty() const { return m_rects.empty(); }

private:
    static constexpr double kCell = 64;
    template <typename F>
    static void forCells(const LayoutRect &r, F f)
    {
        const int64_t x0 = int64_t(std::floor(r.x / kCell)), x1 = int64_t(std::floor(r.right() / kCell));
        const int64_t y0 = int64_t(std::floor(r.y / kCell)), y1 = int64_t(std::floor(r.bottom() / kCell));
        for (int64_t y = y0; y <= y1; ++y)
            for (int64_t x = x0; x <= x1; ++x)
                f((y << 32) ^ (x & 0xffffffff));
    }
    std::vector<LayoutRect> m_rects;
    std::unordered_map<int64_t, std::vector<size_t>> m_cells;
};

// Offsets to try around a wanted place, nearest first; a step sideways (along the rank) costs less than one up or
// down, which would put the node among other ranks.
const std::vector<LayoutPoint> &searchOffsets()
{
    static const std::vector<LayoutPoint> offsets = [] {
        constexpr int kReach = 40;
        constexpr double kStep = 8;
        std::vector<LayoutPoint> out;
        for (int j = -kReach; j <= kReach; ++j)
            for (int i = -kReach; i <= kReach; ++i)
                out.push_back({i * kStep, j * kStep});
        std::stable_sort(out.begin(), out.end(), [](LayoutPoint a, LayoutPoint b) {
            return std::abs(a.x) + 2.5 * std::abs(a.y) < std::abs(b.x) + 2.5 * std::abs(b.y);
        });
        return out;
    }();
    return offsets;
}

// The centre nearest `wanted` where a box of `size` touches no box of `taken`; right of them all when none is near.
LayoutPoint freeSpot(const Occupancy &taken, LayoutPoint wanted, double width, double height)
{
    constexpr double kGap = 10;
    for (const LayoutPoint &d : searchOffsets()) {
        const LayoutPoint c{wanted.x + d.x, wanted.y + d.y};
        if (taken.isFree({c.x - width / 2, c.y - height / 2, width, height}, kGap))
            return c;
    }
    return {taken.right() + kGap + width / 2 + 1, wanted.y};
}

bool isValidSpline(const LayoutEdge &edge)
{
    return edge.points.size() >= 4 && (edge.points.size() - 1) % 3 == 0;
}

// Per group of the next revision: how many of its nodes each previous group held (by name). With `laidOut` (the
// previous layout's nodeItem), only nodes that were laid out count.
std::vector<std::map<int, size_t>> previousGroupVotes(const Graph &nextGraph, const Grouping &nextGrouping,
    const Graph &previousGraph, const Grouping &previousGrouping, const std::vector<int> *laidOut = nullptr)
{
    std::vector<std::map<int, size_t>> votes(nextGrouping.groups.size());
    for (size_t g = 0; g < votes.size(); ++g)
        for (size_t n : nextGrouping.groups[g].nodes) {
            const Node *old = previousGraph.find(nextGraph.nodes()[n]->name());
            if (!old || old->index() >= previousGrouping.groupOf.size() || previousGrouping.groupOf[old->index()] < 0)
                continue;
            if (laidOut && (old->index() >= laidOut->size() || (*laidOut)[old->index()] < 0))
                continue;
            ++votes[g][previousGrouping.groupOf[old->index()]];
        }
    return votes;
}

// The group with the most votes (the first of equals), or `none`.
int mostVoted(const std::map<int, size_t> &votes, int none)
{
    size_t best = 0;
    int group = none;
    for (const auto &[g, count] : votes)
        if (count > best)
            best = count, group = g;
    return group;
}

} // namespace

std::vector<int> matchPreviousGroups(
    const Graph &nextGraph, const Grouping &nextGrouping, const Graph &previousGraph, const Grouping &previousGrouping)
{
    std::vector<int> match;
    for (const auto &votes : previousGroupVotes(nextGraph, nextGrouping, previousGraph, previousGrouping))
        match.push_back(mostVoted(votes, -1));
    return match;
}

StablePositionsStats keepPreviousPositions(SceneLayout &next, const Graph &nextGraph, const Grouping &nextGrouping,
    const SceneLayout &previous, const Graph &previousGraph, const Grouping &previousGrouping)
{
    StablePositionsStats stats;
    // A group keeps its place when most of its nodes come from one laid-out group of the previous revision (a step
    // can change groups' labels and split runs, so labels do not say which group is which).
    std::vector<int> previousKeys(previousGrouping.groups.size());
    for (size_t g = 0; g < previousKeys.size(); ++g)
        previousKeys[g] = int(g);
    const std::vector<std::map<int, size_t>> votes
        = previousGroupVotes(nextGraph, nextGrouping, previousGraph, previousGrouping, &previous.nodeItem);
    std::vector<int> nextKeys;
    for (const auto &v : votes)
        nextKeys.push_back(mostVoted(v, -2));
    const auto hasFrames = [](const SceneLayout &layout) {
        return std::any_of(layout.items.begin(), layout.items.end(),
            [](const SceneItem &item) { return item.kind == SceneItemKind::GroupFrame; });
    };
    // Top-level nodes of a grouped scene sit among group boxes whose sizes change: only frames and flat scenes
    // keep their coordinates.
    const bool flat = !hasFrames(next) && !hasFrames(previous);

    // Previous centre of each laid-out node, relative to its frame, by name, and each previous frame's top-left.
    std::unordered_map<std::string, std::pair<int, LayoutPoint>> before;
    std::unordered_map<int, LayoutPoint> previousOrigin;
    for (size_t n = 0; n < previous.nodeItem.size() && n < previousGraph.size(); ++n) {
        if (previous.nodeItem[n] < 0)
            continue;
        const SceneItem &item = previous.items[size_t(previous.nodeItem[n])];
        const Place place = placeOf(previous, previousKeys, item);
        const LayoutPoint c = item.rect.center();
        before[previousGraph.nodes()[n]->name()] = {place.frame, {c.x - place.origin.x, c.y - place.origin.y}};
        previousOrigin[place.frame] = place.origin;
    }
    // Where the node `name` of a frame at `place` goes when it keeps its place. Nodes that come from the frame's
    // previous group keep their place in it; runs of nodes from another previous group (groups merged by the step)
    // keep theirs relative to it, as the two frames lay.
    const auto keptCentre = [&](const std::string &name, const SceneItem &item, const Place &place,
                                LayoutPoint &centre) {
        auto it = before.find(name);
        if (it == before.end())
            return false;
        const int from = it->second.first;
        if (from != place.frame) {
            if (item.frame < 0 || place.frame < 0 || from < 0)
                return false;
            const auto &fromVotes = votes[next.items[size_t(item.frame)].index];
            if (auto v = fromVotes.find(from); v == fromVotes.end() || v->second < 2)
                return false;
        }
        const LayoutPoint a = previousOrigin[from], b = previousOrigin[place.frame];
        centre = {it->second.second.x + a.x - b.x + place.origin.x, it->second.second.y + a.y - b.y + place.origin.y};
        return true;
    };

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
        const Place place = placeOf(next, nextKeys, item);
        if (place.frame == -1 && !flat)
            continue;
        LayoutPoint centre;
        if (!keptCentre(nextGraph.nodes()[n]->name(), item, place, centre))
            continue;
        moveTo(next.nodeItem[n], centre);
        kept[n] = true;
        ++stats.kept;
    }
    // Where each new node would like to be: the places of the nodes it replaced (its provenance), which the step
    // freed: the j-th of m nodes made from the same nodes takes the j-th of those places from the top.
    std::vector<bool> wants(next.nodeItem.size(), false);
    std::vector<LayoutPoint> wanted(next.nodeItem.size());
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
    for (const auto &[replaced, made] : madeFrom) {
        for (size_t j = 0; j < made.size(); ++j) {
            const size_t n = made[j];
            const SceneItem &item = next.items[size_t(next.nodeItem[n])];
            const Place place = placeOf(next, nextKeys, item);
            if (place.frame == -1 && !flat)
                continue;
            std::vector<LayoutPoint> spots;
            for (const std::string &name : replaced)
                if (LayoutPoint spot; keptCentre(name, item, place, spot))
                    spots.push_back(spot);
            if (spots.empty())
                continue;
            std::sort(spots.begin(), spots.end(), [](LayoutPoint a, LayoutPoint b) { return a.y < b.y; });
            const LayoutPoint spot = spots[std::min(spots.size() - 1, (2 * j + 1) * spots.size() / (2 * made.size()))];
            wants[n] = true;
            wanted[n] = spot;
        }
    }
    // Every node that did not keep its place goes to free space in its frame: nearest its wanted place, else the mean
    // of its neighbours placed already, else where the fresh layout put it. Nodes of a frame that kept nothing keep
    // the fresh layout, which does not overlap.
    std::unordered_map<int, Occupancy> taken; // per frame (-1: the top level of a flat scene)
    std::vector<bool> positioned(next.nodeItem.size(), false);
    for (size_t n = 0; n < next.nodeItem.size(); ++n)
        if (kept[n]) {
            const SceneItem &item = next.items[size_t(next.nodeItem[n])];
            taken[item.frame].add(item.rect);
            positioned[n] = true;
        }
    std::vector<size_t> order;
    for (size_t n = 0; n < next.nodeItem.size() && n < nextGraph.size(); ++n)
        if (next.nodeItem[n] >= 0 && !kept[n] && wants[n])
            order.push_back(n);
    for (size_t n = 0; n < next.nodeItem.size() && n < nextGraph.size(); ++n)
        if (next.nodeItem[n] >= 0 && !kept[n] && !wants[n])
            order.push_back(n);
    for (size_t n : order) {
        const int itemIndex = next.nodeItem[n];
        const SceneItem &item = next.items[size_t(itemIndex)];
        if (item.frame < 0 && !flat)
            continue;
        auto frameTaken = taken.find(item.frame);
        if (frameTaken == taken.end())
            continue;
        LayoutPoint want = item.rect.center();
        if (wants[n]) {
            want = wanted[n];
        } else {
            const Node &node = *nextGraph.nodes()[n];
            double x = 0, y = 0;
            int count = 0;
            const auto add = [&](const Node *neighbour) {
                const size_t m = neighbour->index();
                if (m < positioned.size() && positioned[m]
                    && next.items[size_t(next.nodeItem[m])].frame == item.frame) {
                    const LayoutPoint c = next.items[size_t(next.nodeItem[m])].rect.center();
                    x += c.x, y += c.y, ++count;
                }
            };
            for (const Node *input : node.inputNodes())
                add(input);
            for (const Node *user : node.users())
                add(user);
            if (count > 0)
                want = {x / count, y / count};
        }
        moveTo(itemIndex, freeSpot(frameTaken->second, want, item.rect.width, item.rect.height));
        frameTaken->second.add(next.items[size_t(itemIndex)].rect);
        positioned[n] = true;
        ++stats.placed;
    }

    // Frames (-1: a flat scene's top level) whose nodes moved apart from the fresh layout: its drawings of their
    // edges no longer fit.
    std::set<int> rearranged;
    for (size_t i = 0; i < next.items.size(); ++i)
        if (moved[i])
            rearranged.insert(next.items[i].frame);
    // Where each item was in the fresh layout, to tell afterwards which edges kept their shape.
    std::vector<LayoutPoint> fresh(next.items.size());
    for (size_t i = 0; i < next.items.size(); ++i)
        fresh[i] = next.items[i].rect.center();
    for (size_t n = 0; n < next.nodeItem.size(); ++n)
        if (next.nodeItem[n] >= 0 && moved[size_t(next.nodeItem[n])])
            fresh[size_t(next.nodeItem[n])] = {std::numeric_limits<double>::quiet_NaN(), 0}; // moved: never equal

    // Frames grow to hold their nodes. A frame's top-left stays (its content moves right or down instead), and
    // what lies right of or below a grown frame moves by as much, so that no box comes to overlap another.
    std::vector<std::vector<size_t>> contentOf(next.items.size());
    std::vector<bool> portIsInput(next.items.size(), false);
    for (size_t i = 0; i < next.items.size(); ++i) {
        const SceneItem &item = next.items[i];
        if (item.frame < 0)
            continue;
        contentOf[size_t(item.frame)].push_back(i);
        const LayoutRect &frame = next.items[size_t(item.frame)].rect;
        portIsInput[i] = std::abs(item.rect.center().y - frame.y) < std::abs(item.rect.center().y - frame.bottom());
    }
    const auto shift = [&](size_t i, double dx, double dy) {
        LayoutRect &r = next.items[i].rect;
        r.x += dx, r.y += dy;
    };
    const auto shiftWithContent = [&](size_t i, double dx, double dy) {
        shift(i, dx, dy);
        for (size_t c : contentOf[i])
            shift(c, dx, dy);
    };
    const double pad = SceneMetrics::kFramePadding;
    for (size_t f = 0; f < next.items.size(); ++f) {
        if (next.items[f].kind != SceneItemKind::GroupFrame || next.items[f].frame >= 0)
            continue;
        const LayoutRect old = next.items[f].rect;
        double left = old.x, top = old.y, right = old.right(), bottom = old.bottom();
        for (size_t c : contentOf[f]) {
            const SceneItem &item = next.items[c];
            if (item.kind == SceneItemKind::Port || !moved[c])
                continue;
            left = std::min(left, item.rect.x - pad),
            top = std::min(top, item.rect.y - pad - SceneMetrics::kFrameTitle);
            right = std::max(right, item.rect.right() + pad), bottom = std::max(bottom, item.rect.bottom() + pad);
        }
        if (left == old.x && top == old.y && right == old.right() && bottom == old.bottom())
            continue;
        for (size_t c : contentOf[f])
            shift(c, old.x - left, old.y - top);
        const double grownRight = right - left - old.width, grownDown = bottom - top - old.height;
        for (size_t t = 0; t < next.items.size(); ++t) {
            if (t == f || next.items[t].frame >= 0)
                continue;
            const LayoutRect &r = next.items[t].rect;
            shiftWithContent(t, r.x >= old.right() - 0.5 ? grownRight : 0, r.y >= old.bottom() - 0.5 ? grownDown : 0);
        }
        next.items[f].rect = {old.x, old.y, right - left, bottom - top};
        fresh[f] = {std::numeric_limits<double>::quiet_NaN(), 0};
        moved[f] = true;
        // Ports sit on the frame: inputs on its top edge, outputs on its bottom edge.
        const LayoutRect &frame = next.items[f].rect;
        for (size_t c : contentOf[f]) {
            SceneItem &port = next.items[c];
            if (port.kind != SceneItemKind::Port)
                continue;
            port.rect.y = (portIsInput[c] ? frame.y : frame.bottom()) - port.rect.height / 2;
            port.rect.x = std::clamp(port.rect.x, frame.x, frame.right() - port.rect.width);
            fresh[c] = {std::numeric_limits<double>::quiet_NaN(), 0};
        }
    }

    // Ports that dot put on different ranks share the frame's edge: in a rearranged frame they are spread apart, for
    // Graphviz's router does not route between boxes that touch.
    for (int frame : rearranged) {
        if (frame < 0)
            continue;
        const LayoutRect &box = next.items[size_t(frame)].rect;
        for (const bool inputs : {true, false}) {
            std::vector<size_t> ports;
            for (size_t c : contentOf[size_t(frame)])
                if (next.items[c].kind == SceneItemKind::Port && portIsInput[c] == inputs)
                    ports.push_back(c);
            std::sort(ports.begin(), ports.end(),
                [&](size_t p, size_t q) { return next.items[p].rect.x < next.items[q].rect.x; });
            constexpr double kPortGap = 3 * SceneMetrics::kPortSize;
            for (size_t k = 1; k < ports.size(); ++k) {
                LayoutRect &r = next.items[ports[k]].rect;
                const double least = next.items[ports[k - 1]].rect.x + kPortGap;
                if (r.x < least)
                    r.x = least;
            }
            for (size_t k = ports.size(); k-- > 0;) {
                LayoutRect &r = next.items[ports[k]].rect;
                const double most
                    = k + 1 < ports.size() ? next.items[ports[k + 1]].rect.x - kPortGap : box.right() - r.width;
                r.x = std::max(box.x, std::min(r.x, most));
            }
        }
    }

    // Edges. Both ends moved alike since the fresh layout: its drawing, moved along. Both ends unchanged nodes that
    // moved alike since the previous revision, which had this edge: the previous drawing, moved along. Any other:
    // routed by Graphviz around the boxes of its frame (or of the top level), else a plain curve.
    const auto movedBy = [&](size_t i, LayoutPoint from) {
        const LayoutPoint c = next.items[i].rect.center();
        return LayoutPoint{c.x - from.x, c.y - from.y};
    };
    const auto same
        = [](LayoutPoint a, LayoutPoint b) { return std::abs(a.x - b.x) < 0.01 && std::abs(a.y - b.y) < 0.01; };
    std::unordered_map<std::string, size_t> previousItemOf; // node name -> previous scene item
    for (size_t n = 0; n < previous.nodeItem.size() && n < previousGraph.size(); ++n)
        if (previous.nodeItem[n] >= 0)
            previousItemOf[previousGraph.nodes()[n]->name()] = size_t(previous.nodeItem[n]);
    std::unordered_map<uint64_t, size_t> previousEdge; // (from item, to item) -> previous edge
    for (size_t e = 0; e < previous.edges.size(); ++e)
        previousEdge[(uint64_t(uint32_t(previous.edges[e].path.from)) << 32) | uint32_t(previous.edges[e].path.to)] = e;
    const auto translated = [](LayoutEdge path, LayoutPoint d) {
        for (LayoutPoint &p : path.points)
            p.x += d.x, p.y += d.y;
        path.arrowTip.x += d.x, path.arrowTip.y += d.y;
        return path;
    };
    std::map<int, std::vector<size_t>> toRoute; // per frame (-1: the top level): edges
    const auto topOf = [&](int i) { return next.items[size_t(i)].frame >= 0 ? next.items[size_t(i)].frame : i; };
    for (size_t e = 0; e < next.edges.size(); ++e) {
        SceneEdge &edge = next.edges[e];
        const int from = edge.path.from, to = edge.path.to;
        if (from < 0 || to < 0)
            continue;
        const SceneItem &a = next.items[size_t(from)], &b = next.items[size_t(to)];
        const LayoutPoint d = movedBy(size_t(from), fresh[size_t(from)]);
        if (same(d, movedBy(size_t(to), fresh[size_t(to)])) && !(a.frame == b.frame && rearranged.count(a.frame))) {
            if (d.x != 0 || d.y != 0)
                edge.path = translated(edge.path, d);
            continue;
        }
        ++stats.rerouted;
        if (a.kind == SceneItemKind::Node && b.kind == SceneItemKind::Node) {
            auto pa = previousItemOf.find(nextGraph.nodes()[a.index]->name());
            auto pb = previousItemOf.find(nextGraph.nodes()[b.index]->name());
            if (pa != previousItemOf.end() && pb != previousItemOf.end()) {
                const LayoutPoint da = movedBy(size_t(from), previous.items[pa->second].rect.center());
                auto pe = previousEdge.find((uint64_t(uint32_t(pa->second)) << 32) | uint32_t(pb->second));
                if (pe != previousEdge.end() && same(da, movedBy(size_t(to), previous.items[pb->second].rect.center()))
                    && isValidSpline(previous.edges[pe->second].path)) {
                    const LayoutEdge &was = previous.edges[pe->second].path;
                    edge.path.points = translated(was, da).points;
                    edge.path.hasArrow = was.hasArrow;
                    edge.path.arrowTip = translated(was, da).arrowTip;
                    ++stats.reused;
                    continue;
                }
            }
        }
        edge.path = straightEdge(edge.path, a.rect, b.rect);
        if (!edge.longRange)
            toRoute[a.frame == b.frame ? a.frame : -1].push_back(e);
    }
    // Graphviz's router looks at every box it is given, at a cost that grows with their cube (60 boxes: 80 ms): the
    // edges go in clusters of those near one another, each with the boxes around its edges' ends only, and a cluster
    // with more boxes than this keeps the plain curves.
    constexpr size_t kMostBoxesRouted = 120;
    constexpr double kAround = 100;
    const auto unite = [](const LayoutRect &a, const LayoutRect &b) {
        const double left = std::min(a.x, b.x), top = std::min(a.y, b.y);
        return LayoutRect{left, top, std::max(a.right(), b.right()) - left, std::max(a.bottom(), b.bottom()) - top};
    };
    const auto meet = [](const LayoutRect &a, const LayoutRect &b) {
        return a.x <= b.right() && b.x <= a.right() && a.y <= b.bottom() && b.y <= a.bottom();
    };
    struct Cluster {
        int frame;
        std::vector<size_t> edges;
        LayoutRect near;
    };
    std::vector<Cluster> clusters;
    for (const auto &[frame, edges] : toRoute) {
        const auto endOf = [&, frame = frame](int item) { return frame < 0 ? topOf(item) : item; };
        std::vector<Cluster> here;
        for (size_t e : edges) {
            LayoutRect near = unite(next.items[size_t(endOf(next.edges[e].path.from))].rect,
                next.items[size_t(endOf(next.edges[e].path.to))].rect);
            near = {near.x - kAround, near.y - kAround, near.width + 2 * kAround, near.height + 2 * kAround};
            Cluster joined{frame, {e}, near};
            // Merge every cluster it meets, until none does.
            for (bool merged = true; merged;) {
                merged = false;
                for (size_t c = 0; c < here.size(); ++c)
                    if (meet(here[c].near, joined.near)) {
                        joined.near = unite(joined.near, here[c].near);
                        joined.edges.insert(joined.edges.end(), here[c].edges.begin(), here[c].edges.end());
                        here.erase(here.begin() + long(c));
                        merged = true;
                        break;
                    }
            }
            here.push_back(std::move(joined));
        }
        clusters.insert(clusters.end(), here.begin(), here.end());
    }
    for (const Cluster &cluster : clusters) {
        const int frame = cluster.frame;
        const std::vector<size_t> &edges = cluster.edges;
        const LayoutRect &near = cluster.near;
        FlatLayoutInput input;
        std::unordered_map<int, int> local; // scene item -> router item
        for (size_t i = 0; i < next.items.size(); ++i) {
            const SceneItem &item = next.items[i];
            if (item.frame != frame || (frame < 0 && item.kind == SceneItemKind::Port))
                continue;
            const LayoutRect &r = item.rect;
            if (r.right() < near.x || r.x > near.right() || r.bottom() < near.y || r.y > near.bottom())
                continue;
            local[int(i)] = int(input.items.size());
            input.items.push_back({item.rect.width, item.rect.height});
            input.pinnedCentres.push_back(item.rect.center());
        }
        if (input.items.size() > kMostBoxesRouted)
            continue;
        for (size_t e : edges) {
            const int from = frame < 0 ? topOf(next.edges[e].path.from) : next.edges[e].path.from;
            const int to = frame < 0 ? topOf(next.edges[e].path.to) : next.edges[e].path.to;
            input.edges.push_back({local.at(from), local.at(to), 1});
        }
        auto routed = layoutFlat(input);
        if (!routed.ok())
            continue; // canceled or Graphviz failed: the plain curves stay
        for (size_t k = 0; k < edges.size(); ++k) {
            const LayoutEdge &path = routed.value().edges[k];
            SceneEdge &edge = next.edges[edges[k]];
            if (!isValidSpline(path) || input.edges[k].from == input.edges[k].to)
                continue;
            edge.path.points = path.points;
            edge.path.hasArrow = path.hasArrow;
            edge.path.arrowTip = path.arrowTip;
            ++stats.routed;
            // An edge into or out of an expanded group starts or ends at its port on the frame.
            const SceneItem &a = next.items[size_t(edge.path.from)], &b = next.items[size_t(edge.path.to)];
            if (a.kind == SceneItemKind::Port)
                moveEdgeStart(edge.path, a.rect.center(), 1);
            if (b.kind == SceneItemKind::Port) {
                moveEdgeEnd(edge.path, b.rect.center(), -1);
                edge.path.hasArrow = false;
            }
        }
    }

    next.bounds = {};
    bool first = true;
    const auto grow = [&](double x0, double y0, double x1, double y1) {
        if (first) {
            next.bounds = {x0, y0, x1 - x0, y1 - y0};
            first = false;
            return;
        }
        const double left = std::min(next.bounds.x, x0), top = std::min(next.bounds.y, y0);
        const double right = std::max(next.bounds.right(), x1), bottom = std::max(next.bounds.bottom(), y1);
        next.bounds = {left, top, right - left, bottom - top};
    };
    for (const SceneItem &item : next.items)
        grow(item.rect.x, item.rect.y, item.rect.right(), item.rect.bottom());
    for (const SceneEdge &edge : next.edges)
        for (const LayoutPoint &p : edge.path.points)
            grow(p.x, p.y, p.x, p.y);
    return stats;
}

} // namespace fxs
