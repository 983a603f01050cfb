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

namespace {

// One scatter recover_view_inplace makes in place: its copy_ into the input and the in-place op's target.
struct Recoverable {
    Node *copy, *scatter;
    std::string inplace;
};

std::vector<Recoverable> findRecoverable(const Graph &graph)
{
    static const std::map<std::string, std::string, std::less<>> inplaceOf = {
        {"npu.scatter_update.default", "npu.scatter_update_.default"},
        {"npu.npu_scatter_nd_update.default", "npu.npu_scatter_nd_update_.default"},
        {"npu.npu_quant_scatter.default", "npu.npu_quant_scatter_.default"},
    };
    auto shape = [](const Node *n) -> const std::vector<SymInt> * {
        const auto &val = n->meta().val;
        return val && val->kind == ValueMeta::Kind::Tensor ? &val->tensor.shape : nullptr;
    };
    std::vector<Recoverable> out;
    for (const auto &n : graph.nodes()) {
        // copy_(placeholder, other) of the same shape: what functionalization writes back into a mutated input.
        Node *copy = n.get();
        Node *input = copy->args().size() == 2 ? nodeArg(copy, 0) : nullptr;
        Node *postView = input ? nodeArg(copy, 1) : nullptr;
        if (!calls(copy, "aten.copy_.default") || !postView || input->op() != OpKind::Placeholder
            || postView->op() == OpKind::Placeholder || !shape(input) || !shape(postView)
            || *shape(input) != *shape(postView))
            continue;
        Node *scatter = calls(postView, "aten.view.default") ? nodeArg(postView, 0) : nullptr;
        auto inplace = scatter && scatter->op() == OpKind::CallFunction ? inplaceOf.find(opTarget(scatter->target()))
                                                                       : inplaceOf.end();
        if (inplace == inplaceOf.end())
            continue;
        Node *preView = nodeArg(scatter, 0);
        if (calls(preView, "aten.view.default") && nodeArg(preView, 0) == input && preView->users().size() == 1
            && input->users().size() == 2)
            out.push_back({copy, scatter, inplace->second});
    }
    return out;
}

// A SymInt input with users, and the first tensor input with a size of that symbol.
struct SymbolRead {
    Node *symbol, *tensor;
    int64_t dim;
};

std::vector<SymbolRead> findSymbolReads(const Graph &graph)
{
    std::vector<Node *> symbols, tensors;
    for (Node *p : graph.placeholders()) {
        const auto &val = p->meta().val;
        if (val && val->kind == ValueMeta::Kind::SymInt)
            symbols.push_back(p);
        else if (val && val->kind == ValueMeta::Kind::Tensor)
            tensors.push_back(p);
    }
    std::vector<SymbolRead> out;
    for (Node *symbol : symbols) {
        if (symbol->users().empty())
            continue;
        const std::string &expr = symbol->meta().val->expr;
        for (size_t t = 0; t < tensors.size() && (out.empty() || out.back().symbol != symbol); ++t) {
            const auto &shape = tensors[t]->meta().val->tensor.shape;
            for (size_t i = 0; i < shape.size(); ++i)
                if ((shape[i].isConcrete() ? std::to_string(shape[i].value) : shape[i].expr) == expr) {
                    out.push_back({symbol, tensors[t], int64_t(i)});
                    break;
                }
        }
    }
    return out;
}

} // namespace

bool TorchairPipeline::changesBefore(const Graph &graph)
{
    return hasNoopOps(graph) || !findRecoverable(graph).empty() || !findSymbolReads(graph).empty();
}

Result<bool> TorchairPipeline::recoverViewInplace(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    const auto found = findRecoverable(graph);
    for (const Recoverable &r : found) {
        Node *recovered = editor.insertBefore(Graph::next(r.scatter), OpKind::CallFunction,
            graph.uniqueName(r.scatter->name() + "_inplace"), r.inplace, r.scatter->args(), r.scatter->kwargs());
        editor.setMeta(recovered, r.scatter->meta()); // replace_all_uses_with(propagate_meta=True)
        editor.replaceUses(r.scatter, Argument::ofNode(recovered));
        if (r.copy->users().empty()) // a copy_ whose result is used stays
            editor.erase(r.copy);
        editor.erase(r.scatter);
    }
    return !found.empty();
}

Result<bool> TorchairPipeline::optimizeSymInput(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    const auto found = findSymbolReads(graph);
    for (const SymbolRead &r : found) {
        Node *size = editor.insertBefore(Graph::next(r.tensor), OpKind::CallFunction, graph.uniqueName("sym_size"),
            "aten.sym_size", {Argument::ofNode(r.tensor), Argument::ofInt(r.dim)});
        editor.setMeta(size, r.symbol->meta()); // replace_all_uses_with(propagate_meta=True)
        editor.replaceUses(r.symbol, Argument::ofNode(size));
    }
    return !found.empty();
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
