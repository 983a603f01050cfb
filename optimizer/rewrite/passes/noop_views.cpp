#include "noop_views.h"

#include "patterns/op_schema.h"

namespace fxs {

namespace {

bool isViewLike(const Node &node)
{
    if (node.op() == OpKind::CallMethod)
        return node.target() == "view" || node.target() == "reshape" || node.target() == "expand";
    if (node.op() != OpKind::CallFunction)
        return false;
    std::string t = canonicalTarget(node.target());
    return t == "aten.view.default" || t == "aten.reshape.default" || t == "aten.expand.default"
        || t == "aten._unsafe_view.default" || t == "torch.reshape" || t == "aten.view" || t == "aten.reshape"
        || t == "aten.expand";
}

const TensorMeta *tensorOf(const Node &node)
{
    const auto &val = node.meta().val;
    return val && val->kind == ValueMeta::Kind::Tensor ? &val->tensor : nullptr;
}

} // namespace

bool isNoopView(const Node &node)
{
    if (!isViewLike(node) || node.args().empty() || !node.args()[0].isNode())
        return false;
    const TensorMeta *out = tensorOf(node);
    const TensorMeta *in = tensorOf(*node.args()[0].node());
    if (!out || !in || out->dtype.empty() || out->shape != in->shape || out->dtype != in->dtype
        || out->device != in->device)
        return false;
    return !(out->hasStride && in->hasStride && out->stride != in->stride);
}

Result<bool> removeNoopViews(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    bool changed = false;
    // From the end, so a chain view(view(x)) collapses in one pass.
    for (Node *n = graph.last(), *prev = nullptr; n; n = prev) {
        prev = Graph::prev(n);
        if (!isNoopView(*n))
            continue;
        editor.replaceUses(n, n->args()[0]);
        if (!editor.erase(n))
            return Error{"", 0, 0, "remove_noop_views: '" + n->name() + "' still has users"};
        changed = true;
    }
    return changed;
}

} // namespace fxs
