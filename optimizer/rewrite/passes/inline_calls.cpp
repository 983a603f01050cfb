#include "inline_calls.h"

#include "patterns/op_schema.h"
#include "rewrite/replacement.h"

#include <map>
#include <optional>
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

// A call to inline: the node, the graph it runs, where its inputs start among its args (read when it is inlined:
// inlining an earlier call rewires them), and the nested graph of the caller it runs (empty for a library
// composite, whose body belongs to no graph).
struct CompositeCall {
    Node *call = nullptr;
    const Graph *body = nullptr;
    size_t firstInput = 0;
    std::string module;
    Node *bodyAttr = nullptr; // the get_attr a wrap call reads its body through
};

std::optional<CompositeCall> compositeCall(Node *n, const Graph &graph, const CompositeLibrary *library)
{
    if (n->op() == OpKind::CallModule) {
        if (const Graph *body = graph.subgraph(n->target()))
            return CompositeCall{n, body, 0, n->target(), nullptr};
        return std::nullopt;
    }
    if (n->op() != OpKind::CallFunction)
        return std::nullopt;
    // torch.ops.higher_order.wrap(self.wrap_body_0, *args): the body is a nested graph read through get_attr.
    const std::string target = canonicalTarget(n->target());
    if ((target == "higher_order.wrap" || target == "torch._higher_order_ops.wrap.wrap") && !n->args().empty()
        && n->args()[0].isNode() && n->args()[0].node()->op() == OpKind::GetAttr) {
        Node *attr = n->args()[0].node();
        if (const Graph *body = graph.subgraph(attr->target()))
            return CompositeCall{n, body, 1, attr->target(), attr};
        return std::nullopt;
    }
    // An fx.wrap'ed function the library knows: by its full target, its last dotted name, or the name FX's code
    // generation gives it (`__main__.my_fn` is called as `__main___my_fn` in printed code).
    if (library) {
        const std::string &t = n->target();
        auto it = library->find(t);
        if (it == library->end()) {
            auto dot = t.rfind('.');
            if (dot != std::string::npos)
                it = library->find(t.substr(dot + 1));
        }
        for (auto c = library->begin(); it == library->end() && c != library->end(); ++c)
            if (t.size() > c->first.size() + 1 && t.compare(t.size() - c->first.size(), c->first.size(), c->first) == 0
                && t[t.size() - c->first.size() - 1] == '_' && t.find('.') == std::string::npos)
                it = c;
        if (it != library->end() && it->second)
            return CompositeCall{n, it->second.get(), 0, {}, nullptr};
    }
    return std::nullopt;
}

} // namespace

Result<bool> inlineCalls(GraphEditor &editor, const std::string &only, const CompositeLibrary *library)
{
    Graph &graph = editor.graph();
    std::vector<CompositeCall> calls;
    for (Node *n = graph.first(); n; n = Graph::next(n))
        if (only.empty() || n->name() == only)
            if (auto c = compositeCall(n, graph, library))
                calls.push_back(*c);
    // Per inlined body: its nested graphs' names in the caller (moved once, however often the body is called).
    std::map<std::string, std::map<std::string, std::string>> moved;
    std::set<std::string> inlined;
    for (const CompositeCall &composite : calls) {
        Node *call = composite.call;
        const std::string &module = composite.module;
        const Graph *body = composite.body;
        auto &renames = moved[module];
        if (renames.empty() && !module.empty())
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
                if (composite.firstInput + position < call->args().size())
                    map[n] = call->args()[composite.firstInput + position];
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
            if ((n->op() == OpKind::GetAttr || n->op() == OpKind::CallModule) && !module.empty()) {
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
        // A wrap's get_attr of its body goes with the last call that read it.
        if (composite.bodyAttr && composite.bodyAttr->users().empty())
            editor.erase(composite.bodyAttr);
        if (!module.empty())
            inlined.insert(module);
    }
    for (const auto &module : inlined)
        if (!referencesSubgraph(graph, module))
            editor.removeSubgraph(module);
    return !calls.empty();
}

} // namespace fxs
