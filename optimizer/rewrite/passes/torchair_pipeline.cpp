#include "torchair_pipeline.h"

#include "patterns/op_schema.h"
#include "remove_noop_ops.h"

#include <map>

namespace fxs {

namespace {

bool calls(const Node *n, std::string_view target)
{
    return n && n->op() == OpKind::CallFunction && opTarget(n->target()) == target;
}

Node *nodeArg(const Node *n, size_t i)
{
    return i < n->args().size() && n->args()[i].isNode() ? n->args()[i].node() : nullptr;
}

} // namespace

const std::vector<GraphPass> &TorchairPipeline::before()
{
    static const std::vector<GraphPass> passes = {
        {"remove_noop_ops", &removeNoopOps},
        {"recover_view_inplace", &TorchairPipeline::recoverViewInplace},
        {"optimize_sym_input", &TorchairPipeline::optimizeSymInput},
    };
    return passes;
}

const std::vector<GraphPass> &TorchairPipeline::after()
{
    static const std::vector<GraphPass> passes = {{"view_to_reshape", &TorchairPipeline::viewToReshape}};
    return passes;
}

Result<bool> TorchairPipeline::recoverViewInplace(GraphEditor &editor)
{
    static const std::map<std::string, std::string, std::less<>> inplaceOf = {
        {"npu.scatter_update.default", "npu.scatter_update_.default"},
        {"npu.npu_scatter_nd_update.default", "npu.npu_scatter_nd_update_.default"},
        {"npu.npu_quant_scatter.default", "npu.npu_quant_scatter_.default"},
    };
    Graph &graph = editor.graph();
    auto shape = [](const Node *n) -> const std::vector<SymInt> * {
        const auto &val = n->meta().val;
        return val && val->kind == ValueMeta::Kind::Tensor ? &val->tensor.shape : nullptr;
    };
    // copy_(placeholder, other) of the same shape: what functionalization writes back into a mutated input.
    std::vector<Node *> copies;
    for (const auto &n : graph.nodes()) {
        Node *dst = n->args().size() == 2 ? nodeArg(n.get(), 0) : nullptr;
        Node *src = dst ? nodeArg(n.get(), 1) : nullptr;
        if (calls(n.get(), "aten.copy_.default") && src && dst->op() == OpKind::Placeholder
            && src->op() != OpKind::Placeholder && shape(dst) && shape(src) && *shape(dst) == *shape(src))
            copies.push_back(n.get());
    }
    bool changed = false;
    for (Node *copy : copies) {
        Node *input = nodeArg(copy, 0), *postView = nodeArg(copy, 1);
        Node *scatter = calls(postView, "aten.view.default") ? nodeArg(postView, 0) : nullptr;
        auto inplace = scatter && scatter->op() == OpKind::CallFunction
            ? inplaceOf.find(opTarget(scatter->target()))
            : inplaceOf.end();
        if (inplace == inplaceOf.end())
            continue;
        Node *preView = nodeArg(scatter, 0);
        if (!calls(preView, "aten.view.default") || nodeArg(preView, 0) != input || preView->users().size() != 1
            || input->users().size() != 2)
            continue;
        Node *recovered = editor.insertBefore(Graph::next(scatter), OpKind::CallFunction,
            graph.uniqueName(scatter->name() + "_inplace"), inplace->second, scatter->args(), scatter->kwargs());
        editor.setMeta(recovered, scatter->meta()); // replace_all_uses_with(propagate_meta=True)
        editor.replaceUses(scatter, Argument::ofNode(recovered));
        if (copy->users().empty()) // a copy_ whose result is used stays
            editor.erase(copy);
        editor.erase(scatter);
        changed = true;
    }
    return changed;
}

Result<bool> TorchairPipeline::optimizeSymInput(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    std::vector<Node *> symbols, tensors;
    for (Node *p : graph.placeholders()) {
        const auto &val = p->meta().val;
        if (val && val->kind == ValueMeta::Kind::SymInt)
            symbols.push_back(p);
        else if (val && val->kind == ValueMeta::Kind::Tensor)
            tensors.push_back(p);
    }
    bool changed = false;
    for (Node *symbol : symbols) {
        if (symbol->users().empty())
            continue;
        const std::string &expr = symbol->meta().val->expr;
        Node *tensor = nullptr;
        int64_t dim = -1;
        for (size_t t = 0; t < tensors.size() && !tensor; ++t) {
            const auto &shape = tensors[t]->meta().val->tensor.shape;
            for (size_t i = 0; i < shape.size() && !tensor; ++i)
                if ((shape[i].isConcrete() ? std::to_string(shape[i].value) : shape[i].expr) == expr) {
                    tensor = tensors[t];
                    dim = int64_t(i);
                }
        }
        if (!tensor)
            continue;
        Node *size = editor.insertBefore(Graph::next(tensor), OpKind::CallFunction, graph.uniqueName("sym_size"),
            "aten.sym_size", {Argument::ofNode(tensor), Argument::ofInt(dim)});
        editor.setMeta(size, symbol->meta()); // replace_all_uses_with(propagate_meta=True)
        editor.replaceUses(symbol, Argument::ofNode(size));
        changed = true;
    }
    return changed;
}

Result<bool> TorchairPipeline::viewToReshape(GraphEditor &editor)
{
    bool changed = false;
    for (const auto &n : editor.graph().nodes()) {
        if (!calls(n.get(), "aten.view.default"))
            continue;
        const std::string &t = n->target(); // the graph's own spelling: torch.ops.aten.view.default or aten.view...
        editor.setTarget(n.get(), t.substr(0, t.size() - std::string_view("view.default").size()) + "reshape.default");
        changed = true;
    }
    return changed;
}

} // namespace fxs
