#include "node_label.h"

#include "ir/node.h"

#include <algorithm>

namespace fxs {

namespace {

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

std::string tensorShape(const TensorMeta &t)
{
    std::string out = dtypeAbbreviation(t.dtype);
    if (out.empty())
        out = t.dtype.empty() ? std::string() : t.dtype;
    out += '[';
    for (size_t i = 0; i < t.shape.size(); ++i) {
        if (i)
            out += ", ";
        out += t.shape[i].toString();
    }
    return out + ']';
}

std::string valueShape(const ValueMeta &v, int depth = 0)
{
    switch (v.kind) {
    case ValueMeta::Kind::Tensor: return tensorShape(v.tensor);
    case ValueMeta::Kind::SymInt: return "Sym(" + v.expr + ")";
    case ValueMeta::Kind::SymFloat: return "SymFloat(" + v.expr + ")";
    case ValueMeta::Kind::SymBool: return "SymBool(" + v.expr + ")";
    case ValueMeta::Kind::Tuple: {
        if (depth > 2)
            return "(…)";
        std::string out = "(";
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (i)
                out += ", ";
            if (out.size() > 48) {
                out += "…";
                break;
            }
            out += valueShape(v.items[i], depth + 1);
        }
        return out + ')';
    }
    }
    return {};
}

} // namespace

std::string shortTarget(const std::string &target)
{
    std::string t = target;
    if (startsWith(t, "torch.ops."))
        t = t.substr(10);
    const size_t colons = t.find("::");
    if (colons != std::string::npos)
        t = t.substr(0, colons) + '.' + t.substr(colons + 2);
    // namespace.op.overload -> namespace.op; the overload is in the inspector, not worth a box's width.
    static const char *const namespaces[] = {"aten.", "prims.", "npu.", "higher_order.", "quantized."};
    for (const char *ns : namespaces) {
        if (startsWith(t, ns)) {
            const size_t second = t.find('.', std::char_traits<char>::length(ns));
            if (second != std::string::npos)
                t = t.substr(0, second);
            break;
        }
    }
    if (startsWith(t, "<built-in function ") && t.back() == '>')
        t = t.substr(19, t.size() - 20);
    return t;
}

NodeCategory nodeCategory(const Node &node)
{
    switch (node.op()) {
    case OpKind::Placeholder: return NodeCategory::Placeholder;
    case OpKind::Output: return NodeCategory::Output;
    case OpKind::GetAttr: return NodeCategory::GetAttr;
    case OpKind::CallModule: return NodeCategory::CallModule;
    case OpKind::CallMethod: return NodeCategory::CallMethod;
    case OpKind::CallFunction: break;
    }
    const std::string t = shortTarget(node.target());
    if (startsWith(t, "aten."))
        return NodeCategory::Aten;
    if (startsWith(t, "prims."))
        return NodeCategory::Prims;
    if (startsWith(t, "npu.") || startsWith(t, "torch_npu."))
        return NodeCategory::Npu;
    if (startsWith(t, "higher_order."))
        return NodeCategory::HigherOrder;
    if (startsWith(t, "operator.") || startsWith(t, "_operator."))
        return NodeCategory::Operator;
    return NodeCategory::Function;
}

NodeLabel nodeLabel(const Node &node)
{
    NodeLabel label;
    label.name = node.name();
    label.category = nodeCategory(node);
    switch (node.op()) {
    case OpKind::Placeholder: label.target = "input"; break;
    case OpKind::Output: label.target = "output"; break;
    case OpKind::GetAttr: label.target = "get_attr " + node.target(); break;
    case OpKind::CallModule: label.target = "module " + node.target(); break;
    case OpKind::CallMethod: label.target = "." + node.target() + "()"; break;
    case OpKind::CallFunction: label.target = shortTarget(node.target()); break;
    }
    if (node.meta().val)
        label.shape = valueShape(*node.meta().val);
    return label;
}

NodeBoxSize nodeBoxSize(const NodeLabel &label)
{
    constexpr double kCharWidth = 6.0;
    constexpr double kPadding = 18;
    const size_t chars = std::max({label.name.size(), label.target.size(), label.shape.size()});
    const double width = std::clamp(double(chars) * kCharWidth + kPadding, 72.0, 210.0);
    return {width, label.shape.empty() ? 36.0 : 48.0};
}

} // namespace fxs
