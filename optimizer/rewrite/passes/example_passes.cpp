#include "example_passes.h"

#include "patterns/op_schema.h"

#include <array>
#include <utility>

namespace fxs {

bool callsTarget(const Node &node, const std::string &target)
{
    if (node.op() == OpKind::CallMethod)
        return node.target() == target;
    if (node.op() != OpKind::CallFunction)
        return false;
    std::string have = canonicalTarget(node.target()), want = canonicalTarget(target);
    return have == want
        || (have.size() > want.size() && have.compare(0, want.size(), want) == 0 && have[want.size()] == '.'
            && have.find('.', want.size() + 1) == std::string::npos);
}

Result<bool> replaceOp(GraphEditor &editor, const std::string &from, const std::string &to)
{
    bool changed = false;
    for (const auto &n : editor.graph().nodes())
        if (callsTarget(*n, from)) {
            editor.setTarget(n.get(), to);
            changed = true;
        }
    return changed;
}

Result<bool> insertOpAfter(GraphEditor &editor, const std::string &after, const std::string &op)
{
    Graph &graph = editor.graph();
    std::vector<Node *> anchors;
    for (const auto &n : graph.nodes())
        if (callsTarget(*n, after))
            anchors.push_back(n.get());
    for (Node *n : anchors) {
        Node *next = Graph::next(n); // never past the end: the output node is last
        std::string base = canonicalTarget(op);
        base = base.substr(base.find('.') == std::string::npos ? 0 : base.find('.') + 1);
        base = base.substr(0, base.find('.'));
        Node *inserted = editor.insertBefore(
            next, OpKind::CallFunction, graph.uniqueName(base.empty() ? "op" : base), op, {Argument::ofNode(n)});
        editor.replaceUses(n, Argument::ofNode(inserted), {inserted});
    }
    return !anchors.empty();
}

Result<bool> removeDetach(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    bool changed = false;
    for (Node *n = graph.last(), *prev = nullptr; n; n = prev) {
        prev = Graph::prev(n);
        bool detach = n->op() == OpKind::CallMethod ? n->target() == "detach"
                                                    : callsTarget(*n, "aten.detach") || callsTarget(*n, "torch.detach");
        if (!detach || n->args().empty())
            continue;
        editor.replaceUses(n, n->args()[0]);
        if (!editor.erase(n))
            return Error{"", 0, 0, "remove_detach: '" + n->name() + "' still has users"};
        changed = true;
    }
    return changed;
}

Result<bool> scalarsToTensors(GraphEditor &editor)
{
    static const std::array<std::pair<const char *, const char *>, 13> overloads = {{{"add.Scalar", "add.Tensor"},
        {"sub.Scalar", "sub.Tensor"}, {"mul.Scalar", "mul.Tensor"}, {"div.Scalar", "div.Tensor"},
        {"eq.Scalar", "eq.Tensor"}, {"ne.Scalar", "ne.Tensor"}, {"lt.Scalar", "lt.Tensor"}, {"le.Scalar", "le.Tensor"},
        {"gt.Scalar", "gt.Tensor"}, {"ge.Scalar", "ge.Tensor"}, {"pow.Tensor_Scalar", "pow.Tensor_Tensor"},
        {"remainder.Scalar", "remainder.Tensor"}, {"fmod.Scalar", "fmod.Tensor"}}};
    Graph &graph = editor.graph();
    std::vector<Node *> nodes;
    for (const auto &n : graph.nodes())
        nodes.push_back(n.get());
    bool changed = false;
    for (Node *n : nodes) {
        if (n->op() != OpKind::CallFunction || n->args().size() != 2 || !n->kwargs().empty())
            continue; // the Scalar overloads take alpha positionally, the Tensor ones as a kwarg: left alone
        std::string canonical = canonicalTarget(n->target());
        if (canonical.rfind("aten.", 0) != 0)
            continue;
        const char *to = nullptr;
        std::string suffix;
        for (const auto &[from, tensor] : overloads)
            if (canonical == std::string("aten.") + from) {
                to = tensor;
                suffix = from;
            }
        const Argument &scalar = n->args()[1];
        const char *dtype = scalar.kind() == Argument::Kind::Float ? "torch.float32"
            : scalar.kind() == Argument::Kind::Int                 ? "torch.int64"
            : scalar.kind() == Argument::Kind::Bool                ? "torch.bool"
                                                                   : nullptr;
        if (!to || !dtype)
            continue;
        const std::string &old = n->target();
        // Keeps the spelling: "torch.ops.aten.add.Scalar" -> "torch.ops.aten.scalar_tensor.default".
        bool endsWith
            = old.size() > suffix.size() && old.compare(old.size() - suffix.size(), suffix.size(), suffix) == 0;
        std::string prefix = endsWith ? old.substr(0, old.size() - suffix.size()) : std::string("aten.");
        Node *tensor = editor.insertBefore(n, OpKind::CallFunction, graph.uniqueName("scalar_tensor"),
            prefix + "scalar_tensor.default", {scalar}, {{"dtype", Argument::ofText(Argument::Kind::Dtype, dtype)}});
        NodeMeta meta;
        TensorMeta t;
        t.dtype = dtype;
        t.hasStride = true;
        t.device = "cpu";
        meta.val = ValueMeta::ofTensor(t);
        editor.setMeta(tensor, std::move(meta));
        editor.setArgs(n, {n->args()[0], Argument::ofNode(tensor)}, {});
        editor.setTarget(n, prefix + to);
        changed = true;
    }
    return changed;
}

} // namespace fxs
