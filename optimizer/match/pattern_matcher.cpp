#include "pattern_matcher.h"

#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace fxs {

const Argument *Match::kwarg(std::string_view name) const
{
    for (const auto &kv : kwargs)
        if (kv.first == name)
            return &kv.second;
    return nullptr;
}

const Node *Match::anchor() const
{
    if (!outputs.empty() && outputs.front())
        return outputs.front();
    return nodes.empty() ? nullptr : nodes.back();
}

void Match::keepBindingsOf(const Match &generic)
{
    for (const auto &kv : generic.kwargs)
        if (!kwarg(kv.first))
            kwargs.push_back(kv);
}

bool pythonEquals(const Argument &a, const Argument &b)
{
    using K = Argument::Kind;
    auto numeric = [](K k) { return k == K::Bool || k == K::Int || k == K::Float; };
    if (numeric(a.kind()) && numeric(b.kind())) {
        if (a.kind() != K::Float && b.kind() != K::Float)
            return a.toInt() == b.toInt();
        return a.toDouble() == b.toDouble(); // nan != nan, as in Python
    }
    if (a.kind() != b.kind())
        return false;
    switch (a.kind()) {
    case K::None:
    case K::Ellipsis: return true;
    case K::NodeRef: return a.node() == b.node();
    case K::List:
    case K::Tuple:
    case K::Slice:
    case K::Dict: {
        if (a.items().size() != b.items().size() || a.keys() != b.keys())
            return false;
        for (size_t i = 0; i < a.items().size(); ++i)
            if (!pythonEquals(a.items()[i], b.items()[i]))
                return false;
        return true;
    }
    default: return a.text() == b.text();
    }
}

int patternDepth(const PatternExpr &root)
{
    // Iterative DFS with per-pattern memo of depths.
    std::unordered_map<const PatternExpr *, int> depth;
    std::vector<std::pair<const PatternExpr *, bool>> stack{{&root, false}};
    auto children = [](const PatternExpr *p) {
        std::vector<const PatternExpr *> out;
        std::vector<const PatternValue *> values;
        for (const auto &a : p->args)
            values.push_back(&a);
        for (const auto &kv : p->kwargs)
            values.push_back(&kv.second);
        while (!values.empty()) {
            const PatternValue *v = values.back();
            values.pop_back();
            if (v->kind == PatternValue::Kind::Expr && v->expr)
                out.push_back(v->expr.get());
            for (const auto &item : v->items)
                values.push_back(&item);
        }
        for (const auto &c : p->children)
            if (c)
                out.push_back(c.get());
        return out;
    };
    while (!stack.empty()) {
        auto [p, expanded] = stack.back();
        stack.pop_back();
        if (depth.count(p))
            continue;
        auto kids = children(p);
        if (!expanded) {
            stack.push_back({p, true});
            for (const PatternExpr *k : kids)
                if (!depth.count(k))
                    stack.push_back({k, false});
            continue;
        }
        int d = 0;
        for (const PatternExpr *k : kids) {
            auto it = depth.find(k);
            d = std::max(d, it == depth.end() ? 0 : it->second);
        }
        depth[p] = d + 1;
    }
    return depth[&root];
}

namespace {

std::string valueText(const Argument &v)
{
    if (v.isNode())
        return v.node()->name();
    return v.toPython();
}

struct Binding {
    bool matched = false;
    Argument value;
};

// One step of the path from the anchor, rendered only when a failure is reported: most steps of a walk are never
// shown, and rendering a literal (formatDouble) for each was a third of the matching time on HRNet.
struct PathStep {
    std::string text; // a fixed step ("mul_3", "[2] add_1", "repeat relu")
    const std::string *slot = nullptr; // else: the argument slot and the value found there (alive on the stack)
    const Argument *value = nullptr;

    std::string render() const { return slot ? *slot + " " + valueText(*value) : text; }
};

std::vector<std::string> renderPath(const std::vector<PathStep> &path)
{
    std::vector<std::string> out;
    out.reserve(path.size());
    for (const PathStep &step : path)
        out.push_back(step.render());
    return out;
}

// Inductor's MatchContext: outputs, the pattern->node memo and the exclusive node set, plus the path stack.
class Context {
public:
    Context(const OpSchemaTable &schemas, std::vector<const PatternExpr *> outputs, PatternMatcher::ReprCache &reprs)
        : m_schemas(schemas), m_outputs(std::move(outputs)), m_reprs(reprs)
    {
    }

    MatchResult match(const PatternExpr &p, const Argument &value);

    std::unordered_map<const PatternExpr *, Binding> memo;
    std::vector<Node *> exclusive;
    std::vector<PathStep> path; // from the anchor down
    std::vector<Node *> parents; // graph nodes on the path, for naming external users

    const std::vector<const PatternExpr *> &outputs() const { return m_outputs; }

private:
    MatchResult matchImpl(const PatternExpr &p, const Argument &value);
    MatchResult matchCall(const PatternExpr &p, const Argument &value);
    MatchResult matchListOf(const PatternExpr &p, const Argument &value);
    MatchResult matchMultiOutput(const PatternExpr &p, const Argument &value);
    MatchResult matchRepeated(const PatternExpr &p, const Argument &value);
    MatchResult matchFromAnchors(const PatternExpr &p);
    std::vector<Node *> findAnchorNodes(const PatternExpr &p, std::set<Node *> &searched);
    std::unordered_map<const PatternExpr *, Binding> multiUserBindings() const;

    MatchResult fail(const PatternExpr &p, std::string code, std::string message, std::string reason,
        const std::string &graphNode = {}, std::string expected = {}, std::string actual = {})
    {
        MatchResult r;
        r.failure = std::make_unique<MatchFailure>();
        r.failure->code = std::move(code);
        r.failure->message = std::move(message);
        r.failure->reason = std::move(reason);
        r.failure->patternNode = m_reprs.get(p).first;
        r.failure->atExpr = &p;
        r.failure->graphNode = graphNode;
        r.failure->expected = std::move(expected);
        r.failure->actual = std::move(actual);
        r.failure->path = renderPath(path);
        return r;
    }

    // A failure whose Inductor text ends with the pattern's full repr (shared, not copied).
    MatchResult failWithRepr(const PatternExpr &p, std::string code, std::string messageHead, std::string reason,
        const std::string &graphNode = {}, std::string expected = {}, std::string actual = {})
    {
        MatchResult r = fail(p, std::move(code), std::move(messageHead), std::move(reason), graphNode,
            std::move(expected), std::move(actual));
        r.failure->messagePattern = m_reprs.get(p).second;
        return r;
    }

    const OpSchemaTable &m_schemas;
    std::vector<const PatternExpr *> m_outputs;
    PatternMatcher::ReprCache &m_reprs;
};

// Match.extend: merge, failing (raised, as in Inductor) when one kwarg name is bound to two values.
bool extend(Match &into, Match &&other, MatchFailure &failure)
{
    if (!into.kwargs.empty()) {
        for (const auto &kv : other.kwargs) {
            const Argument *existing = into.kwarg(kv.first);
            if (existing && !pythonEquals(*existing, kv.second)) {
                failure.code = "kwarg mismatch";
                failure.message = "kwarg mismatch: " + kv.first;
                failure.reason
                    = "'" + kv.first + "' is bound to " + valueText(*existing) + " and to " + valueText(kv.second);
                failure.expected = valueText(*existing);
                failure.actual = valueText(kv.second);
                failure.raised = true;
                return false;
            }
        }
    }
    into.args.insert(
        into.args.end(), std::make_move_iterator(other.args.begin()), std::make_move_iterator(other.args.end()));
    into.nodes.insert(into.nodes.end(), other.nodes.begin(), other.nodes.end());
    for (auto &kv : other.kwargs) {
        bool replaced = false;
        for (auto &mine : into.kwargs)
            if (mine.first == kv.first) {
                mine.second = kv.second;
                replaced = true;
            }
        if (!replaced)
            into.kwargs.push_back(std::move(kv));
    }
    return true;
}

void bundle(Match &m)
{
    if (!m.args.empty())
        m.args = {Argument::tuple(std::move(m.args))};
}

MatchResult Context::match(const PatternExpr &p, const Argument &value)
{
    auto it = memo.find(&p);
    if (it != memo.end()) {
        if (it->second.matched && pythonEquals(it->second.value, value)) {
            MatchResult r;
            r.ok = true;
            return r;
        }
        std::string before = it->second.matched ? valueText(it->second.value) : "None (it failed there)";
        return fail(p, "repeated pattern differs", "repeated pattern differs",
            "the same sub-pattern was already bound to " + before + ", here it meets " + valueText(value),
            valueText(value), before, valueText(value));
    }
    MatchResult r = matchImpl(p, value);
    Binding b;
    b.matched = r.ok;
    if (r.ok)
        b.value = value;
    memo[&p] = std::move(b);
    return r;
}

MatchResult Context::matchImpl(const PatternExpr &p, const Argument &value)
{
    MatchResult r;
    switch (p.kind) {
    case PatternExpr::Kind::Arg:
        r.ok = true;
        r.match.args.push_back(value);
        return r;
    case PatternExpr::Kind::Ignored: r.ok = true; return r;
    case PatternExpr::Kind::KeywordArg:
        r.ok = true;
        r.match.kwargs.push_back({p.name, value});
        return r;
    case PatternExpr::Kind::ExclusiveKeywordArg:
        if (value.isNode()) {
            if (std::find(exclusive.begin(), exclusive.end(), value.node()) != exclusive.end())
                return fail(p, "exclusive arg appears twice", "exclusive arg appears twice",
                    value.node()->name() + " is already bound to another exclusive argument", value.node()->name());
            exclusive.push_back(value.node());
        }
        r.ok = true;
        r.match.kwargs.push_back({p.name, value});
        return r;
    case PatternExpr::Kind::Call:
    case PatternExpr::Kind::CallVarArgs: return matchCall(p, value);
    case PatternExpr::Kind::ListOf: return matchListOf(p, value);
    case PatternExpr::Kind::MultiOutput: return matchMultiOutput(p, value);
    case PatternExpr::Kind::Repeated: return matchRepeated(p, value);
    }
    return r;
}

// Flattening as _TargetArgsExpr.flatten: (len(args), *kwarg keys) for flat patterns, a pytree spec with
// list/tuple unified when the pattern holds containers.
struct Flat {
    std::vector<const Argument *> items;
    std::vector<std::string> slots;
    std::string spec;
};

void flattenArgument(const Argument &a, const std::string &slot, Flat &out)
{
    if (a.isSequence()) {
        out.spec += "L[";
        for (size_t i = 0; i < a.items().size(); ++i) {
            if (i)
                out.spec += ',';
            flattenArgument(a.items()[i], slot + "[" + std::to_string(i) + "]", out);
        }
        out.spec += ']';
    } else if (a.kind() == Argument::Kind::Dict) {
        out.spec += "D{";
        for (const auto &k : a.keys())
            out.spec += k + ";";
        out.spec += "}[";
        for (size_t i = 0; i < a.items().size(); ++i) {
            if (i)
                out.spec += ',';
            flattenArgument(a.items()[i], slot + "[" + a.keys()[i] + "]", out);
        }
        out.spec += ']';
    } else {
        out.spec += '*';
        out.items.push_back(&a);
        out.slots.push_back(slot);
    }
}

Flat flattenNode(
    const std::vector<Argument> &args, const std::vector<std::pair<std::string, const Argument *>> &kwargs, bool pytree)
{
    Flat f;
    if (!pytree) {
        f.spec = "(" + std::to_string(args.size());
        for (size_t i = 0; i < args.size(); ++i) {
            f.items.push_back(&args[i]);
            f.slots.push_back("args[" + std::to_string(i) + "]");
        }
        for (const auto &kv : kwargs) {
            f.spec += ", '" + kv.first + "'";
            f.items.push_back(kv.second);
            f.slots.push_back(kv.first);
        }
        f.spec += ")";
        return f;
    }
    f.spec = "L[L[";
    for (size_t i = 0; i < args.size(); ++i) {
        if (i)
            f.spec += ',';
        flattenArgument(args[i], "args[" + std::to_string(i) + "]", f);
    }
    f.spec += "],D{";
    for (const auto &kv : kwargs)
        f.spec += kv.first + ";";
    f.spec += "}[";
    for (size_t i = 0; i < kwargs.size(); ++i) {
        if (i)
            f.spec += ',';
        flattenArgument(*kwargs[i].second, kwargs[i].first, f);
    }
    f.spec += "]]";
    return f;
}

struct PatternFlat {
    std::vector<const PatternValue *> items;
    std::string spec;
};

void flattenPatternValue(const PatternValue &v, PatternFlat &out)
{
    if (v.isContainer()) {
        out.spec += "L[";
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (i)
                out.spec += ',';
            flattenPatternValue(v.items[i], out);
        }
        out.spec += ']';
    } else {
        out.spec += '*';
        out.items.push_back(&v);
    }
}

PatternFlat flattenPattern(const PatternExpr &p)
{
    PatternFlat f;
    if (!p.usesPytree()) {
        f.spec = "(" + std::to_string(p.args.size());
        for (const auto &a : p.args)
            f.items.push_back(&a);
        for (const auto &kv : p.kwargs) {
            f.spec += ", '" + kv.first + "'";
            f.items.push_back(&kv.second);
        }
        f.spec += ")";
        return f;
    }
    f.spec = "L[L[";
    for (size_t i = 0; i < p.args.size(); ++i) {
        if (i)
            f.spec += ',';
        flattenPatternValue(p.args[i], f);
    }
    f.spec += "],D{";
    for (const auto &kv : p.kwargs)
        f.spec += kv.first + ";";
    f.spec += "}[";
    for (size_t i = 0; i < p.kwargs.size(); ++i) {
        if (i)
            f.spec += ',';
        flattenPatternValue(p.kwargs[i].second, f);
    }
    f.spec += "]]";
    return f;
}

MatchResult Context::matchCall(const PatternExpr &p, const Argument &value)
{
    // Texts for a rejection are built only when rejecting: most calls here fail, and strings were most of the cost.
    auto fnsText = [&] { return p.fns.size() == 1 ? p.fns[0] : "one of " + joinNames(p.fns); };
    if (!value.isNode()) {
        const std::string literal = valueText(value);
        return failWithRepr(p, "function_mismatch", "function_mismatch: node=" + literal + ", pattern=",
            "expected a call to " + fnsText() + ", found the literal " + literal, literal, fnsText(), literal);
    }
    Node *node = value.node();
    std::string target = canonicalTarget(node->target());
    auto mismatchText = [&] { return "function_mismatch: node=" + node->name() + ", pattern="; };
    if (node->op() != p.op || !p.matchesTarget(target))
        return failWithRepr(p, "function_mismatch", mismatchText(),
            "expected " + std::string(opKindName(p.op)) + " " + fnsText() + ", found " + opKindName(node->op()) + " "
                + target + " at " + node->name(),
            node->name(), fnsText(), target);
    if (p.kind == PatternExpr::Kind::Call && node->args().size() != p.args.size())
        return failWithRepr(p, "function_mismatch", mismatchText(),
            node->name() + " passes " + std::to_string(node->args().size())
                + " positional arguments, the pattern expects " + std::to_string(p.args.size()),
            node->name(), std::to_string(p.args.size()) + " positional args",
            std::to_string(node->args().size()) + " positional args");
    bool isOutput = std::find(m_outputs.begin(), m_outputs.end(), &p) != m_outputs.end();
    if (!isOutput && p.users != PatternExpr::kMultiple && int(node->users().size()) != p.users) {
        MatchResult r = failWithRepr(p, "multiple_users", "multiple_users ", {}, node->name(),
            std::to_string(p.users) + " user" + (p.users == 1 ? "" : "s"),
            std::to_string(node->users().size()) + " users");
        Node *parent = parents.empty() ? nullptr : parents.back();
        std::vector<std::string> all;
        for (Node *u : node->users()) {
            all.push_back(u->name());
            if (u != parent)
                r.failure->externalUsers.push_back(u->name());
        }
        r.failure->reason = node->name() + " is an intermediate node of the match with "
            + std::to_string(node->users().size()) + " users (" + joinNames(all) + ") but the traced pattern has "
            + std::to_string(p.users) + "; used outside the match by: " + joinNames(r.failure->externalUsers);
        return r;
    }
    MatchResult r;
    if (p.kind == PatternExpr::Kind::CallVarArgs) {
        r.ok = true;
        r.match.args = node->args();
        r.match.kwargs = node->kwargs();
        r.match.nodes.push_back(node);
        return r;
    }

    // kwargs: filtered to the pattern's keys; normalised by the schema only when the node passes fewer.
    std::vector<Argument> normalizedArgs;
    Kwargs normalizedKwargs;
    const std::vector<Argument> *nodeArgs = &node->args();
    std::vector<std::pair<std::string, const Argument *>> kwargs;
    auto wanted = [&](const std::string &key) {
        for (const auto &kv : p.kwargs)
            if (kv.first == key)
                return true;
        return false;
    };
    if (node->kwargs().size() < p.kwargs.size()) {
        const OpSchema *schema = m_schemas.find(target);
        auto normalize = [&]() -> bool {
            if (!schema || node->args().size() > schema->arguments.size())
                return false;
            for (const auto &kv : node->kwargs()) {
                bool known = false;
                for (const auto &a : schema->arguments)
                    known = known || a.name == kv.first;
                if (!known)
                    return false;
            }
            for (size_t i = 0; i < schema->arguments.size(); ++i) {
                const SchemaArgument &a = schema->arguments[i];
                if (i < node->args().size()) {
                    if (a.kwargOnly || node->kwarg(a.name))
                        return false;
                    normalizedArgs.push_back(node->args()[i]);
                } else if (const Argument *k = node->kwarg(a.name)) {
                    normalizedKwargs.push_back({a.name, *k});
                } else if (a.defaultValue) {
                    normalizedKwargs.push_back({a.name, *a.defaultValue});
                } else {
                    return false;
                }
            }
            return true;
        };
        if (!normalize())
            return failWithRepr(p, "function_mismatch", mismatchText(),
                schema ? "the arguments of " + node->name() + " do not bind to the schema " + schema->text
                       : node->name() + " passes fewer kwargs than the pattern names and fxscope has no schema for "
                        + target + " to normalise them",
                node->name());
        if (normalizedArgs.size() != p.args.size() || normalizedKwargs.size() < p.kwargs.size())
            return failWithRepr(p, "function_mismatch", mismatchText(),
                "after normalising by the schema " + node->name() + " has " + std::to_string(normalizedArgs.size())
                    + " positional and " + std::to_string(normalizedKwargs.size())
                    + " keyword arguments; the pattern has " + std::to_string(p.args.size()) + " and "
                    + std::to_string(p.kwargs.size()),
                node->name());
        nodeArgs = &normalizedArgs;
        for (const auto &kv : normalizedKwargs)
            if (wanted(kv.first))
                kwargs.push_back({kv.first, &kv.second});
    } else {
        for (const auto &kv : node->kwargs())
            if (wanted(kv.first))
                kwargs.push_back({kv.first, &kv.second});
    }

    const bool pytree = p.usesPytree();
    Flat flat = flattenNode(*nodeArgs, kwargs, pytree);
    PatternFlat pflat = flattenPattern(p);
    if (flat.spec != pflat.spec)
        return fail(p, "args_structure", "args_structure " + flat.spec + " " + pflat.spec,
            "the arguments of " + node->name() + " have the structure " + flat.spec + ", the pattern's have "
                + pflat.spec,
            node->name(), pflat.spec, flat.spec);

    r.ok = true;
    for (size_t i = 0; i < pflat.items.size(); ++i) {
        const PatternValue &pv = *pflat.items[i];
        const Argument &child = *flat.items[i];
        if (pv.kind == PatternValue::Kind::Expr) {
            path.push_back({{}, &flat.slots[i], &child});
            parents.push_back(node);
            MatchResult c = match(*pv.expr, child);
            parents.pop_back();
            path.pop_back();
            if (!c.ok)
                return c;
            MatchFailure raised;
            if (!extend(r.match, std::move(c.match), raised)) {
                raised.patternNode = m_reprs.get(p).first;
                raised.graphNode = node->name();
                raised.path = renderPath(path);
                MatchResult f;
                f.failure = std::make_unique<MatchFailure>(std::move(raised));
                return f;
            }
        } else if (child.isNode() || !pythonEquals(child, pv.literal)) {
            path.push_back({{}, &flat.slots[i], &child});
            const std::string found = valueText(child), wanted = pv.literal.toPython();
            MatchResult f = fail(p, "constant_args", "constant_args: " + node->name() + " " + found + "!=" + wanted,
                node->name() + "." + flat.slots[i] + " is " + found + (child.isNode() ? " (a node)" : "")
                    + ", the pattern has the literal " + wanted,
                node->name(), wanted, found);
            f.failure->atValue = &pv;
            f.failure->graphValue = child;
            path.pop_back();
            return f;
        }
    }
    r.match.nodes.push_back(node);
    return r;
}

std::unordered_map<const PatternExpr *, Binding> Context::multiUserBindings() const
{
    std::unordered_map<const PatternExpr *, Binding> out;
    for (const auto &kv : memo)
        if (kv.first->hasMultipleUsers() && kv.second.matched)
            out.insert(kv);
    return out;
}

MatchResult Context::matchListOf(const PatternExpr &p, const Argument &value)
{
    if (!value.isSequence() || value.items().empty())
        return fail(
            p, "non_list", "non_list", "expected a non-empty list, found " + valueText(value), valueText(value));
    MatchResult r;
    auto seed = multiUserBindings();
    bool matched = false;
    for (size_t i = 0; i < value.items().size(); ++i) {
        Context child(m_schemas, m_outputs, m_reprs);
        child.memo = seed;
        child.path = path;
        child.path.push_back({"[" + std::to_string(i) + "] " + valueText(value.items()[i])});
        child.parents = parents;
        MatchResult c = child.match(*p.children[0], value.items()[i]);
        seed = child.multiUserBindings();
        if (!c.ok) {
            if (c.failure->raised)
                return c;
            if (!p.partial) {
                c.failure->message = "list[" + std::to_string(i) + "]: " + c.failure->message;
                c.failure->reason = "list element " + std::to_string(i) + ": " + c.failure->reason;
                return c;
            }
            continue;
        }
        matched = true;
        bundle(c.match);
        MatchFailure raised;
        if (!extend(r.match, std::move(c.match), raised)) {
            MatchResult f;
            f.failure = std::make_unique<MatchFailure>(std::move(raised));
            return f;
        }
    }
    if (!matched)
        return fail(p, "list", "list: no_match", "no element of the list matched", valueText(value));
    r.ok = true;
    bundle(r.match);
    return r;
}

std::vector<Node *> Context::findAnchorNodes(const PatternExpr &p, std::set<Node *> &searched)
{
    std::vector<Node *> out;
    auto it = memo.find(&p);
    if (it != memo.end()) {
        if (it->second.matched && it->second.value.isNode())
            out.push_back(it->second.value.node());
        return out;
    }
    if (!p.isCall())
        return out;
    PatternFlat flat = flattenPattern(p);
    for (const PatternValue *v : flat.items) {
        if (v->kind != PatternValue::Kind::Expr)
            continue;
        for (Node *other : findAnchorNodes(*v->expr, searched))
            for (Node *user : other->users())
                if (!searched.count(user) && user->op() == p.op && p.matchesTarget(canonicalTarget(user->target()))) {
                    out.push_back(user);
                    searched.insert(user);
                }
    }
    return out;
}

MatchResult Context::matchFromAnchors(const PatternExpr &p)
{
    auto prior = memo;
    std::set<Node *> searched;
    MatchResult last = fail(p, "no anchor found", "no anchor found",
        "no user of an already matched node is a candidate for " + m_reprs.get(p).first);
    for (Node *node : findAnchorNodes(p, searched)) {
        last = match(p, Argument::ofNode(node));
        if (last.ok || last.failure->raised)
            return last;
        memo = prior;
    }
    return last;
}

MatchResult Context::matchMultiOutput(const PatternExpr &p, const Argument &value)
{
    MatchResult r = match(*p.children[0], value);
    if (!r.ok)
        return r;
    for (size_t i = 1; i < p.children.size(); ++i) {
        if (!p.children[i])
            continue;
        MatchResult c = matchFromAnchors(*p.children[i]);
        if (!c.ok) {
            c.failure->reason = "output " + std::to_string(i) + ": " + c.failure->reason;
            return c;
        }
        MatchFailure raised;
        if (!extend(r.match, std::move(c.match), raised)) {
            MatchResult f;
            f.failure = std::make_unique<MatchFailure>(std::move(raised));
            return f;
        }
    }
    return r;
}

MatchResult Context::matchRepeated(const PatternExpr &p, const Argument &value)
{
    const PatternExpr &inner = *p.children[0];
    MatchResult r = match(inner, value);
    if (!r.ok)
        return r;
    memo.erase(&inner);
    std::set<Node *> searched;
    if (value.isNode())
        searched.insert(value.node());
    for (Node *anchor : findAnchorNodes(inner, searched)) {
        Context fresh(m_schemas, {&p}, m_reprs);
        fresh.path = path;
        fresh.path.push_back({"repeat " + anchor->name()});
        MatchResult c = fresh.match(inner, Argument::ofNode(anchor));
        if (!c.ok) {
            c.failure->reason = "repeated occurrence at " + anchor->name() + ": " + c.failure->reason;
            return c;
        }
        MatchFailure raised;
        if (!extend(r.match, std::move(c.match), raised)) {
            MatchResult f;
            f.failure = std::make_unique<MatchFailure>(std::move(raised));
            return f;
        }
    }
    return r;
}

} // namespace

const std::pair<std::string, std::shared_ptr<const std::string>> &PatternMatcher::ReprCache::get(const PatternExpr &p)
{
    auto it = map.find(&p);
    if (it == map.end())
        it = map.emplace(&p, std::make_pair(p.repr(120), std::make_shared<const std::string>(p.repr()))).first;
    return it->second;
}

MatchResult PatternMatcher::match(const PatternExpr &pattern, Node *node) const
{
    std::vector<const PatternExpr *> outputs;
    if (pattern.kind == PatternExpr::Kind::MultiOutput)
        for (const auto &c : pattern.children)
            outputs.push_back(c.get());
    else
        outputs.push_back(&pattern);
    Context ctx(m_schemas, outputs, m_reprs);
    ctx.path.push_back({node->name()});
    MatchResult r = ctx.match(pattern, Argument::ofNode(node));
    if (r.ok)
        for (const PatternExpr *o : outputs) {
            auto it = o ? ctx.memo.find(o) : ctx.memo.end();
            r.match.outputs.push_back(it != ctx.memo.end() && it->second.matched && it->second.value.isNode()
                    ? it->second.value.node()
                    : nullptr);
        }
    return r;
}

} // namespace fxs
