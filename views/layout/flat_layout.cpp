#include "flat_layout.h"

#include "util/progress.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

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

namespace {

// The layout itself, in this process; the caller holds graphvizMutex().
Result<FlatLayout> layoutFlatLocked(const FlatLayoutInput &input)
{
    FlatLayout out;
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

// The child's answer on the pipe: a status byte, then the layout as raw values or the error text.
class Writer {
public:
    void put(double v) { m_bytes.append(reinterpret_cast<const char *>(&v), sizeof v); }
    void put(int64_t v) { m_bytes.append(reinterpret_cast<const char *>(&v), sizeof v); }
    void put(const LayoutRect &r) { put(r.x), put(r.y), put(r.width), put(r.height); }
    void put(const LayoutPoint &p) { put(p.x), put(p.y); }
    std::string m_bytes;
};

class Reader {
public:
    explicit Reader(const std::string &bytes) : m_bytes(bytes) { }
    template <typename T>
    bool get(T &v)
    {
        if (m_at + sizeof v > m_bytes.size())
            return false;
        std::memcpy(&v, m_bytes.data() + m_at, sizeof v);
        m_at += sizeof v;
        return true;
    }
    bool get(LayoutRect &r) { return get(r.x) && get(r.y) && get(r.width) && get(r.height); }
    bool get(LayoutPoint &p) { return get(p.x) && get(p.y); }
    bool atEnd() const { return m_at == m_bytes.size(); }

private:
    const std::string &m_bytes;
    size_t m_at = 0;
};

std::string encode(const Result<FlatLayout> &result)
{
    Writer w;
    if (!result) {
        w.m_bytes = '\1' + result.error().message;
        return w.m_bytes;
    }
    w.m_bytes = '\0';
    const FlatLayout &l = result.value();
    w.put(int64_t(l.items.size()));
    for (const LayoutRect &r : l.items)
        w.put(r);
    w.put(int64_t(l.edges.size()));
    for (const LayoutEdge &e : l.edges) {
        w.put(int64_t(e.from)), w.put(int64_t(e.to)), w.put(int64_t(e.hasArrow)), w.put(e.arrowTip);
        w.put(int64_t(e.points.size()));
        for (const LayoutPoint &p : e.points)
            w.put(p);
    }
    w.put(l.bounds);
    return w.m_bytes;
}

Result<FlatLayout> decode(const std::string &bytes, size_t expectedItems)
{
    const Error broken{"layout", 0, 0, "the layout process answered something unreadable"};
    if (bytes.empty())
        return broken;
    if (bytes[0] == '\1')
        return Error{"layout", 0, 0, bytes.substr(1)};
    const std::string body = bytes.substr(1);
    Reader r(body);
    FlatLayout l;
    int64_t n = 0;
    if (!r.get(n) || n < 0 || size_t(n) != expectedItems)
        return broken;
    l.items.resize(size_t(n));
    for (LayoutRect &rect : l.items)
        if (!r.get(rect))
            return broken;
    if (!r.get(n) || n < 0 || size_t(n) > body.size())
        return broken;
    l.edges.resize(size_t(n));
    for (LayoutEdge &e : l.edges) {
        int64_t from = 0, to = 0, arrow = 0, points = 0;
        if (!r.get(from) || !r.get(to) || !r.get(arrow) || !r.get(e.arrowTip) || !r.get(points) || points < 0
            || size_t(points) > body.size())
            return broken;
        e.from = int(from), e.to = int(to), e.hasArrow = arrow != 0;
        e.points.resize(size_t(points));
        for (LayoutPoint &p : e.points)
            if (!r.get(p))
                return broken;
    }
    if (!r.get(l.bounds) || !r.atEnd())
        return broken;
    return l;
}

// Runs the layout in a forked child, so that a crash inside Graphviz (2.43's dot_mincross has crashed on group
// interiors) ends the child, not the GUI: the caller gets an error for this one group. The child inherits the
// loaded Graphviz (warmUpGraphviz) and never takes a lock another thread could hold; a cancel kills it.
Result<FlatLayout> layoutInChild(const FlatLayoutInput &input)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return layoutFlatLocked(input);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return layoutFlatLocked(input); // no process to spare: lay out here
    }
    if (pid == 0) {
        close(fds[0]);
        if (std::getenv("FXSCOPE_TEST_CRASH_LAYOUT"))
            std::raise(SIGSEGV); // tests: what a Graphviz crash does
        const std::string bytes = encode(layoutFlatLocked(input));
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = write(fds[1], bytes.data() + done, bytes.size() - done);
            if (n <= 0)
                _exit(3);
            done += size_t(n);
        }
        _exit(0);
    }
    close(fds[1]);
    std::string bytes;
    char buffer[65536];
    bool canceled = false, stuck = false;
    // A child that forked while another thread held a lock it then needs would wait forever; dot lays out a few
    // hundred boxes in well under a second, so one that is silent for this long is given up and the layout is
    // made here instead.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20 + input.items.size() / 10);
    for (;;) {
        pollfd p{fds[0], POLLIN, 0};
        const int ready = poll(&p, 1, 50);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready > 0) {
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n > 0) {
                bytes.append(buffer, size_t(n));
                continue;
            }
            if (n == 0 || errno != EINTR)
                break; // EOF: the child is done (or died)
        }
        if (progressCanceled()) {
            kill(pid, SIGKILL);
            canceled = true;
            break;
        }
        if (bytes.empty() && std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            stuck = true;
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (canceled)
        return canceledError("layout");
    if (stuck)
        return layoutFlatLocked(input);
    if (WIFSIGNALED(status))
        return Error{"layout", 0, 0,
            "Graphviz crashed (" + std::string(strsignal(WTERMSIG(status))) + ") laying out "
                + std::to_string(input.items.size()) + " boxes; this part of the graph is not shown"};
    return decode(bytes, input.items.size());
}

} // namespace

Result<FlatLayout> layoutFlat(const FlatLayoutInput &input)
{
    if (progressCanceled())
        return canceledError("layout");
    if (input.items.empty())
        return FlatLayout{};
    std::lock_guard<std::mutex> lock(graphvizMutex());
    // Small layouts run here: forking costs more than they do, and they have not crashed Graphviz.
    if (input.items.size() < kIsolateFromItems || std::getenv("FXSCOPE_LAYOUT_IN_PROCESS"))
        return layoutFlatLocked(input);
    return layoutInChild(input);
}

} // namespace fxs
