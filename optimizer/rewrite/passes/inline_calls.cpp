#include "inline_calls.h"

#include "rewrite/replacement.h"

#include <map>
#include <set>
#include <unordered_map>

namespace fxs {

namespace {

Error inlineError(const Node &call, const std::string &what)
{
    return Error{"", 0, 0, "inline: cannot inline '" + call.name() + "' (" + call.target() + "): " + what};
}

// The argument with every node reference replaced through `map` (which may map to a literal or a tuple).
Argument substitute(const Argument &arg, const std::unordered_map<const Node *, Argument> &map, bool &ok)
{
    if (arg.isNode()) {
        auto it = map.find(arg.node());
        if (it == map.end()) {
            ok = false;
            return arg;
        }
        return it->second;
    }
    Argument out = arg;
    for (auto &item : out.items())
        item = substitute(item, map, ok);
    return out;
}

bool referencesSubgraph(const Graph &graph, const std::string &name)
{
    for (const auto &n : graph.nodes())
        if ((n->op() == OpKind::CallModule || n->op() == OpKind::GetAttr) && n->target() == name)
            return true;
    return false;
}

} // namespace

Result<bool> inlineCalls(GraphEditor &editor, const std::string &only)
{
    Graph &graph = editor.graph();
    std::vector<Node *> calls;
    for (const auto &n : graph.nodes())
        if (n->op() == OpKind::CallModule && graph.subgraph(n->target()) && (only.empty() || n->name() == only))
            calls.push_back(n.get());
    // Per inlined body: its nested graphs' names in the caller (moved once, however often the body is called).
    std::map<std::string, std::map<std::string, std::string>> moved;
    std::set<std::string> inlined;
    for (Node *call : calls) {
        const std::string module = call->target();
        const Graph *body = graph.subgraph(module);
        auto &renames = moved[module];
        if (renames.empty())
            for (const auto &[name, sub] : body->subgraphs()) {
                std::string fresh = name;
                for (int k = 1; graph.subgraph(fresh) || graph.find(fresh); ++k)
                    fresh = name + "_" + std::to_string(k);
                renames[name] = fresh;
                editor.addSubgraph(fresh, sub->clone()); // moves the owning pointers, never the graphs
            }
        std::unordered_map<const Node *, Argument> map;
        size_t position = 0;
        Argument result;
        bool haveResult = false;
        for (const auto &owned : body->nodes()) {
            const Node *n = owned.get();
            if (n->op() == OpKind::Placeholder) {
                if (position < call->args().size())
                    map[n] = call->args()[position];
                else if (const Argument *kw = call->kwarg(n->name()))
                    map[n] = *kw;
                else if (!n->args().empty())
                    map[n] = n->args()[0]; // the placeholder's default
                else
                    return inlineError(*call, "no value for its input '" + n->name() + "'");
                ++position;
                continue;
            }
            bool ok = true;
            if (n->op() == OpKind::Output) {
                result = n->args().empty() ? Argument::none() : substitute(n->args()[0], map, ok);
                haveResult = true;
                if (!ok)
                    return inlineError(*call, "its output uses an undefined node");
                break;
            }
            std::vector<Argument> args;
            for (const auto &a : n->args())
                args.push_back(substitute(a, map, ok));
            Kwargs kwargs;
            for (const auto &[k, v] : n->kwargs())
                kwargs.emplace_back(k, substitute(v, map, ok));
            if (!ok)
                return inlineError(*call, "'" + n->name() + "' uses an undefined node");
            std::string target = n->target();
            if (n->op() == OpKind::GetAttr || n->op() == OpKind::CallModule) {
                auto r = renames.find(target);
                target = r != renames.end() ? r->second : module + "." + target;
            }
            Node *copy = editor.insertBefore(
                call, n->op(), graph.uniqueName(n->name()), std::move(target), std::move(args), std::move(kwargs));
            editor.setMeta(copy, n->meta());
            map[n] = Argument::ofNode(copy);
        }
        if (!haveResult)
            return inlineError(*call, "its graph has no output node");
        // getitem users of a tuple result take their element directly.
        std::vector<Node *> users = call->users();
        for (Node *user : users) {
            if (!isGetitem(*user) || !result.isSequence() || user->args().size() != 2
                || user->args()[1].kind() != Argument::Kind::Int)
                continue;
            int64_t i = user->args()[1].toInt();
            if (i < 0 || size_t(i) >= result.items().size())
                return inlineError(*call,
                    "'" + user->name() + "' takes item " + std::to_string(i) + " of "
                        + std::to_string(result.items().size()));
            editor.replaceUses(user, result.items()[size_t(i)]);
            if (!editor.erase(user))
                return inlineError(*call, "'" + user->name() + "' still has users");
        }
        editor.replaceUses(call, result);
        if (!editor.erase(call))
            return inlineError(*call, "it still has users");
        inlined.insert(module);
    }
    for (const auto &module : inlined)
        if (!referencesSubgraph(graph, module))
            editor.removeSubgraph(module);
    return !calls.empty();
}

} // namespace fxs
