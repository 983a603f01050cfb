#include "replacement.h"

#include "dead_code.h"
#include "match/pattern_matcher.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fxs {

bool isGetitem(const Node &node)
{
    const std::string &t = node.target();
    return node.op() == OpKind::CallFunction
        && (t == "operator.getitem" || t == "_operator.getitem" || t == "getitem"
            || t == "<built-in function getitem>");
}

Result<Match> matchAt(const PatternEntry &entry, Node *anchor, const PatternMatcher &matcher)
{
    MatchResult generic = matcher.match(*entry.pattern, anchor);
    if (!generic.ok)
        return Error{"", 0, 0,
            "'" + entry.name + "' no longer matches at " + anchor->name() + ": " + generic.takeFailure().messageText()};
    Match m = std::move(generic.match);
    if (entry.specificPattern) {
        Node *output = nullptr;
        for (Node *o : m.outputs)
            if (o) {
                output = o;
                break;
            }
        // As the matcher: a pattern that re-traces per match is checked against this match's own trace.
        PatternPtr specificPattern = entry.specificPattern;
        std::shared_ptr<const Graph> replaceGraph;
        if (entry.retrace) {
            Retrace retraced = entry.retrace(m);
            if (!retraced.raised.empty() || !retraced.error.empty())
                return Error{
                    "", 0, 0, "'" + entry.name + "' re-trace raised at " + anchor->name() + ": " + retraced.error + retraced.raised};
            if (retraced.pattern) // none with a search_fn_pattern
                specificPattern = retraced.pattern;
            replaceGraph = retraced.replace;
        }
        MatchResult specific = output ? matcher.match(*specificPattern, output) : MatchResult{};
        if (!specific.ok)
            return Error{"", 0, 0, "'" + entry.name + "' specific pattern no longer matches at " + anchor->name()};
        specific.match.keepBindingsOf(m);
        if (entry.extraCheck && !entry.extraCheck(specific.match).ok) // check_fn gives it the specific match
            return Error{"", 0, 0, "'" + entry.name + "' extra_check now rejects the match at " + anchor->name()};
        // Inductor then replaces the generic match, its nodes and bindings; the specific one adds what only it
        // binds (the symbols of a re-trace).
        m.keepBindingsOf(specific.match);
        m.replaceGraph = std::move(replaceGraph);
        return m;
    }
    if (entry.extraCheck && !entry.extraCheck(m).ok)
        return Error{"", 0, 0, "'" + entry.name + "' extra_check now rejects the match at " + anchor->name()};
    return m;
}

namespace {

Error replaceError(const PatternEntry &entry, const std::string &what)
{
    return Error{"", 0, 0, "replacing '" + entry.name + "': " + what};
}

// A replacement-graph argument with its placeholder/node references mapped to graph values. A symbolic size is
// the SymInt input check_fn traced it with: the graph value the match bound to that symbol.
Argument mapArgument(const Argument &arg, const std::unordered_map<const Node *, Argument> &env, const Match &match)
{
    if (arg.isNode()) {
        auto it = env.find(arg.node());
        return it == env.end() ? Argument::none() : it->second;
    }
    if (arg.kind() == Argument::Kind::SymExpr)
        if (const Argument *bound = match.kwarg(arg.text()))
            return *bound;
    Argument copy = arg;
    for (size_t i = 0; i < copy.items().size(); ++i)
        copy.items()[i] = mapArgument(arg.items()[i], env, match);
    return copy;
}

} // namespace

Result<ReplacementResult> applyReplacement(
    GraphEditor &editor, const PatternEntry &entry, const Match &match, const std::string &anchor)
{
    Graph &graph = editor.graph();
    if (!entry.replaceGraph && !match.replaceGraph)
        return replaceError(entry, "the pattern has no replacement graph");
    const Graph &repl = match.replaceGraph ? *match.replaceGraph : *entry.replaceGraph;

    // Placeholders take the matched values in argnames order (normalize_args), else by their own names.
    std::unordered_map<const Node *, Argument> env;
    std::vector<Node *> placeholders = repl.placeholders();
    for (size_t i = 0; i < placeholders.size(); ++i) {
        const std::string &name = i < entry.argnames.size() ? entry.argnames[i] : placeholders[i]->name();
        const Argument *bound = match.kwarg(name);
        if (!bound)
            return replaceError(entry, "the match binds no value to the replacement input '" + name + "'");
        env[placeholders[i]] = *bound;
    }

    // The insertion point is the earliest output in graph order (Inductor's `last_node`).
    Node *insertPoint = nullptr;
    for (Node *o : match.outputs)
        if (o && (!insertPoint || Graph::precedes(o, insertPoint)))
            insertPoint = o;
    if (!insertPoint)
        return replaceError(entry, "the match has no output node");

    for (const auto &rn : repl.nodes())
        if (rn->op() != OpKind::Placeholder && rn->op() != OpKind::Output && rn->op() != OpKind::CallFunction
            && rn->op() != OpKind::CallMethod)
            return replaceError(entry,
                std::string("unhandled ") + opKindName(rn->op()) + " node '" + rn->name()
                    + "' in the replacement graph");
    const Node *replOutput = repl.outputNode();
    if (!replOutput || replOutput->args().empty())
        return replaceError(entry, "the replacement graph has no output");
    std::vector<Argument> newOutputs;
    const Argument &outArg = replOutput->args().front();
    if (outArg.isSequence())
        newOutputs = outArg.items();
    else
        newOutputs = {outArg};
    std::vector<Node *> oldOutputs = match.outputs;
    bool pairwise = oldOutputs.size() == newOutputs.size();
    if (!pairwise && oldOutputs.size() != 1)
        return replaceError(entry,
            std::to_string(oldOutputs.size()) + " matched outputs but the replacement returns "
                + std::to_string(newOutputs.size()));

    // Provenance and the carried-over fields (_transfer_meta: stack trace, module stack) from the earliest output.
    Json replaced = Json::array(), origin = Json::array();
    std::unordered_set<std::string> inOrigin;
    for (const Node *n : match.nodes) {
        replaced.push(n->name());
        const Json *earlier = n->meta().extra.isObject() ? n->meta().extra.find(kProvenanceKey) : nullptr;
        const Json *from = earlier && (*earlier)["origin"].isArray() ? &(*earlier)["origin"] : nullptr;
        for (const Json &name : from ? from->items() : std::vector<Json>{Json(n->name())})
            if (inOrigin.insert(name.toString()).second)
                origin.push(name);
    }
    Json provenance = Json::object(
        {{"pattern", entry.name}, {"anchor", anchor}, {"replaced", replaced}, {"origin", std::move(origin)}});
    auto baseMeta = [&]() {
        NodeMeta m;
        m.source = insertPoint->meta().source;
        m.stackTrace = insertPoint->meta().stackTrace;
        m.nnModuleStack = insertPoint->meta().nnModuleStack;
        m.extra = Json::object({{kProvenanceKey, provenance}});
        return m;
    };

    // Replacer: each call is inserted before the insertion point.
    std::vector<Node *> added;
    std::unordered_set<const Node *> addedSet;
    for (const auto &rn : repl.nodes()) {
        if (rn->op() != OpKind::CallFunction && rn->op() != OpKind::CallMethod)
            continue;
        std::vector<Argument> args;
        for (const auto &a : rn->args())
            args.push_back(mapArgument(a, env, match));
        Kwargs kwargs;
        for (const auto &kv : rn->kwargs())
            kwargs.emplace_back(kv.first, mapArgument(kv.second, env, match));
        Node *n = editor.insertBefore(
            insertPoint, rn->op(), graph.uniqueName(rn->name()), rn->target(), std::move(args), std::move(kwargs));
        // _transfer_meta: a replacement traced per match (Inductor traces replace_fn with the match's values) gives
        // each new node its val. One traced once on example inputs has shapes that are not this graph's: unknown
        // stays unknown there, and a node that takes an output's place gets that output's val below.
        NodeMeta meta = baseMeta();
        if (match.replaceGraph)
            meta.val = rn->meta().val;
        editor.setMeta(n, std::move(meta));
        env[rn.get()] = Argument::ofNode(n);
        added.push_back(n);
        addedSet.insert(n);
    }
    for (auto &o : newOutputs)
        o = mapArgument(o, env, match);

    // Nodes are tracked by name (touched) or by address never dereferenced again (erased): erasing frees them.
    std::vector<std::string> touched;
    for (Node *n : added)
        touched.push_back(n->name());
    std::unordered_set<const Node *> erased;
    std::vector<std::string> removed;
    auto eraseNode = [&](Node *n) {
        std::string name = n->name();
        if (editor.erase(n)) {
            erased.insert(n);
            removed.push_back(name);
        }
    };
    auto noteUsers = [&](Node *n) {
        for (Node *u : n->users())
            touched.push_back(u->name());
    };
    // replace(old, new) of replace_with_graph.
    auto replaceOne = [&](Node *old, const Argument &value) -> Status {
        if (value.isNode()) {
            Node *nn = value.node();
            NodeMeta meta = old->meta(); // Inductor copies the old output's meta onto its replacement
            if (nn->meta().val && match.replaceGraph)
                meta.val = nn->meta().val; // ... but val only where the replacement trace gave none
            meta.extra = nn->meta().extra.isObject() ? nn->meta().extra : Json::object();
            if (old->meta().extra.isObject())
                for (const auto &kv : old->meta().extra.members())
                    if (kv.first != kProvenanceKey)
                        meta.extra.set(kv.first, kv.second);
            editor.setMeta(nn, std::move(meta));
        }
        editor.replaceUses(old, value, addedSet);
        if (value.isNode())
            noteUsers(value.node());
        if (old->users().empty())
            eraseNode(old);
        return Ok{};
    };

    for (size_t i = 0; i < oldOutputs.size(); ++i) {
        Node *old = oldOutputs[i];
        // Two outputs of a MultiOutputPattern bound to one node: the first replacement took its uses (and erased
        // it); Inductor's second replace_all_uses_with has nothing left to move.
        if (old && erased.count(old))
            continue;
        if (pairwise) {
            const Argument &value = newOutputs[i];
            if (!old) {
                if (!value.isNone())
                    return replaceError(entry, "an unbound output is replaced by a value");
                continue;
            }
            if (auto st = replaceOne(old, value); !st)
                return st.error();
            continue;
        }
        // One packed output replaced by the whole tuple: getitem users take their element.
        std::vector<Node *> users = old->users();
        for (Node *user : users) {
            if (addedSet.count(user))
                continue;
            if (isGetitem(*user) && user->args().size() == 2 && user->args()[1].kind() == Argument::Kind::Int) {
                int64_t idx = user->args()[1].toInt();
                if (idx < 0)
                    idx += int64_t(newOutputs.size());
                if (idx < 0 || size_t(idx) >= newOutputs.size())
                    return replaceError(entry, "getitem " + user->name() + " indexes past the replacement's outputs");
                if (auto st = replaceOne(user, newOutputs[size_t(idx)]); !st)
                    return st.error();
            } else {
                // PM-main: a direct use takes the tuple itself.
                editor.replaceUses(old, Argument::tuple(newOutputs), addedSet);
                noteUsers(old);
            }
        }
        if (old->users().empty())
            eraseNode(old);
    }

    // match.erase_nodes(): reverse post-order, only nodes left without users.
    for (auto it = match.nodes.rbegin(); it != match.nodes.rend(); ++it) {
        Node *n = *it;
        if (!erased.count(n) && n->users().empty())
            eraseNode(n);
    }
    // PM-main: replacement nodes nobody uses are dropped (last first, so chains go too).
    for (auto it = added.rbegin(); it != added.rend(); ++it)
        if ((*it)->users().empty() && !isImpure(**it) && editor.erase(*it))
            erased.insert(*it);

    std::vector<Node *> live;
    for (const auto &name : touched)
        if (Node *n = graph.find(name))
            live.push_back(n);
    if (auto st = editor.sortIfNeeded(live); !st)
        return replaceError(entry, st.error().message);

    ReplacementResult result;
    result.removed = std::move(removed);
    for (Node *n : added)
        if (!erased.count(n))
            result.added.push_back(n->name());
    std::sort(result.added.begin(), result.added.end(),
        [&](const std::string &a, const std::string &b) { return Graph::precedes(graph.find(a), graph.find(b)); });
    return result;
}

} // namespace fxs
