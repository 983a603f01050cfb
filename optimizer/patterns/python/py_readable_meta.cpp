#include "py_readable_meta.h"

#include "patterns/op_schema_table.h"
#include "py_fx_proxies.h"
#include "py_op_meta.h"
#include "py_torch_host.h"

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
