#include "near_miss.h"

#include "pattern_matcher.h"
#include "patterns/op_schema.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

namespace fxs {

namespace {

// A position in a pattern from its root: each step indexes a call's args then its kwargs, a list's items, or the
// children of a MultiOutput, ListOf or Repeated.
using PatternPath = std::vector<int>;

// An expression (through the PatternPtr that holds it, so it can be replaced) or a literal slot.
struct Slot {
    PatternPtr *expr = nullptr;
    PatternValue *value = nullptr;
};

Slot enter(PatternValue &v)
{
    return v.kind == PatternValue::Kind::Expr ? Slot{&v.expr, nullptr} : Slot{nullptr, &v};
}

Slot step(Slot s, int i)
{
    if (s.value)
        return s.value->isContainer() && i < int(s.value->items.size()) ? enter(s.value->items[size_t(i)]) : Slot{};
    if (!s.expr || !*s.expr)
        return {};
    PatternExpr &e = **s.expr;
    if (e.kind == PatternExpr::Kind::Call) {
        if (i < int(e.args.size()))
            return enter(e.args[size_t(i)]);
        i -= int(e.args.size());
        return i < int(e.kwargs.size()) ? enter(e.kwargs[size_t(i)].second) : Slot{};
    }
    return i < int(e.children.size()) && e.children[size_t(i)] ? Slot{&e.children[size_t(i)], nullptr} : Slot{};
}

Slot resolve(PatternPtr &root, const PatternPath &path)
{
    Slot s{&root, nullptr};
    for (int i : path)
        s = step(s, i);
    return s;
}

bool findPath(const PatternExpr &e, const void *target, PatternPath &path);

bool findPathInValue(const PatternValue &v, const void *target, PatternPath &path)
{
    if (&v == target)
        return true;
    if (v.kind == PatternValue::Kind::Expr)
        return v.expr && findPath(*v.expr, target, path);
    for (size_t i = 0; i < v.items.size(); ++i) {
        path.push_back(int(i));
        if (findPathInValue(v.items[i], target, path))
            return true;
        path.pop_back();
    }
    return false;
}

// Depth-first: patterns are bounded by kMaxPatternDepth when registered.
bool findPath(const PatternExpr &e, const void *target, PatternPath &path)
{
    if (&e == target)
        return true;
    if (e.kind == PatternExpr::Kind::Call) {
        for (size_t i = 0; i < e.args.size() + e.kwargs.size(); ++i) {
            path.push_back(int(i));
            if (findPathInValue(i < e.args.size() ? e.args[i] : e.kwargs[i - e.args.size()].second, target, path))
                return true;
            path.pop_back();
        }
        return false;
    }
    for (size_t i = 0; i < e.children.size(); ++i) {
        path.push_back(int(i));
        if (e.children[i] && findPath(*e.children[i], target, path))
            return true;
        path.pop_back();
    }
    return false;
}

// A deep copy that keeps shared sub-patterns shared (one KeywordArg used twice stays one object).
using Clones = std::unordered_map<const PatternExpr *, PatternPtr>;

PatternPtr cloneExpr(const PatternPtr &p, Clones &done);

PatternValue cloneValue(const PatternValue &v, Clones &done)
{
    PatternValue c;
    c.kind = v.kind;
    c.literal = v.literal;
    c.expr = v.expr ? cloneExpr(v.expr, done) : nullptr;
    for (const auto &item : v.items)
        c.items.push_back(cloneValue(item, done));
    return c;
}

PatternPtr cloneExpr(const PatternPtr &p, Clones &done)
{
    if (!p)
        return nullptr;
    if (auto it = done.find(p.get()); it != done.end())
        return it->second;
    auto c = std::make_shared<PatternExpr>(*p);
    done[p.get()] = c;
    for (auto &a : c->args)
        a = cloneValue(a, done);
    for (auto &kv : c->kwargs)
        kv.second = cloneValue(kv.second, done);
    for (auto &child : c->children)
        child = cloneExpr(child, done);
    return c;
}

// One change to a pattern, as data: applied to the pattern it was found on, and replayed on every re-traced
// specific pattern of the same shape when the candidates are counted.
struct Edit {
    enum class Op { SetTarget, SetLiteral, Wrap, Unwrap, AddOutput, SetArgs };
    Op op = Op::SetTarget;
    PatternPath path;
    std::string target; // SetTarget, Wrap
    Argument literal; // SetLiteral
    std::vector<Argument> args; // Wrap: the op's arguments after the wrapped one; SetArgs: the call's new literals
    size_t keepArgs = 0; // SetArgs: the pattern's arguments kept before `args`
    Kwargs kwargs; // Wrap
    const Node *output = nullptr; // AddOutput: the graph node the pattern then returns
    HintChange change;
};

bool applyEdit(PatternPtr &root, const Edit &e)
{
    Slot s = resolve(root, e.path);
    switch (e.op) {
    case Edit::Op::SetLiteral:
        if (!s.value || s.value->isContainer())
            return false;
        s.value->literal = e.literal;
        return true;
    case Edit::Op::SetTarget:
        if (!s.expr || (*s.expr)->kind != PatternExpr::Kind::Call)
            return false;
        (*s.expr)->fns = {e.target};
        return true;
    case Edit::Op::Wrap: {
        if (!s.expr)
            return false;
        std::vector<PatternValue> args{PatternValue::of(*s.expr)};
        for (const auto &a : e.args)
            args.push_back(PatternValue::of(a));
        std::vector<std::pair<std::string, PatternValue>> kwargs;
        for (const auto &kv : e.kwargs)
            kwargs.push_back({kv.first, PatternValue::of(kv.second)});
        auto wrapper = std::make_shared<PatternExpr>();
        wrapper->kind = PatternExpr::Kind::Call;
        wrapper->fns = {e.target};
        wrapper->args = std::move(args);
        wrapper->kwargs = std::move(kwargs);
        *s.expr = wrapper;
        return true;
    }
    case Edit::Op::Unwrap: {
        if (!s.expr || (*s.expr)->args.empty() || (*s.expr)->args[0].kind != PatternValue::Kind::Expr)
            return false;
        PatternPtr inner = (*s.expr)->args[0].expr;
        *s.expr = inner;
        return true;
    }
    case Edit::Op::AddOutput: {
        if (!s.expr)
            return false;
        PatternPtr output = *s.expr;
        if (root->kind == PatternExpr::Kind::MultiOutput)
            root->children.push_back(output);
        else
            root = multiOutput({root, output});
        return true;
    }
    case Edit::Op::SetArgs: {
        if (!s.expr || (*s.expr)->args.size() < e.keepArgs)
            return false;
        auto &args = (*s.expr)->args;
        args.resize(e.keepArgs);
        for (const auto &a : e.args)
            args.push_back(PatternValue::of(a));
        return true;
    }
    }
    return false;
}

bool isViewLike(const std::string &target)
{
    return target == "aten.view.default" || target == "aten.reshape.default" || target == "aten._unsafe_view.default"
        || target == "aten.expand.default";
}

bool isCast(const std::string &target)
{
    return target == "prims.convert_element_type.default" || target == "aten._to_copy.default"
        || target.rfind("aten.to.", 0) == 0 || target == "to" || target == "float" || target == "half";
}

// The ops a graph has or lacks without computing anything else: a cast, a layout change, a copy, a no-op slice.
// Only these are offered as an op to add to the pattern or remove from it; any other op would change what it means.
bool isTransparent(const std::string &target)
{
    static const char *const ops[] = {"aten.clone.default", "aten.slice.Tensor", "aten.alias.default",
        "aten.view.default", "aten._unsafe_view.default", "aten.reshape.default", "aten.expand.default",
        "aten.unsqueeze.default", "aten.squeeze.dim", "aten.squeeze.default", "aten.detach.default",
        "aten.contiguous.default", "aten.lift_fresh_copy.default"};
    return isCast(target) || std::find(std::begin(ops), std::end(ops), target) != std::end(ops);
}

// "aten.add.Tensor" -> "aten.add"; a target without an overload is its own packet.
std::string packetOf(const std::string &target)
{
    if (target.rfind("aten.", 0) != 0 && target.rfind("prims.", 0) != 0 && target.rfind("npu.", 0) != 0)
        return target;
    const size_t dot = target.rfind('.');
    return dot == std::string::npos || target.find('.') == dot ? target : target.substr(0, dot);
}

// "aten.reshape.default" -> "reshape", as a search_fn writes it.
std::string shortName(const std::string &target)
{
    const std::string packet = packetOf(target);
    const size_t dot = packet.rfind('.');
    return dot == std::string::npos ? packet : packet.substr(dot + 1);
}

std::string argumentsText(const std::vector<Argument> &args, const Kwargs &kwargs)
{
    std::string out;
    for (const auto &a : args)
        out += (out.empty() ? "" : ", ") + a.toPython();
    for (const auto &kv : kwargs)
        out += (out.empty() ? "" : ", ") + kv.first + "=" + kv.second.toPython();
    return out;
}

bool allLiterals(const std::vector<Argument> &args)
{
    return std::none_of(args.begin(), args.end(), [](const Argument &a) { return a.isNode() || a.isSequence(); });
}

// The node of search_fn's traced graph that the pattern expression at `path` was made from: both are walked from
// the returned value down the same argument indices (fx_to_pattern keeps the graph's argument order).
const Node *searchNodeAt(const Graph &search, const PatternExpr &root, const PatternPath &path)
{
    const Node *output = nullptr;
    for (const auto &n : search.nodes())
        if (n->op() == OpKind::Output)
            output = n.get();
    if (!output || output->args().empty())
        return nullptr;
    Argument value = output->args()[0];
    const PatternExpr *e = &root;
    size_t first = 0;
    if (root.kind == PatternExpr::Kind::MultiOutput) {
        if (path.empty() || !value.isSequence() || size_t(path[0]) >= value.items().size())
            return nullptr;
        value = value.items()[size_t(path[0])];
        e = root.children[size_t(path[0])].get();
        first = 1;
    } else if (value.isSequence() && value.items().size() == 1) {
        value = value.items()[0];
    }
    const Node *at = value.isNode() ? value.node() : nullptr;
    const PatternValue *pv = nullptr;
    for (size_t k = first; k < path.size() && at; ++k) {
        const int i = path[k];
        if (pv && pv->isContainer()) {
            if (!value.isSequence() || size_t(i) >= value.items().size() || size_t(i) >= pv->items.size())
                break;
            pv = &pv->items[size_t(i)];
            value = value.items()[size_t(i)];
        } else if (e && e->kind == PatternExpr::Kind::Call) {
            if (size_t(i) < e->args.size()) {
                if (size_t(i) >= at->args().size())
                    break;
                pv = &e->args[size_t(i)];
                value = at->args()[size_t(i)];
            } else {
                const auto &kv = e->kwargs[size_t(i) - e->args.size()];
                const Argument *a = at->kwarg(kv.first);
                if (!a)
                    break;
                pv = &kv.second;
                value = *a;
            }
        } else {
            break;
        }
        if (pv->kind == PatternValue::Kind::Expr) {
            if (!value.isNode())
                break;
            e = pv->expr.get();
            at = value.node();
            pv = nullptr;
        }
    }
    return at;
}

class HintFinder {
public:
    HintFinder(const PatternEntry &entry, const Graph &graph) : m_entry(entry), m_graph(graph) { }

    // The edits that make `pattern` match at `node`, found one failure at a time; none when no such edits are found.
    // `clones` maps `original`'s expressions to `pattern`'s: the edits name the lines of the original.
    std::optional<std::vector<Edit>> findEdits(
        PatternPtr &pattern, Node *node, const PatternExpr &original, const Clones &clones, bool literalsOnly)
    {
        std::vector<Edit> edits;
        std::set<std::string> tried;
        for (int round = 0; round <= 4; ++round) {
            MatchResult r = m_matcher.match(*pattern, node);
            if (r.ok) {
                nameOutsideUsers(edits, r.match);
                return edits.empty() ? std::nullopt : std::optional(std::move(edits));
            }
            if (!r.failure || round == 4)
                return std::nullopt;
            const MatchFailure &f = *r.failure;
            if (!tried.insert(f.code + "|" + f.patternNode + "|" + f.graphNode).second)
                return std::nullopt; // the same failure again: the edit did not help
            std::optional<Edit> edit = propose(pattern, f, literalsOnly);
            if (!edit || !applyEdit(pattern, *edit))
                return std::nullopt;
            locate(edit->change, f.atExpr, original, clones);
            edits.push_back(std::move(*edit));
        }
        return std::nullopt;
    }

    const PatternMatcher &matcher() const { return m_matcher; }

    // An intermediate returned as a further output, with the users outside the whole match: the failure that
    // proposed it knew only the path down to it, so a sibling inside the match looked like an outside user.
    static void nameOutsideUsers(std::vector<Edit> &edits, const Match &match)
    {
        for (Edit &e : edits) {
            if (e.op != Edit::Op::AddOutput)
                continue;
            std::string users;
            for (const Node *u : e.output->users())
                if (std::find(match.nodes.begin(), match.nodes.end(), u) == match.nodes.end())
                    users += (users.empty() ? "" : ", ") + u->name();
            e.change.what = e.output->name() + " (" + canonicalTarget(e.output->target())
                + ") is also used outside the match by " + users
                + ": return it from search_fn and replace_fn as a further output";
        }
    }

private:
    std::optional<Edit> propose(PatternPtr &root, const MatchFailure &f, bool literalsOnly)
    {
        const void *at = f.atValue ? static_cast<const void *>(f.atValue) : static_cast<const void *>(f.atExpr);
        PatternPath path;
        if (!at || !findPath(*root, at, path))
            return std::nullopt;
        const Node *g = f.graphNode.empty() ? nullptr : m_graph.find(f.graphNode);
        const std::string gTarget = g ? canonicalTarget(g->target()) : std::string();
        Edit e;
        e.path = path;
        if (f.code == "constant_args" && f.atValue && !f.graphValue.isNode()) {
            e.op = Edit::Op::SetLiteral;
            e.literal = f.graphValue;
            e.change.kind = "literal";
            e.change.what = "the graph has " + f.graphValue.toPython() + " where the pattern has the literal "
                + f.expected + " (" + f.graphNode + "): use " + f.graphValue.toPython()
                + ", or make it a search_fn parameter given in scalar_workaround";
            return e;
        }
        const PatternExpr *p = f.atExpr;
        if (literalsOnly || !p || p->kind != PatternExpr::Kind::Call || !g)
            return std::nullopt;
        if (f.code == "multiple_users" && !f.externalUsers.empty()) {
            e.op = Edit::Op::AddOutput;
            e.output = g;
            e.change.kind = "outside_user"; // its words once the match is whole (nameOutsideUsers)
            return e;
        }
        if (f.code == "function_mismatch" || f.code == "args_structure") {
            const std::string wanted = p->fns.empty() ? std::string() : p->fns[0];
            const bool call = g->op() == p->op && g->op() == OpKind::CallFunction && !wanted.empty();
            if (call && p->matchesTarget(gTarget))
                return proposeArguments(path, *p, *g);
            if (call && isViewLike(wanted) && isViewLike(gTarget) && packetOf(wanted) != packetOf(gTarget)) {
                e.op = Edit::Op::SetTarget;
                e.target = gTarget;
                e.change.kind = "view_reshape";
                e.change.what = "use " + shortName(gTarget) + " where the pattern has " + shortName(wanted)
                    + ": the graph calls " + gTarget + " at " + g->name();
                // Inductor's decompositions (fwd_only's) turn these into view: search_fn cannot hold them as written.
                if (shortName(gTarget) == "_unsafe_view" || shortName(gTarget) == "reshape")
                    e.change.what += "; a search_fn traced by fwd_only cannot hold " + shortName(gTarget)
                        + " (Inductor's decompositions make it a view): give register_replacement a trace_fn whose "
                          "decompositions leave it, or match the graph Inductor's decompositions give";
                return e;
            }
            if (call && packetOf(wanted) == packetOf(gTarget)) {
                e.op = Edit::Op::SetTarget;
                e.target = gTarget;
                e.change.kind = "overload";
                e.change.what = "the graph calls the overload " + gTarget + " at " + g->name()
                    + " where the pattern has " + wanted + ": give its arguments as the graph does ("
                    + argumentsText(g->args(), g->kwargs()) + ")";
                return e;
            }
            if (auto wrap = proposeWrap(root, path, *g, gTarget))
                return wrap;
            // The pattern has a cast or layout op the graph does not: its first input matches here.
            if (isTransparent(wanted) && !p->args.empty() && p->args[0].kind == PatternValue::Kind::Expr
                && m_matcher.match(*p->args[0].expr, const_cast<Node *>(g)).ok) {
                e.op = Edit::Op::Unwrap;
                e.change.kind = "remove_op";
                e.change.what = "the graph has no " + wanted + " here (" + g->name() + " is "
                    + (g->op() == OpKind::CallFunction ? gTarget : std::string(opKindName(g->op())))
                    + " and matches its input): remove " + shortName(wanted) + " from search_fn"
                    + (isCast(wanted) ? ", or trace with example inputs of the graph's dtype" : "");
                return e;
            }
        }
        return std::nullopt;
    }

    // The same op with other arguments: the graph passes optional arguments the pattern leaves to their defaults,
    // or the other way round.
    std::optional<Edit> proposeArguments(const PatternPath &path, const PatternExpr &p, const Node &g)
    {
        Edit e;
        e.path = path;
        e.op = Edit::Op::SetArgs;
        e.change.kind = "argument";
        const auto &gargs = g.args();
        if (p.usesPytree() || gargs.size() == p.args.size())
            return std::nullopt;
        if (gargs.size() > p.args.size()) {
            std::vector<Argument> extra(gargs.begin() + long(p.args.size()), gargs.end());
            if (!allLiterals(extra))
                return std::nullopt;
            e.keepArgs = p.args.size();
            e.args = extra;
            // Named as the schema names them (keepdim=True), where fxscope knows the schema.
            const OpSchema *schema = OpSchemaTable::instance().find(canonicalTarget(g.target()));
            std::string named;
            for (size_t i = p.args.size(); i < gargs.size(); ++i)
                named += (named.empty() ? "" : ", ")
                    + (schema && i < schema->arguments.size() ? schema->arguments[i].name + "=" : std::string())
                    + gargs[i].toPython();
            e.change.what = "the graph passes " + g.name() + " (" + canonicalTarget(g.target()) + ") " + named
                + ", which the pattern leaves to its default: pass " + named + " in search_fn too";
            return e;
        }
        for (size_t i = gargs.size(); i < p.args.size(); ++i)
            if (p.args[i].kind == PatternValue::Kind::Expr)
                return std::nullopt;
        e.keepArgs = gargs.size();
        e.change.what = "the graph passes " + g.name() + " (" + canonicalTarget(g.target()) + ") only "
            + std::to_string(gargs.size())
            + " positional arguments (the rest are defaults): leave the pattern's last "
            + std::to_string(p.args.size() - gargs.size()) + " out in search_fn";
        return e;
    }

    // The graph has an op the pattern lacks (a cast, a no-op slice, a clone): the pattern node matches its input.
    std::optional<Edit> proposeWrap(PatternPtr &root, const PatternPath &path, const Node &g, const std::string &target)
    {
        if (g.op() != OpKind::CallFunction || !isTransparent(target) || g.args().empty() || !g.args()[0].isNode())
            return std::nullopt;
        std::vector<Argument> rest(g.args().begin() + 1, g.args().end());
        std::vector<Argument> kwargValues;
        for (const auto &kv : g.kwargs())
            kwargValues.push_back(kv.second);
        if (!allLiterals(rest) || !allLiterals(kwargValues))
            return std::nullopt;
        Edit e;
        e.op = Edit::Op::Wrap;
        e.path = path;
        e.target = target;
        e.args = rest;
        e.kwargs = g.kwargs();
        PatternPtr trial = cloneExprOf(root, path);
        if (!trial || !applyEdit(trial, Edit{Edit::Op::Wrap, {}, e.target, {}, e.args, 0, e.kwargs, {}})
            || !m_matcher.match(*trial, const_cast<Node *>(&g)).ok)
            return std::nullopt;
        const std::string call = shortName(target) + "(" + argumentsText(rest, g.kwargs()) + ")";
        if (isCast(target)) {
            e.change.kind = "cast";
            e.change.what = "the graph casts this line's value at " + g.name() + " (" + target + ", "
                + argumentsText(rest, g.kwargs()) + ") where the pattern has no cast: add it to search_fn, or trace "
                  "with example inputs of the graph's dtype";
        } else if (target == "aten.slice.Tensor" && rest.size() == 3 && rest[1].toPython() == "0"
            && rest[2].toPython() == "9223372036854775807") {
            e.change.kind = "noop_slice";
            e.change.what = "the graph has a no-op slice of this line's value at " + g.name() + " (" + target + ", "
                + argumentsText(rest, {}) + "): Inductor's trace of search_fn drops no-op slices, so remove it from "
                  "the graph before the pass (Inductor's post-grad remove_noop_ops does)";
        } else {
            e.change.kind = "extra_op";
            e.change.what = "the graph has " + target + "(" + g.args()[0].toPython()
                + (rest.empty() && g.kwargs().empty() ? "" : ", " + argumentsText(rest, g.kwargs())) + ") at "
                + g.name() + " where the pattern has none: add " + call + " to this line's value in search_fn";
        }
        return e;
    }

    static PatternPtr cloneExprOf(PatternPtr &root, const PatternPath &path)
    {
        Slot s = resolve(root, path);
        if (!s.expr)
            return nullptr;
        Clones done;
        return cloneExpr(*s.expr, done);
    }

    // Where in the user's file: the search graph's node for the original pattern expression.
    void locate(HintChange &change, const PatternExpr *at, const PatternExpr &root, const Clones &clones)
    {
        if (!m_entry.searchGraph || !at)
            return;
        const PatternExpr *original = nullptr;
        for (const auto &kv : clones)
            if (kv.second.get() == at)
                original = kv.first;
        PatternPath path;
        if (!original || !findPath(root, original, path))
            return;
        const Node *n = searchNodeAt(*m_entry.searchGraph, root, path);
        if (!n || !n->meta().source)
            return;
        change.file = n->meta().source->file;
        change.line = n->meta().source->line;
        change.code = n->meta().source->code;
    }

    const PatternEntry &m_entry;
    const Graph &m_graph;
    PatternMatcher m_matcher;
};

size_t failureDepth(const Verdict &v)
{
    return v.failure ? v.failure->path.size() : 0;
}

Node *firstOutput(const Match &m)
{
    for (Node *o : m.outputs)
        if (o)
            return o;
    return nullptr;
}

void hintsFor(PatternReport &report, const PatternEntry &entry, const Graph &graph, const NearMissOptions &options)
{
    std::vector<Node *> anchors;
    std::vector<std::pair<size_t, Node *>> generic, specific; // (failure depth, anchor)
    for (const Verdict &v : report.candidates) {
        Node *n = graph.find(v.anchor);
        if (!n || std::find(anchors.begin(), anchors.end(), n) != anchors.end())
            continue;
        anchors.push_back(n);
        if (v.stage == MatchStage::Generic && v.failure)
            generic.push_back({failureDepth(v), n});
        else if (v.stage == MatchStage::Specific && v.failure && v.failure->code == "constant_args")
            specific.push_back({failureDepth(v), n});
    }
    const PatternExpr *root = entry.pattern ? entry.pattern->root() : nullptr;
    if (anchors.empty() && root && root->isCall() && !root->fns.empty()) {
        // No anchor has the root's op: the graph's nodes with another view op or overload of it are tried.
        for (const auto &n : graph.nodes()) {
            if (anchors.size() >= options.maxAnchorsCounted)
                break;
            const std::string target = canonicalTarget(n->target());
            if (n->op() != OpKind::CallFunction || root->matchesTarget(target))
                continue;
            const std::string &want = root->fns[0];
            if ((isViewLike(want) && isViewLike(target)) || packetOf(want) == packetOf(target)) {
                anchors.push_back(n.get());
                generic.push_back({0, n.get()});
            }
        }
    }
    if (anchors.size() > options.maxAnchorsCounted)
        anchors.resize(options.maxAnchorsCounted);
    auto deepestFirst = [](auto &list) {
        std::stable_sort(list.begin(), list.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    };
    deepestFirst(generic);
    deepestFirst(specific);

    HintFinder finder(entry, graph);
    std::set<std::string> seen;
    auto signature = [](const std::vector<Edit> &edits) {
        std::string s;
        for (const auto &e : edits) {
            s += std::to_string(int(e.op)) + ":" + e.target + ":" + e.literal.toPython() + ":";
            for (int i : e.path)
                s += std::to_string(i) + ".";
            s += "|";
        }
        return s;
    };
    auto keep = [&](NearMissHint hint, const std::vector<Edit> &edits) {
        for (const auto &e : edits)
            hint.changes.push_back(e.change);
        if (hint.wouldMatch > 0 && (!hint.checked || !hint.acceptedAnchors.empty()))
            report.hints.push_back(std::move(hint));
    };
    // A match of the changed pattern faces the user's extra_check, as it would in torch: userCheck where the
    // engine's extraCheck is more than the user's (the torch host's is all of check_fn).
    const ExtraCheck &check = entry.userCheck ? entry.userCheck : entry.extraCheck;
    auto count = [&](NearMissHint &hint, const Node *anchor, const Match &match) {
        ++hint.wouldMatch;
        hint.matchedAnchors.push_back(anchor->name());
        if (!check)
            return;
        hint.checked = true;
        const CheckVerdict v = check(match);
        if (v.ok && v.raised.empty())
            hint.acceptedAnchors.push_back(anchor->name());
        else if (hint.refusal.empty())
            hint.refusal = !v.raised.empty() ? v.raised : v.trace.empty() ? "it returned False" : v.trace.back();
    };

    size_t tried = 0;
    for (const auto &[depth, node] : generic) {
        if (report.hints.size() >= options.maxHintsPerPattern || tried++ >= options.maxCandidatesTried)
            break;
        Clones clones;
        PatternPtr work = cloneExpr(entry.pattern, clones);
        auto edits = finder.findEdits(work, node, *entry.pattern, clones, false);
        if (!edits || !seen.insert("g" + signature(*edits)).second)
            continue;
        NearMissHint hint;
        hint.stage = "generic";
        hint.foundAt = node->name();
        hint.candidates = anchors.size();
        for (Node *a : anchors)
            if (MatchResult r = finder.matcher().match(*work, a); r.ok)
                count(hint, a, r.match);
        keep(std::move(hint), *edits);
    }

    // The re-trace's literals: each candidate's specific pattern is traced with its own values, so the edits
    // (literal slots, which keep the pattern's shape) are replayed on each candidate's re-trace.
    // The candidate's specific pattern and the node it is matched at (the generic match's output); none when the
    // generic pattern does not match there or the re-trace fails.
    auto specificAt = [&](Node *anchor) -> std::pair<PatternPtr, Node *> {
        MatchResult g = finder.matcher().match(*entry.pattern, anchor);
        Node *output = g.ok ? firstOutput(g.match) : nullptr;
        if (!output)
            return {};
        if (!entry.retrace)
            return {entry.specificPattern, output};
        Retrace r = entry.retrace(g.match);
        return {r.error.empty() && r.raised.empty() ? r.pattern : nullptr, output};
    };
    tried = 0;
    const size_t maxRetraces = 64;
    for (const auto &[depth, node] : specific) {
        if (report.hints.size() >= options.maxHintsPerPattern || tried++ >= 8)
            break;
        auto [pattern, output] = specificAt(node);
        if (!pattern)
            continue;
        Clones clones;
        PatternPtr work = cloneExpr(pattern, clones);
        auto edits = finder.findEdits(work, output, *pattern, clones, true);
        if (!edits || !seen.insert("s" + signature(*edits)).second)
            continue;
        NearMissHint hint;
        hint.stage = "specific";
        hint.foundAt = node->name();
        size_t counted = 0;
        for (Node *a : anchors) {
            if (counted++ >= maxRetraces)
                break;
            ++hint.candidates;
            auto [each, out] = specificAt(a);
            if (!each)
                continue;
            Clones c;
            PatternPtr edited = cloneExpr(each, c);
            bool applied = true;
            for (const auto &e : *edits)
                applied = applied && applyEdit(edited, e);
            if (!applied)
                continue;
            if (MatchResult r = finder.matcher().match(*edited, out); r.ok)
                count(hint, a, r.match);
        }
        keep(std::move(hint), *edits);
    }
}

} // namespace

void addNearMissHints(MatchReport &report, const PatternRegistry &registry, const Graph &graph,
    const NearMissOptions &options)
{
    for (PatternReport &p : report.patterns) {
        const PatternEntry *entry = registry.find(p.name);
        if (!entry || !entry->pattern || (p.acceptedCount() > 0 && p.acceptedCount() == p.candidates.size()))
            continue;
        hintsFor(p, *entry, graph, options);
    }
}

} // namespace fxs
