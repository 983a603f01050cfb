#include "flat_layout.h"

#include "util/progress.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <string>

namespace fxs {

namespace {

constexpr double kPointsPerInch = 72.0;

std::mutex &graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

// One context for the process, created on first use under the mutex: gvContext() loads plugins,
// which costs milliseconds per call.
GVC_t *graphvizContext()
{
    static GVC_t *context = [] {
        agseterr(AGERR); // warnings (e.g. about ports) would go to stderr on every call
        return gvContext();
    }();
    return context;
}

// Graphviz's C API takes char * for strings it only reads.
char *text(const char *s)
{
    return const_cast<char *>(s);
}

void set(void *object, const char *name, const std::string &value)
{
    agsafeset(object, text(name), text(value.c_str()), text(""));
}

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
    return buffer;
}

// Frees the layout and the graph on every path out of layoutFlat.
struct GraphGuard {
    GVC_t *context;
    Agraph_t *graph;
    bool laidOut = false;
    ~GraphGuard()
    {
        if (laidOut)
            gvFreeLayout(context, graph);
        agclose(graph);
    }
};

} // namespace

void warmUpGraphviz()
{
    // A two-box layout: the context and the dot layout plugin, which Graphviz loads lazily at the first gvLayout.
    static const bool done = [] {
        FlatLayoutInput input;
        input.items = {{20, 10}, {20, 10}};
        input.edges = {{0, 1, 1}};
        return layoutFlat(input).ok();
    }();
    (void)done;
}

Result<FlatLayout> layoutFlat(const FlatLayoutInput &input)
{
    if (progressCanceled())
        return canceledError("layout");
    FlatLayout out;
    if (input.items.empty())
        return out;

    std::lock_guard<std::mutex> lock(graphvizMutex());
    GVC_t *context = graphvizContext();
    if (!context)
        return Error{"layout", 0, 0, "Graphviz could not start"};
    Agraph_t *graph = agopen(text("g"), Agstrictdirected, nullptr);
    GraphGuard guard{context, graph};
    set(graph, "rankdir", "TB");
    set(graph, "nodesep", number(input.nodeSeparation / kPointsPerInch));
    set(graph, "ranksep", number(input.rankSeparation / kPointsPerInch));
    set(graph, "splines", "spline");
    // Bounded crossing minimisation: the default iterates until no gain, which dominates big layouts.
    set(graph, "mclimit", "0.5");
    set(graph, "remincross", "false");

    // Declared on the graph so that per-node values are stored in the fast attribute slots.
    agattr(graph, AGNODE, text("shape"), text("box"));
    agattr(graph, AGNODE, text("fixedsize"), text("true"));
    agattr(graph, AGNODE, text("width"), text("1"));
    agattr(graph, AGNODE, text("height"), text("0.5"));
    agattr(graph, AGNODE, text("label"), text(""));
    agattr(graph, AGEDGE, text("weight"), text("1"));
    agattr(graph, AGEDGE, text("arrowsize"), text("0.7"));

    // No rank=min/max subgraphs to pin ports to the top and bottom: with them Graphviz 2.43's dot_mincross
    // crashed in decompose() on some group interiors (seen in CI); unpinned ports sit next to the node they feed.
    std::vector<Agnode_t *> nodes(input.items.size());
    for (size_t i = 0; i < input.items.size(); ++i) {
        const auto &item = input.items[i];
        const std::string name = "n" + std::to_string(i);
        Agnode_t *node = agnode(graph, text(name.c_str()), 1);
        nodes[i] = node;
        agset(node, text("width"), text(number(std::max(item.width, 1.0) / kPointsPerInch).c_str()));
        agset(node, text("height"), text(number(std::max(item.height, 1.0) / kPointsPerInch).c_str()));
    }
    std::vector<Agedge_t *> edges(input.edges.size(), nullptr);
    for (size_t i = 0; i < input.edges.size(); ++i) {
        const auto &e = input.edges[i];
        if (e.from < 0 || e.to < 0 || size_t(e.from) >= nodes.size() || size_t(e.to) >= nodes.size())
            return Error{"layout", 0, 0, "edge " + std::to_string(i) + " names an item that does not exist"};
        if (e.from == e.to)
            continue; // self loops carry no information in a dataflow graph
        Agedge_t *edge = agedge(graph, nodes[size_t(e.from)], nodes[size_t(e.to)], nullptr, 1);
        edges[i] = edge;
        if (e.weight > 1)
            agset(edge, text("weight"), text(std::to_string(std::min(e.weight, 100)).c_str()));
    }

    if (gvLayout(context, graph, "dot") != 0)
        return Error{"layout", 0, 0, "Graphviz layout failed"};
    guard.laidOut = true;

    const boxf bb = GD_bb(graph);
    const double height = bb.UR.y - bb.LL.y;
    // Graphviz has y up and its own origin; ours has y down and starts at (0, 0).
    auto convert = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, height - (p.y - bb.LL.y)}; };

    out.items.resize(input.items.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        const LayoutPoint c = convert(ND_coord(nodes[i]));
        const double w = ND_width(nodes[i]) * kPointsPerInch;
        const double h = ND_height(nodes[i]) * kPointsPerInch;
        out.items[i] = LayoutRect{c.x - w / 2, c.y - h / 2, w, h};
    }
    out.edges.resize(input.edges.size());
    for (size_t i = 0; i < edges.size(); ++i) {
        LayoutEdge &edge = out.edges[i];
        edge.from = input.edges[i].from;
        edge.to = input.edges[i].to;
        Agedge_t *e = edges[i];
        const splines *spl = e ? ED_spl(e) : nullptr;
        if (spl && spl->size > 0) {
            // dot gives one Bézier per edge unless it was split at concentrators, which we never enable.
            const bezier &bz = spl->list[0];
            for (size_t k = 0; k < size_t(bz.size); ++k)
                edge.points.push_back(convert(bz.list[k]));
            if (bz.eflag) {
                edge.hasArrow = true;
                edge.arrowTip = convert(bz.ep);
            }
        }
        // A valid cubic spline has 3n+1 points; anything else (no route) becomes a straight segment.
        if (edge.points.size() < 4 || (edge.points.size() - 1) % 3 != 0) {
            const LayoutRect &a = out.items[size_t(edge.from)];
            const LayoutRect &b = out.items[size_t(edge.to)];
            const LayoutPoint p0{a.center().x, a.bottom()};
            const LayoutPoint p3{b.center().x, b.y};
            edge.points = {p0, {p0.x, (p0.y + p3.y) / 2}, {p3.x, (p0.y + p3.y) / 2}, p3};
            edge.hasArrow = false;
        }
    }
    out.bounds = LayoutRect{0, 0, bb.UR.x - bb.LL.x, height};
    return out;
}

} // namespace fxs
