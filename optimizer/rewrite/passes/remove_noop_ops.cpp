#include "remove_noop_ops.h"

#include "patterns/op_schema.h"

#include <climits>
#include <set>
#include <unordered_map>

namespace fxs {

namespace {

const TensorMeta *tensorOf(const Node *n)
{
    return n && n->meta().val && n->meta().val->kind == ValueMeta::Kind::Tensor ? &n->meta().val->tensor : nullptr;
}

// Ops whose result has its input's strides whatever they are (for the dense tensors of a graph): a view of the same
// sizes, or an elementwise op that preserves the memory format.
bool keepsStrides(const Node *n, bool viewOfSource)
{
    static const std::set<std::string, std::less<>> preserving = {"prims.convert_element_type.default", "aten.pow.Tensor_Scalar",
        "aten.ceil.default", "aten.floor.default", "aten.round.default", "aten.trunc.default"};
    const std::string_view t = opTarget(n->target());
    if (t == "aten.clone.default")
        for (const auto &kv : n->kwargs())
            if (kv.first == "memory_format" && kv.second.text() != "torch.preserve_format")
                return false;
    return viewOfSource || t == "aten.clone.default" || preserving.count(t) != 0;
}

// post_grad.same_meta: both vals tensors with equal sizes, dtype, device and strides. A dump without strides
// (print_readable's default) still shows them equal where the op keeps its input's; elsewhere unknown strides
// are never equal.
bool sameMeta(const Node *a, const Node *b, bool viewOfSource)
{
    const TensorMeta *x = tensorOf(a), *y = tensorOf(b);
    if (!x || !y || x->dtype.empty() || x->shape != y->shape || x->dtype != y->dtype || x->device != y->device)
        return false;
    if (x->hasStride && y->hasStride)
        return x->stride == y->stride;
    return keepsStrides(a, viewOfSource);
}

// The ops whose result shares its input's storage (get_node_storage is equal for them).
bool isView(std::string_view target)
{
    static const std::set<std::string, std::less<>> views = {"aten.slice.Tensor", "aten.view.default",
        "aten.alias.default", "aten.permute.default", "aten.expand.default", "aten.unsqueeze.default", "aten.squeeze.dim",
        "aten.select.int", "aten.t.default", "aten.transpose.int", "aten._unsafe_view.default"};
    return views.count(target) != 0;
}

const Argument *arg(const Node *n, size_t i)
{
    return i < n->args().size() ? &n->args()[i] : nullptr;
}

bool intIs(const Argument *a, int64_t v)
{
    return a && a->kind() == Argument::Kind::Int && a->toInt() == v;
}

// The noop_registry entry of a node: its source node when the condition holds, else nullptr.
Node *noopSource(Node *n)
{
    const std::string_view t = opTarget(n->target());
    auto src0 = [&]() -> Node * { return arg(n, 0) && arg(n, 0)->isNode() ? arg(n, 0)->node() : nullptr; };
    const TensorMeta *in = tensorOf(src0());
    if (t == "aten.slice.Tensor") {
        // slice_noop: start and end given, start 0, end past the size, step 1.
        const Argument *dim = arg(n, 1), *start = arg(n, 2), *end = arg(n, 3), *step = arg(n, 4);
        if (!in || !start || !end || start->isNone() || end->isNone() || !intIs(start, 0)
            || end->kind() != Argument::Kind::Int || (step && !intIs(step, 1)))
            return nullptr;
        int64_t d = dim && dim->kind() == Argument::Kind::Int ? dim->toInt() : 0;
        d += d < 0 ? int64_t(in->shape.size()) : 0;
        if (d < 0 || d >= int64_t(in->shape.size()))
            return nullptr;
        const SymInt &size = in->shape[size_t(d)];
        const int64_t e = end->toInt();
        return e == INT64_MAX || (size.isConcrete() && e >= size.value) ? src0() : nullptr;
    }
    if (t == "aten.repeat.default") {
        const Argument *r = arg(n, 1);
        if (!r || !r->isSequence())
            return nullptr;
        for (const Argument &x : r->items())
            if (!intIs(&x, 1))
                return nullptr;
        return src0();
    }
    if (t == "aten.constant_pad_nd.default") {
        const Argument *p = arg(n, 1);
        if (!p || !p->isSequence())
            return nullptr;
        for (const Argument &x : p->items())
            if (!intIs(&x, 0))
                return nullptr;
        return src0();
    }
    if (t == "prims.convert_element_type.default") {
        const Argument *d = arg(n, 1);
        return in && d && d->kind() == Argument::Kind::Dtype && d->text() == in->dtype ? src0() : nullptr;
    }
    if (t == "aten.ceil.default" || t == "aten.floor.default" || t == "aten.round.default"
        || t == "aten.trunc.default") {
        static const std::set<std::string, std::less<>> ints
            = {"torch.bool", "torch.uint8", "torch.int8", "torch.int16", "torch.int32", "torch.int64"};
        return in && ints.count(in->dtype) ? src0() : nullptr;
    }
    if (t == "aten.pow.Tensor_Scalar")
        return intIs(arg(n, 1), 1) ? src0() : nullptr;
    if (t == "aten.cat.default") {
        const Argument *list = arg(n, 0);
        if (list && list->isSequence() && list->items().size() == 1 && list->items()[0].isNode())
            return list->items()[0].node();
        return nullptr;
    }
    if (t == "aten.view.default") {
        const Argument *size = arg(n, 1);
        if (!in || !size || !size->isSequence() || size->items().size() != in->shape.size())
            return nullptr;
        for (size_t k = 0; k < in->shape.size(); ++k) {
            const Argument &s = size->items()[k];
            const SymInt &d = in->shape[k];
            // torch compares the sizes' values (arg.shape == size): a SymInt node (sym_size.int) by its symbol.
            std::string symbol = s.text();
            if (s.isNode())
                if (const auto &val = s.node()->meta().val; val && val->kind == ValueMeta::Kind::SymInt)
                    symbol = val->expr;
            const bool equal = s.kind() == Argument::Kind::Int ? d.isConcrete() && d.value == s.toInt()
                                                               : !d.isConcrete() && !symbol.empty() && symbol == d.expr;
            if (!equal)
                return nullptr;
        }
        return src0();
    }
    if (t == "aten.clone.default" || t == "aten.alias.default")
        return src0();
    if (t == "aten.copy.default")
        return arg(n, 1) && arg(n, 1)->isNode() ? arg(n, 1)->node() : nullptr;
    return nullptr;
}

// What remove_noop_ops decides a node by: its storage and the graph's input and output storages, worked out at the
// first node that is a no-op candidate at all (most graphs have none: a scan then costs one pass over the nodes).
class NoopScan {
public:
    explicit NoopScan(const Graph &graph) : m_graph(graph) { }

    // The node `n` is replaced by, or nullptr when it stays.
    Node *removable(Node *n) const
    {
        if (n->op() != OpKind::CallFunction)
            return nullptr;
        Node *src = noopSource(n);
        if (!src || !storages())
            return nullptr;
        const Node *nodeStorage = storageOf(n), *srcStorage = storageOf(src);
        const bool isViewOfSrc = nodeStorage == srcStorage;
        // Don't introduce new aliasing between inputs and outputs.
        if (!isViewOfSrc && m_outputStorages.count(nodeStorage)
            && (m_inputStorages.count(srcStorage) || m_outputStorages.count(srcStorage)))
            return nullptr;
        if (isViewOfSrc && n == m_soleOutput && (m_inputs.count(src) || src == m_soleOutput))
            return nullptr;
        return sameMeta(n, src, isViewOfSrc) ? src : nullptr;
    }

private:
    // False for a graph without an output.
    bool storages() const
    {
        if (m_scanned)
            return m_valid;
        m_scanned = true;
        const Node *output = m_graph.outputNode();
        if (!output || output->args().empty())
            return false;
        m_valid = true;
        // Storage identities: placeholders own one each, views share their source's, every other op a new one.
        for (const auto &up : m_graph.nodes()) {
            const Node *n = up.get();
            if (n->op() == OpKind::CallFunction && isView(opTarget(n->target())) && !n->args().empty()
                && n->args()[0].isNode())
                m_storage[n] = storageOf(n->args()[0].node());
        }
        for (Node *p : m_graph.placeholders()) {
            m_inputs.insert(p);
            m_inputStorages.insert(storageOf(p));
        }
        const Argument &out = output->args()[0];
        if (out.isNode())
            m_outputStorages.insert(storageOf(out.node()));
        else if (out.isSequence())
            for (const Argument &a : out.items())
                if (a.isNode())
                    m_outputStorages.insert(storageOf(a.node()));
        // `node in output_node.args`: true only for the single output that is not a tuple.
        m_soleOutput = out.isNode() ? out.node() : nullptr;
        return true;
    }

    const Node *storageOf(const Node *n) const
    {
        auto it = m_storage.find(n);
        return it == m_storage.end() ? n : it->second;
    }

    const Graph &m_graph;
    mutable bool m_scanned = false, m_valid = false;
    mutable std::unordered_map<const Node *, const Node *> m_storage;
    mutable std::set<const Node *> m_inputs, m_inputStorages, m_outputStorages;
    mutable const Node *m_soleOutput = nullptr;
};

} // namespace

bool hasNoopOps(const Graph &graph)
{
    const NoopScan scan(graph);
    for (const auto &n : graph.nodes())
        if (scan.removable(n.get()))
            return true;
    return false;
}

Result<bool> removeNoopOps(GraphEditor &editor)
{
    Graph &graph = editor.graph();
    const NoopScan scan(graph);
    std::vector<Node *> order;
    for (const auto &up : graph.nodes())
        order.push_back(up.get());
    bool changed = false;
    for (Node *n : order) {
        Node *src = scan.removable(n);
        if (!src)
            continue;
        editor.replaceUses(n, Argument::ofNode(src));
        if (!editor.erase(n))
            return Error{"", 0, 0, "remove_noop_ops: '" + n->name() + "' still has users"};
        changed = true;
    }
    return changed;
}

} // namespace fxs
