#include "torch_host_engine.h"

#include "io/fxscope_json.h"
#include "patterns/pattern_file.h"
#include "pattern_tree.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string_view>
#include <unordered_set>

namespace fxs {

namespace {

std::string stageText(const Json &outcome)
{
    return outcome["stage"].toString() + ": " + outcome["reason"].toString();
}

// FNV-1a, for fingerprints of what a node's JSON holds.
constexpr uint64_t kFnvOffset = 14695981039346656037ull;

uint64_t fnv(uint64_t h, std::string_view bytes)
{
    for (unsigned char c : bytes)
        h = (h ^ c) * 1099511628211ull;
    return (h ^ 0xff) * 1099511628211ull; // a separator: "ab","c" and "a","bc" differ
}

uint64_t fnvNumber(uint64_t h, uint64_t v)
{
    return fnv(h, std::string_view(reinterpret_cast<const char *>(&v), sizeof v));
}

uint64_t hashArgument(uint64_t h, const Argument &a)
{
    h = fnvNumber(h, uint64_t(a.kind()));
    switch (a.kind()) {
    case Argument::Kind::NodeRef: return fnv(h, a.node() ? a.node()->name() : std::string_view());
    case Argument::Kind::Bool:
    case Argument::Kind::Int: h = fnvNumber(h, uint64_t(a.toInt())); break;
    case Argument::Kind::Float: {
        const double d = a.toDouble();
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        h = fnvNumber(h, bits);
        break;
    }
    default: h = fnv(h, a.text()); break;
    }
    for (const auto &k : a.keys())
        h = fnv(h, k);
    for (const auto &item : a.items())
        h = hashArgument(h, item);
    return fnvNumber(h, a.items().size());
}

uint64_t hashValue(uint64_t h, const ValueMeta &v)
{
    h = fnvNumber(h, uint64_t(v.kind));
    h = fnv(h, v.expr);
    h = fnv(h, v.tensor.dtype);
    h = fnv(h, v.tensor.device);
    h = fnvNumber(h, v.tensor.hasStride);
    for (const auto *dims : {&v.tensor.shape, &v.tensor.stride}) {
        h = fnvNumber(h, dims->size());
        for (const SymInt &d : *dims)
            h = fnv(fnvNumber(h, uint64_t(d.value)), d.expr);
    }
    for (const ValueMeta &item : v.items)
        h = hashValue(h, item);
    return fnvNumber(h, v.items.size());
}

// What nodeToJson would hold, hashed: name, op, target, arguments and meta.
uint64_t nodeFingerprint(const Node &n)
{
    uint64_t h = fnv(fnv(fnvNumber(kFnvOffset, uint64_t(n.op())), n.name()), n.target());
    for (const auto &a : n.args())
        h = hashArgument(h, a);
    h = fnvNumber(h, n.args().size());
    for (const auto &kv : n.kwargs())
        h = hashArgument(fnv(h, kv.first), kv.second);
    const NodeMeta &m = n.meta();
    h = m.val ? hashValue(fnvNumber(h, 1), *m.val) : fnvNumber(h, 0);
    h = fnv(fnv(h, m.stackTrace), m.typeAnnotation);
    h = fnvNumber(h, m.source ? 1 : 0);
    if (m.source)
        h = fnv(fnv(fnv(fnvNumber(h, uint64_t(m.source->line)), m.source->file), m.source->function), m.source->code);
    h = fnvNumber(h, m.nnModuleStack.size());
    for (const auto &entry : m.nnModuleStack)
        h = fnv(fnv(fnv(h, entry.key), entry.path), entry.type);
    if (!m.extra.isNull())
        h = fnv(h, m.extra.dump());
    return fnvNumber(h, uint64_t(m.dumpLine));
}

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

std::shared_ptr<TorchHostEngine> TorchHostEngine::create(TorchHostSettings settings)
{
    std::shared_ptr<TorchHostEngine> engine(new TorchHostEngine(std::move(settings)));
    engine->m_host->startInBackground();
    return engine;
}

TorchHostEngine::TorchHostEngine(TorchHostSettings settings)
    : m_host(std::make_unique<TorchHost>(std::move(settings)))
{
}

std::string TorchHostEngine::torchVersion() const
{
    return m_host->hello()["torch_version"].toString();
}

TorchHostEngine::Stats TorchHostEngine::stats() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_stats;
}

Status TorchHostEngine::load(const std::vector<std::string> &sources, PatternRegistry &registry)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    Json list = Json::array();
    for (const auto &s : sources)
        list.push(s);
    auto reply = m_host->request("load", Json::object({{"sources", list}}));
    if (!reply)
        return reply.error();
    m_sources.insert(m_sources.end(), sources.begin(), sources.end());
    m_loadedInStart = m_host->starts();
    m_mirrored = false;
    const Json &r = reply.value();
    for (const Json &w : r["warnings"].items())
        registry.addWarning(w.toString());
    auto self = shared_from_this();
    const std::string label = "torch host";
    for (const Json &p : r["patterns"].items()) {
        const size_t index = size_t(p["index"].toInt());
        auto entry = std::make_shared<PatternEntry>();
        entry->name = p["name"].toString();
        for (int k = 2; registry.find(entry->name); ++k)
            entry->name = p["name"].toString() + "_" + std::to_string(k);
        const std::string registeredWith = p["registered_with"].toString();
        entry->api = registeredWith.rfind("torchair.", 0) == 0 ? PatternApi::Torchair : PatternApi::Inductor;
        entry->torchairBuiltin = p["torchair_builtin"].toBool();
        entry->source = p["source_file"].toString() + ":" + std::to_string(p["source_line"].toInt());
        auto pattern = patternFromTree(p["pattern"], entry->source);
        if (!pattern)
            return pattern.error();
        entry->pattern = pattern.value();
        entry->specificPattern = entry->pattern; // re-traced per match by torch; this one when it is given
        for (const char *which : {"search", "replace"}) {
            if (p[which].isNull())
                continue; // the example inputs could not trace it: torch traces it per match (notes say why)
            auto g = parseGraphJson(p[which], entry->source + " (" + which + ")");
            if (!g)
                return g.error();
            (std::string(which) == "search" ? entry->searchGraph : entry->replaceGraph) = std::move(g.value());
        }
        for (const Json &name : p["flat_argnames"].items())
            entry->argnames.push_back(name.toString());
        for (const Json &note : p["notes"].items())
            entry->warnings.push_back(note.toString());
        entry->exampleInputs = exportedExampleInputs(p["example_inputs"]);
        entry->extraCheckSource = p["extra_check_source"].toString();
        entry->torchairStreamCheck = p["stream_check"].toBool();
        entry->retrace = [self, index](const Match &m) { return self->retrace(index, m); };
        entry->forcedRetrace = [self, index](const Match &m) { return self->retrace(index, m, true); };
        entry->extraCheck = [self, index](const Match &m) { return self->check(index, m); };
        if (entry->extraCheckSource.empty())
            entry->userCheck = [](const Match &) { return CheckVerdict{}; }; // none given: _return_true
        else
            entry->userCheck = [self, index](const Match &m) { return self->userCheck(index, m); };
        if (auto st = registry.add(entry); !st)
            return Error{"", 0, 0, entry->source + ": " + st.error().message};
    }
    m_patterns += r["patterns"].size();
    if (const std::string from = r["torchair_builtins_from"].toString(); !from.empty())
        registry.setTorchairBuiltinsFrom(from);
    spdlog::info("torch host: {} patterns from {} sources in {:.2f} s", r["patterns"].size(), sources.size(),
        r["seconds"].toDouble());
    return Ok{};
}

Status TorchHostEngine::reloadAfterRestart()
{
    // It died or hung: start the next one now, and load the sources into it. The first start may still be under
    // way: wait for it, so that starts() counts the start the mirror goes to.
    if (!m_host->running() || m_host->starts() == 0)
        if (auto hello = m_host->request("hello"); !hello)
            return hello.error();
    if (m_host->starts() == m_loadedInStart)
        return Ok{};
    Json list = Json::array();
    for (const auto &s : m_sources)
        list.push(s);
    auto reply = m_host->request("load", Json::object({{"sources", list}}));
    if (!reply)
        return reply.error();
    if (reply.value()["patterns"].size() != m_patterns)
        return Error{"", 0, 0, "the restarted torch host registered another set of patterns ("
                + std::to_string(reply.value()["patterns"].size()) + ", before " + std::to_string(m_patterns)
                + "): the sources changed; load them again"};
    m_loadedInStart = m_host->starts();
    m_mirrored = false;
    m_last.reset();
    return Ok{};
}

Status TorchHostEngine::sync(const Graph &graph)
{
    if (auto st = reloadAfterRestart(); !st)
        return st;
    // What a diff of nodes cannot carry (symbol hints, subgraphs): another graph (a batch's next) is sent whole.
    Json graphLevel = graphLevelToJson(graph);
    if (m_mirrored && graphLevel != m_sentGraphLevel)
        m_mirrored = false;
    Status st = Ok{};
    if (m_mirrored && graph.serial() == m_followedSerial) {
        // The graph the mirror follows: only the nodes its change log names since the last sync can differ, and
        // each goes with the node before it, so the host puts it in place (a 23k-node graph checked and
        // replaced 284 times had every node hashed and every name sent per check).
        const auto &log = graph.changeLog();
        std::unordered_set<std::string_view> named(log.begin() + long(m_followedChanges), log.end());
        std::vector<const Node *> changed;
        Json removed = Json::array();
        for (std::string_view name : named) {
            if (const Node *n = graph.find(name))
                changed.push_back(n);
            else if (m_sent.erase(std::string(name)))
                removed.push(std::string(name));
        }
        if (changed.empty() && removed.size() == 0)
            return Ok{};
        std::sort(changed.begin(), changed.end(), Graph::precedes); // each after the node before it, placed first
        Json nodes = Json::array();
        for (const Node *n : changed) {
            Json j = nodeToJson(*n);
            const Node *before = Graph::prev(n);
            j.set("after", before ? Json(before->name()) : Json());
            nodes.push(std::move(j));
            m_sent[n->name()] = SentNode{nodeFingerprint(*n), m_syncPasses};
        }
        m_orderHash = 0; // not followed here: a full comparison sends the order
        st = sendEdit(std::move(nodes), std::move(removed), Json::array());
        if (st) {
            m_followedChanges = graph.followChanges();
            ++m_generation;
            return Ok{};
        }
        m_mirrored = false; // the mirror is in doubt: rebuilt whole below
    }
    // A node is sent again when its fingerprint changed: a hash of what its JSON holds, made without building
    // the JSON.
    const uint64_t pass = ++m_syncPasses;
    std::vector<uint64_t> fingerprints;
    fingerprints.reserve(graph.size());
    std::vector<const Node *> changed;
    uint64_t orderHash = kFnvOffset;
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        const uint64_t fp = nodeFingerprint(n);
        fingerprints.push_back(fp);
        orderHash = fnv(orderHash, n.name());
        auto it = m_sent.find(n.name());
        if (it != m_sent.end())
            it->second.seen = pass;
        if (!m_mirrored || it == m_sent.end() || it->second.fingerprint != fp)
            changed.push_back(&n);
    }
    Json removed = Json::array();
    for (const auto &kv : m_sent)
        if (kv.second.seen != pass)
            removed.push(kv.first);
    // Most nodes changed: another graph with the same names (a batch's next dump); rebuilt whole, as a load would.
    if (m_mirrored && 2 * changed.size() > graph.size())
        m_mirrored = false;
    if (m_mirrored && changed.empty() && removed.size() == 0 && orderHash == m_orderHash) {
        m_followedSerial = graph.serial(); // the same nodes in another graph object (a clone): followed from here
        m_followedChanges = graph.followChanges();
        return Ok{};
    }
    if (m_mirrored) {
        Json nodes = Json::array();
        for (const Node *n : changed)
            nodes.push(nodeToJson(*n));
        Json names = Json::array();
        if (orderHash != m_orderHash)
            for (const auto &owned : graph.nodes())
                names.push(owned->name());
        st = sendEdit(std::move(nodes), std::move(removed), std::move(names));
    }
    if (!m_mirrored || !st) {
        const auto start = std::chrono::steady_clock::now();
        auto r = m_host->request("mirror", Json::object({{"graph", graphToJson(graph)}}));
        m_stats.mirrorMs += msSince(start);
        if (!r) {
            m_mirrored = false;
            return Error{"", 0, 0, "torch cannot rebuild the graph: " + r.error().message};
        }
        ++m_stats.mirrors;
    }
    // What the host now holds: the nodes not seen this pass are gone, every other one has its new fingerprint.
    for (auto it = m_sent.begin(); it != m_sent.end();)
        it = it->second.seen == pass ? std::next(it) : m_sent.erase(it);
    size_t i = 0;
    for (const auto &owned : graph.nodes())
        m_sent[owned->name()] = SentNode{fingerprints[i++], pass};
    m_orderHash = orderHash;
    m_sentGraphLevel = std::move(graphLevel);
    m_mirrored = true;
    m_followedSerial = graph.serial();
    m_followedChanges = graph.followChanges();
    ++m_generation;
    return Ok{};
}

Status TorchHostEngine::follow(const Graph &graph)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return sync(graph);
}

Status TorchHostEngine::sendEdit(Json nodes, Json removed, Json order)
{
    const auto start = std::chrono::steady_clock::now();
    auto r = m_host->request(
        "edit", Json::object({{"nodes", std::move(nodes)}, {"removed", std::move(removed)}, {"order", std::move(order)}}));
    m_stats.editMs += msSince(start);
    if (!r) {
        spdlog::warn("torch host: the mirror did not follow the edit ({}); sending the whole graph", r.error().message);
        return r.error();
    }
    ++m_stats.edits;
    return Ok{};
}

Result<Json> TorchHostEngine::numerics(const Json &before, const Json &after, uint64_t seed)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto st = reloadAfterRestart(); !st) // a restarted host defines the sources' ops again first
        return st.error();
    return m_host->request(
        "numerics", Json::object({{"before", before}, {"after", after}, {"seed", static_cast<int64_t>(seed)}}));
}

PythonNumerics TorchHostEngine::numericsRunner()
{
    return [self = shared_from_this()](const Json &before, const Json &after, uint64_t seed) {
        return self->numerics(before, after, seed);
    };
}

Result<Json> TorchHostEngine::decide(size_t pattern, const Graph &graph, const std::string &anchor, bool force)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto st = sync(graph); !st)
        return st.error();
    if (m_last && m_last->pattern == pattern && m_last->anchor == anchor && m_last->force == force
        && m_last->generation == m_generation)
        return m_last->outcome;
    const auto start = std::chrono::steady_clock::now();
    auto reply = m_host->request(
        "check", Json::object({{"pattern", Json(pattern)}, {"anchor", anchor}, {"force", Json(force)}}));
    m_stats.checkMs += msSince(start);
    if (!reply)
        return reply.error();
    ++m_stats.checks;
    m_last = Decided{pattern, anchor, force, m_generation, reply.value()};
    return std::move(reply.value());
}

Retrace TorchHostEngine::retrace(size_t pattern, const Match &m, bool force)
{
    Retrace r;
    const Node *anchor = m.anchor();
    if (!anchor || !anchor->graph()) {
        r.raised = "RuntimeError: the match has no anchor node for torch to check";
        return r;
    }
    auto outcome = decide(pattern, *anchor->graph(), anchor->name(), force);
    if (!outcome) {
        r.raised = "the torch host could not decide this candidate: " + outcome.error().message;
        return r;
    }
    const Json &o = outcome.value();
    const std::string stage = o["stage"].toString();
    if (stage == "error" && !o["check"]["raised"].isString()) {
        r.raised = o["raised"].toString() + (o["where"].isString() ? " (at " + o["where"].toString() + ")" : "");
        // torch's check reads each input's meta val (_get_match_node_value): a dump without shapes has none, and
        // whatever torch raised then, that is the first thing to fix.
        const Node *bare = nullptr;
        for (const auto &kv : m.kwargs)
            kv.second.forEachNode([&](const Node *n) {
                if (!bare && !n->meta().val)
                    bare = n;
            });
        if (bare)
            r.raised += "; the dump has no shape for " + bare->name() + ", and torch's check reads each input's meta "
                "val (Inductor's own graphs always have it): dump the graph with its shapes (print_readable, "
                "TORCH_LOGS=post_grad_graphs, fxscope_capture)";
        return r;
    }
    if (stage == "retrace") {
        r.error = o["reason"].toString();
        return r;
    }
    if (stage == "generic") {
        r.error = "torch's own generic pattern does not match here (" + o["reason"].toString()
            + "): fxscope's structural match and torch's differ";
        return r;
    }
    if (const Json *tree = o.find("specific_pattern")) {
        auto specific = patternFromTree(*tree, "torch's specific pattern");
        if (specific)
            r.pattern = specific.value();
        else
            r.notes.push_back(specific.error().toString());
    }
    if (const Json *repl = o.find("replacement"); repl && repl->isObject()) {
        auto g = parseGraphJson(*repl, "torch's replacement for " + anchor->name());
        if (g)
            r.replace = std::shared_ptr<const Graph>(std::move(g.value()));
        else
            r.raised = "the replacement torch traced cannot be read: " + g.error().toString();
    }
    return r;
}

CheckVerdict TorchHostEngine::check(size_t pattern, const Match &m)
{
    CheckVerdict v;
    Json o;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_last && m_last->pattern == pattern && !m_last->force)
            o = m_last->outcome;
    }
    if (o.isNull()) { // not asked through retrace first (matchAt's second look): ask now
        const Node *anchor = m.anchor();
        auto outcome = anchor && anchor->graph() ? decide(pattern, *anchor->graph(), anchor->name())
                                                 : Result<Json>(Error{"", 0, 0, "the match has no anchor node"});
        if (!outcome) {
            v.ok = false;
            v.raised = "the torch host could not decide this candidate: " + outcome.error().message;
            return v;
        }
        o = outcome.value();
    }
    const Json &check = o["check"];
    for (const Json &line : check["trace"].items())
        v.trace.push_back(line.toString());
    if (check["raised"].isString()) {
        v.ok = false;
        v.raised = (check["where"].isString() ? check["where"].toString() + ": " : std::string())
            + check["raised"].toString();
        return v;
    }
    const std::string stage = o["stage"].toString();
    v.ok = stage == "accepted";
    if (!v.ok && stage != "extra_check")
        v.trace.push_back("torch's check_fn rejects it: " + stageText(o));
    return v;
}

CheckVerdict TorchHostEngine::userCheck(size_t pattern, const Match &m)
{
    CheckVerdict v;
    const Node *anchor = m.anchor();
    if (!anchor || !anchor->graph()) {
        v.ok = false;
        v.raised = "the match has no anchor node";
        return v;
    }
    Json nodes = Json::array();
    for (const Node *n : m.nodes)
        nodes.push(n->name());
    Json kwargs = Json::object();
    for (const auto &kv : m.kwargs)
        kwargs.set(kv.first, argumentToJson(kv.second));
    std::lock_guard<std::mutex> lock(m_mutex);
    auto reply = [&]() -> Result<Json> {
        if (auto st = sync(*anchor->graph()); !st)
            return st.error();
        return m_host->request("user_check", Json::object({{"pattern", Json(pattern)}, {"anchor", anchor->name()},
                                                 {"nodes", std::move(nodes)}, {"kwargs", std::move(kwargs)}}));
    }();
    if (!reply) {
        v.ok = false;
        v.raised = "the torch host could not run the check: " + reply.error().message;
        return v;
    }
    const Json &r = reply.value();
    for (const Json &line : r["trace"].items())
        v.trace.push_back(line.toString());
    v.ok = r["result"].toBool();
    if (r["raised"].isString())
        v.raised = (r["where"].isString() ? r["where"].toString() + ": " : std::string()) + r["raised"].toString();
    return v;
}

} // namespace fxs
