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
#include <sys/socket.h>
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

// The box holding every item and every edge point.
LayoutRect boundsOf(const FlatLayout &layout)
{
    double left = 0, top = 0, right = 0, bottom = 0;
    bool first = true;
    const auto add = [&](double x0, double y0, double x1, double y1) {
        left = first ? x0 : std::min(left, x0), top = first ? y0 : std::min(top, y0);
        right = first ? x1 : std::max(right, x1), bottom = first ? y1 : std::max(bottom, y1);
        first = false;
    };
    for (const LayoutRect &r : layout.items)
        add(r.x, r.y, r.right(), r.bottom());
    for (const LayoutEdge &e : layout.edges)
        for (const LayoutPoint &p : e.points)
            add(p.x, p.y, p.x, p.y);
    return {left, top, right - left, bottom - top};
}

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

    const bool pinned = !input.pinnedCentres.empty();
    if (pinned) {
        if (input.pinnedCentres.size() != input.items.size())
            return Error{"layout", 0, 0, "pinned centres do not match the items"};
        // neato -n2: the given positions (points, y up) stay; edges without a position are routed around the boxes.
        agattr(graph, AGNODE, text("pos"), text(""));
        for (size_t i = 0; i < nodes.size(); ++i) {
            const LayoutPoint c = input.pinnedCentres[i];
            agset(nodes[i], text("pos"), text((number(c.x) + "," + number(-c.y) + "!").c_str()));
        }
        set(graph, "notranslate", "true");
        set(graph, "overlap", "true");
        set(graph, "esep", "+2"); // the margin kept around boxes while routing
    }
    if (gvLayout(context, graph, pinned ? "nop2" : "dot") != 0)
        return Error{"layout", 0, 0, "Graphviz layout failed"};
    guard.laidOut = true;

    const boxf bb = GD_bb(graph);
    const double height = bb.UR.y - bb.LL.y;
    // Graphviz has y up and its own origin; ours has y down and starts at (0, 0). Pinned boxes keep our
    // coordinates: Graphviz's are mapped back through the first box's centre, whatever it translated by.
    LayoutPoint shift{-bb.LL.x, height + bb.LL.y};
    if (pinned && !nodes.empty())
        shift = {input.pinnedCentres[0].x - ND_coord(nodes[0]).x, input.pinnedCentres[0].y + ND_coord(nodes[0]).y};
    auto convert = [&](pointf p) { return LayoutPoint{p.x + shift.x, shift.y - p.y}; };

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
    if (pinned) {
        for (size_t i = 0; i < out.items.size(); ++i) {
            const auto &item = input.items[i];
            const LayoutPoint c = input.pinnedCentres[i];
            out.items[i] = LayoutRect{c.x - item.width / 2, c.y - item.height / 2, item.width, item.height};
        }
        out.bounds = boundsOf(out);
    }
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

// The request on the socket: the input as raw values, and whether to crash (tests: what a Graphviz crash does).
std::string encodeRequest(const FlatLayoutInput &input, bool crash)
{
    Writer w;
    w.put(int64_t(crash));
    w.put(input.nodeSeparation), w.put(input.rankSeparation);
    w.put(int64_t(input.items.size()));
    for (const auto &item : input.items)
        w.put(item.width), w.put(item.height);
    w.put(int64_t(input.edges.size()));
    for (const auto &e : input.edges)
        w.put(int64_t(e.from)), w.put(int64_t(e.to)), w.put(int64_t(e.weight));
    w.put(int64_t(input.pinnedCentres.size()));
    for (const LayoutPoint &p : input.pinnedCentres)
        w.put(p);
    return w.m_bytes;
}

bool decodeRequest(const std::string &bytes, FlatLayoutInput &input, bool &crash)
{
    Reader r(bytes);
    int64_t flag = 0, n = 0;
    if (!r.get(flag) || !r.get(input.nodeSeparation) || !r.get(input.rankSeparation) || !r.get(n) || n < 0
        || size_t(n) > bytes.size())
        return false;
    crash = flag != 0;
    input.items.resize(size_t(n));
    for (auto &item : input.items)
        if (!r.get(item.width) || !r.get(item.height))
            return false;
    if (!r.get(n) || n < 0 || size_t(n) > bytes.size())
        return false;
    input.edges.resize(size_t(n));
    for (auto &e : input.edges) {
        int64_t from = 0, to = 0, weight = 0;
        if (!r.get(from) || !r.get(to) || !r.get(weight))
            return false;
        e.from = int(from), e.to = int(to), e.weight = int(weight);
    }
    if (!r.get(n) || n < 0 || size_t(n) > bytes.size())
        return false;
    input.pinnedCentres.resize(size_t(n));
    for (LayoutPoint &p : input.pinnedCentres)
        if (!r.get(p))
            return false;
    return r.atEnd();
}

bool readExactly(int fd, char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = read(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n, size -= size_t(n);
    }
    return true;
}

bool writeAll(int fd, const std::string &bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

std::string framed(const std::string &body)
{
    const int64_t size = int64_t(body.size());
    return std::string(reinterpret_cast<const char *>(&size), sizeof size) + body;
}

// The layout server's life: one request, one answer, until the GUI closes its end (or dies).
[[noreturn]] void serveLayouts(int socket)
{
    // No PR_SET_PDEATHSIG: it fires when the forking thread ends, and a restart forks from a pool thread. The
    // GUI's end of the socket closes when it exits or dies, and the read below then ends this process.
    close_range(4, ~0U, 0); // keep only the socket (moved to 3) and stdio: no other process's pipe held open
    for (;;) {
        int64_t size = 0;
        if (!readExactly(socket, reinterpret_cast<char *>(&size), sizeof size) || size < 0)
            _exit(0);
        std::string request(size_t(size), '\0');
        if (!readExactly(socket, request.data(), request.size()))
            _exit(0);
        FlatLayoutInput input;
        bool crash = false;
        std::string answer;
        if (!decodeRequest(request, input, crash)) {
            answer = '\1' + std::string("the layout process received an unreadable request");
        } else {
            if (crash)
                std::raise(SIGSEGV);
            answer = encode(layoutFlatLocked(input));
        }
        if (!writeAll(socket, framed(answer)))
            _exit(0);
    }
}

// A process that only lays out, forked while the GUI is still small (warmUpGraphviz, at the canvas's creation):
// a crash inside Graphviz (2.43's dot_mincross has crashed on group interiors) ends it, not the GUI, and forking
// it once saves the fork and the copy-on-write faults of a child of the big process per layout. It is forked
// again after a crash, a cancel or a stuck layout. Used under graphvizMutex() only.
struct LayoutServer {
    pid_t pid = -1;
    int socket = -1;

    bool running() const { return pid > 0; }

    bool start()
    {
        int fds[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            return false;
        const pid_t child = fork();
        if (child < 0) {
            close(fds[0]);
            close(fds[1]);
            return false;
        }
        if (child == 0) {
            if (fds[1] != 3 && dup2(fds[1], 3) < 0) // dup2 clears close-on-exec; the server never execs
                _exit(4);
            serveLayouts(3);
        }
        close(fds[1]);
        pid = child;
        socket = fds[0];
        return true;
    }

    // Ends the server (killed unless it already died) and returns how it ended, for waitpid's macros.
    int stop(bool kill)
    {
        int status = 0;
        if (pid > 0) {
            if (kill)
                ::kill(pid, SIGKILL);
            close(socket);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
        }
        pid = -1;
        socket = -1;
        return status;
    }
};

LayoutServer &layoutServer()
{
    static LayoutServer server;
    return server;
}

// Sends one layout to the server and waits for its answer, polling for a cancel (the server is killed and
// forked again) and for a silent server past its deadline (killed; the layout is made here instead). The caller
// holds graphvizMutex().
Result<FlatLayout> layoutInServer(const FlatLayoutInput &input)
{
    LayoutServer &server = layoutServer();
    int status = 0;
    if (server.running() && waitpid(server.pid, &status, WNOHANG) == server.pid) {
        close(server.socket); // it died between layouts (killed from outside): fork a fresh one
        server.pid = -1, server.socket = -1;
    }
    if (!server.running() && !server.start())
        return layoutFlatLocked(input); // no process to spare: lay out here
    const bool crash = std::getenv("FXSCOPE_TEST_CRASH_LAYOUT") != nullptr;
    if (!writeAll(server.socket, framed(encodeRequest(input, crash)))) {
        // It died between requests (killed from outside): one more try with a fresh one.
        server.stop(true);
        if (!server.start() || !writeAll(server.socket, framed(encodeRequest(input, crash)))) {
            server.stop(true);
            return layoutFlatLocked(input);
        }
    }
    std::string bytes;
    char buffer[65536];
    // dot lays out a few hundred boxes in well under a second; a server silent for this long is given up.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20 + input.items.size() / 10);
    int64_t expected = -1;
    for (;;) {
        if (expected < 0 && bytes.size() >= sizeof expected) {
            std::memcpy(&expected, bytes.data(), sizeof expected);
            if (expected < 0) {
                server.stop(true);
                return Error{"layout", 0, 0, "the layout process answered something unreadable"};
            }
        }
        if (expected >= 0 && bytes.size() >= sizeof expected + size_t(expected))
            return decode(bytes.substr(sizeof expected), input.items.size());
        pollfd p{server.socket, POLLIN, 0};
        const int ready = poll(&p, 1, 50);
        if (ready < 0 && errno != EINTR) {
            server.stop(true);
            return Error{"layout", 0, 0, std::string("waiting for the layout process failed: ") + strerror(errno)};
        }
        if (ready > 0) {
            const ssize_t n = read(server.socket, buffer, sizeof buffer);
            if (n > 0) {
                bytes.append(buffer, size_t(n));
                continue;
            }
            if (n == 0 || errno != EINTR) {
                // EOF: the server died in the middle of this layout.
                status = server.stop(false);
                if (WIFSIGNALED(status))
                    return Error{"layout", 0, 0,
                        "Graphviz crashed (" + std::string(strsignal(WTERMSIG(status))) + ") laying out "
                            + std::to_string(input.items.size()) + " boxes; this part of the graph is not shown"};
                return Error{"layout", 0, 0, "the layout process ended without an answer"};
            }
        }
        if (progressCanceled()) {
            server.stop(true);
            return canceledError("layout");
        }
        if (bytes.empty() && std::chrono::steady_clock::now() > deadline) {
            server.stop(true);
            return layoutFlatLocked(input);
        }
    }
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
    return layoutInServer(input);
}

int layoutServerProcess()
{
    std::lock_guard<std::mutex> lock(graphvizMutex());
    return layoutServer().pid;
}

void warmUpGraphviz()
{
    // A two-box layout: the context and the dot layout plugin, which Graphviz loads lazily at the first gvLayout.
    static const bool done = [] {
        FlatLayoutInput input;
        input.items = {{20, 10}, {20, 10}};
        input.edges = {{0, 1, 1}};
        const bool ok = layoutFlat(input).ok();
        std::lock_guard<std::mutex> lock(graphvizMutex());
        if (!layoutServer().running() && !std::getenv("FXSCOPE_LAYOUT_IN_PROCESS"))
            layoutServer().start();
        return ok;
    }();
    (void)done;
}

} // namespace fxs
