#include "py_readable_meta.h"

#include "patterns/op_schema_table.h"
#include "py_fx_proxies.h"
#include "py_op_meta.h"
#include "py_torch_host.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace fxs {

namespace {

// PyOpMeta reads a node's meta through a traced tensor.
PyValue tracedTensor(Node *n)
{
    return PyValue::ofObject(std::make_shared<PyTracedTensor>(nullptr, n));
}

bool sameAnnotation(const TensorMeta &a, const TensorMeta &b)
{
    return a.dtype == b.dtype && a.shape == b.shape; // readable code prints no stride
}

// The val every user of a constant agrees on, where each user copies it as it is; nullptr otherwise.
const ValueMeta *copiedVal(const Node &constant)
{
    static const std::set<std::string_view> copies
        = {"aten.lift_fresh_copy.default", "aten.clone.default", "aten.alias.default", "aten.detach.default"};
    const ValueMeta *val = nullptr;
    for (const Node *u : constant.users()) {
        if (!copies.count(opTarget(u->target())) || u->args().empty() || !u->args()[0].isNode()
            || u->args()[0].node() != &constant || !u->meta().val || (val && !(*val == *u->meta().val)))
            return nullptr;
        val = &*u->meta().val;
    }
    return val;
}

// The pieces of a list-returning view op whose count its arguments give (split, split_with_sizes, unbind), as the
// meta kernels make them: the input's dtype, device and strides, the split dim cut (or dropped). Empty when the
// input's meta or a size it needs is not known.
std::vector<TensorMeta> listPieces(const Node &node)
{
    const std::string_view op = opTarget(node.target());
    const bool split = op == "aten.split.Tensor", withSizes = op == "aten.split_with_sizes.default",
               unbind = op == "aten.unbind.int";
    if ((!split && !withSizes && !unbind) || node.args().empty() || !node.args()[0].isNode())
        return {};
    const auto &in = node.args()[0].node()->meta().val;
    if (!in || in->kind != ValueMeta::Kind::Tensor)
        return {};
    const TensorMeta &t = in->tensor;
    auto intArg = [&](size_t i, const char *name, int64_t fallback) -> std::optional<int64_t> {
        const Argument *a = i < node.args().size() ? &node.args()[i] : nullptr;
        for (const auto &kv : node.kwargs())
            if (!a && kv.first == name)
                a = &kv.second;
        if (!a)
            return fallback;
        return a->kind() == Argument::Kind::Int ? std::optional<int64_t>(a->toInt()) : std::nullopt;
    };
    const auto dimArg = intArg(unbind ? 1 : 2, "dim", 0);
    const int64_t rank = int64_t(t.shape.size());
    if (!dimArg || rank == 0 || *dimArg < -rank || *dimArg >= rank)
        return {};
    const size_t dim = size_t(*dimArg < 0 ? *dimArg + rank : *dimArg);
    if (!t.shape[dim].isConcrete())
        return {};
    const int64_t size = t.shape[dim].value;
    std::vector<int64_t> lengths;
    if (split) {
        const auto step = intArg(1, "split_size", 0);
        if (!step || *step <= 0)
            return {};
        for (int64_t at = 0; at < size || (size == 0 && lengths.empty()); at += *step)
            lengths.push_back(std::min(*step, size - at));
    } else if (withSizes) {
        const Argument &sizes = node.args().size() > 1 ? node.args()[1] : Argument::none();
        if (!sizes.isSequence())
            return {};
        for (const Argument &a : sizes.items()) {
            if (a.kind() != Argument::Kind::Int)
                return {};
            lengths.push_back(a.toInt());
        }
    }
    std::vector<TensorMeta> pieces;
    for (size_t i = 0; i < (unbind ? size_t(size) : lengths.size()); ++i) {
        TensorMeta piece = t;
        if (unbind) {
            piece.shape.erase(piece.shape.begin() + long(dim));
            if (piece.hasStride && dim < piece.stride.size())
                piece.stride.erase(piece.stride.begin() + long(dim));
        } else {
            piece.shape[dim] = SymInt{lengths[i], {}};
        }
        pieces.push_back(std::move(piece));
    }
    return pieces;
}

} // namespace

size_t PyReadableMeta::inferMissing(Graph &graph)
{
    size_t filled = 0;
    for (const auto &owned : graph.nodes()) {
        Node *node = owned.get();
        if (node->meta().val || node->users().empty())
            continue;
        if (node->op() == OpKind::GetAttr) {
            if (const ValueMeta *val = copiedVal(*node)) {
                node->meta().val = *val;
                ++filled;
            }
            continue;
        }
        if (node->op() != OpKind::CallFunction)
            continue;
        bool getitemsOnly = true;
        for (const Node *u : node->users())
            getitemsOnly = getitemsOnly && u->target() == "operator.getitem";
        // A list of views (split, unbind): readable code prints no annotation on it, and its length is in its args.
        if (std::vector<TensorMeta> pieces = getitemsOnly ? listPieces(*node) : std::vector<TensorMeta>{};
            !pieces.empty()) {
            bool agrees = true;
            for (const Node *u : node->users()) {
                const Argument &index = u->args().size() > 1 ? u->args()[1] : Argument::none();
                const auto &val = u->meta().val;
                if (index.kind() != Argument::Kind::Int || index.toInt() < 0 || size_t(index.toInt()) >= pieces.size())
                    agrees = false;
                else if (val && val->kind == ValueMeta::Kind::Tensor)
                    agrees = agrees && sameAnnotation(pieces[size_t(index.toInt())], val->tensor);
            }
            if (agrees) {
                ValueMeta list;
                list.kind = ValueMeta::Kind::Tuple;
                for (TensorMeta &piece : pieces)
                    list.items.push_back(ValueMeta::ofTensor(std::move(piece)));
                node->meta().val = std::move(list);
                ++filled;
            }
            continue;
        }
        const OpSchema *schema = getitemsOnly ? OpSchemaTable::instance().findKnown(node->target()) : nullptr;
        if (!schema)
            continue;
        std::vector<PyValue> values(schema->arguments.size());
        std::vector<const PyValue *> given(schema->arguments.size(), nullptr);
        for (size_t i = 0; i < node->args().size() && i < values.size(); ++i)
            given[i] = &(values[i] = pyArgumentValue(node->args()[i], tracedTensor));
        for (const auto &kv : node->kwargs())
            for (size_t i = 0; i < values.size(); ++i)
                if (schema->arguments[i].name == kv.first)
                    given[i] = &(values[i] = pyArgumentValue(kv.second, tracedTensor));
        size_t outputs = 0;
        for (size_t p = 0; (p = schema->returns.find("Tensor", p)) != std::string::npos; p += 6)
            ++outputs;
        if (outputs < 2 || schema->returns.find('[') != std::string::npos) // Tensor[] is a list, not a tuple
            continue;
        const auto metas = PyOpMeta::infer(*schema, given, outputs);
        ValueMeta tuple;
        tuple.kind = ValueMeta::Kind::Tuple;
        bool complete = true;
        for (const auto &m : metas) {
            complete = complete && m.has_value();
            if (m)
                tuple.items.push_back(ValueMeta::ofTensor(*m));
        }
        for (const Node *u : node->users()) { // a rule that disagrees with the dump's own getitems is not used
            const Argument &index = u->args().size() > 1 ? u->args()[1] : Argument::none();
            const auto &val = u->meta().val;
            if (complete && val && val->kind == ValueMeta::Kind::Tensor && index.kind() == Argument::Kind::Int
                && index.toInt() >= 0 && size_t(index.toInt()) < metas.size())
                complete = sameAnnotation(*metas[size_t(index.toInt())], val->tensor);
        }
        if (!complete)
            continue;
        node->meta().val = std::move(tuple);
        ++filled;
    }
    return filled;
}

} // namespace fxs
