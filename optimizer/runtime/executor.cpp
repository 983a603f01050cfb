#include "executor.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cmath>

namespace fxs {

namespace {

Error nodeError(const Node &node, const std::string &what)
{
    return Error{{}, node.meta().dumpLine, 0, "node '" + node.name() + "' (" + node.target() + "): " + what};
}

// "torch.ops.aten.add.Tensor" -> {"aten::add", "Tensor"}; ".default" is the empty overload.
bool splitOpTarget(std::string target, std::string &name, std::string &overload)
{
    if (target.rfind("torch.ops.", 0) == 0)
        target = target.substr(10);
    auto first = target.find('.');
    if (first == std::string::npos)
        return false;
    auto second = target.find('.', first + 1);
    std::string ns = target.substr(0, first);
    std::string op = target.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    overload = second == std::string::npos ? std::string() : target.substr(second + 1);
    if (overload == "default")
        overload.clear();
    name = ns + "::" + op;
    return !ns.empty() && !op.empty();
}

c10::optional<c10::ScalarType> scalarTypeFromName(const std::string &text)
{
    static const std::pair<const char *, c10::ScalarType> table[] = {{"torch.float32", at::kFloat},
        {"torch.float", at::kFloat}, {"torch.float64", at::kDouble}, {"torch.double", at::kDouble},
        {"torch.float16", at::kHalf}, {"torch.half", at::kHalf}, {"torch.bfloat16", at::kBFloat16},
        {"torch.int64", at::kLong}, {"torch.long", at::kLong}, {"torch.int32", at::kInt}, {"torch.int", at::kInt},
        {"torch.int16", at::kShort}, {"torch.int8", at::kChar}, {"torch.uint8", at::kByte}, {"torch.bool", at::kBool},
        {"torch.complex64", at::kComplexFloat}, {"torch.complex128", at::kComplexDouble}};
    for (const auto &[name, type] : table)
        if (text == name)
            return type;
    return c10::nullopt;
}

c10::optional<c10::MemoryFormat> memoryFormatFromName(const std::string &text)
{
    if (text == "torch.contiguous_format")
        return c10::MemoryFormat::Contiguous;
    if (text == "torch.channels_last")
        return c10::MemoryFormat::ChannelsLast;
    if (text == "torch.channels_last_3d")
        return c10::MemoryFormat::ChannelsLast3d;
    if (text == "torch.preserve_format")
        return c10::MemoryFormat::Preserve;
    return c10::nullopt;
}

// An FX argument as the IValue the schema argument of `type` expects; node references read `values`.
Result<c10::IValue> toIValue(const Argument &arg, const c10::TypePtr &type, const std::vector<c10::IValue> &values)
{
    using K = Argument::Kind;
    const c10::TypePtr inner = type && type->kind() == c10::TypeKind::OptionalType
        ? type->castRaw<c10::OptionalType>()->getElementType()
        : type;
    // FX passes Python numbers where a schema says Tensor (aten.add.Tensor(x, 1e-06)); PyTorch wraps them as
    // 0-dim "wrapped number" tensors so they do not promote the other operand's dtype.
    if (inner && inner->kind() == c10::TypeKind::TensorType
        && (arg.kind() == K::Int || arg.kind() == K::Float || arg.kind() == K::Bool)) {
        at::Tensor t = arg.kind() == K::Float ? at::scalar_tensor(arg.toDouble(), at::kDouble)
            : arg.kind() == K::Int            ? at::scalar_tensor(arg.toInt(), at::kLong)
                                              : at::scalar_tensor(arg.toBool(), at::kBool);
        t.unsafeGetTensorImpl()->set_wrapped_number(true);
        return c10::IValue(t);
    }
    switch (arg.kind()) {
    case K::None: return c10::IValue();
    case K::Bool: return c10::IValue(arg.toBool());
    case K::Int:
        if (inner && inner->kind() == c10::TypeKind::FloatType)
            return c10::IValue(double(arg.toInt()));
        return c10::IValue(arg.toInt());
    case K::Float: return c10::IValue(arg.toDouble());
    case K::String: return c10::IValue(arg.text());
    case K::NodeRef: return values[arg.node()->index()];
    case K::Dtype:
        if (auto t = scalarTypeFromName(arg.text()))
            return c10::IValue(*t);
        break;
    case K::Device: try { return c10::IValue(c10::Device(arg.text()));
        } catch (const std::exception &) {
            break;
        }
    case K::Layout:
        if (arg.text() == "torch.strided")
            return c10::IValue(c10::Layout::Strided);
        break;
    case K::MemoryFormat:
        if (auto f = memoryFormatFromName(arg.text()))
            return c10::IValue(*f);
        break;
    case K::List:
    case K::Tuple: {
        c10::TypePtr element = inner && inner->kind() == c10::TypeKind::ListType
            ? inner->castRaw<c10::ListType>()->getElementType()
            : nullptr;
        std::vector<c10::IValue> items;
        for (const auto &item : arg.items()) {
            auto v = toIValue(item, element, values);
            if (!v)
                return v.error();
            items.push_back(std::move(v.value()));
        }
        if (element && element->kind() == c10::TypeKind::TensorType) {
            c10::List<at::Tensor> list;
            for (auto &v : items)
                list.push_back(v.toTensor());
            return c10::IValue(list);
        }
        if (element && element->kind() == c10::TypeKind::OptionalType) {
            c10::List<c10::optional<at::Tensor>> list;
            for (auto &v : items)
                list.push_back(v.isNone() ? c10::optional<at::Tensor>() : c10::optional<at::Tensor>(v.toTensor()));
            return c10::IValue(list);
        }
        if (element && element->kind() == c10::TypeKind::FloatType) {
            std::vector<double> list;
            for (auto &v : items)
                list.push_back(v.isInt() ? double(v.toInt()) : v.toDouble());
            return c10::IValue(list);
        }
        if (element && element->kind() == c10::TypeKind::BoolType) {
            c10::List<bool> list;
            for (auto &v : items)
                list.push_back(v.toBool());
            return c10::IValue(list);
        }
        bool allInts = !items.empty() || (element && element->kind() == c10::TypeKind::IntType);
        for (auto &v : items)
            allInts = allInts && v.isInt();
        if (allInts) {
            std::vector<int64_t> list;
            for (auto &v : items)
                list.push_back(v.toInt());
            return c10::IValue(list);
        }
        return c10::IValue(c10::ivalue::Tuple::create(std::move(items)));
    }
    default: break;
    }
    return Error{{}, 0, 0, std::string("cannot pass a ") + kindName(arg.kind()) + " argument '" + arg.toPython() + "'"};
}

double scalarOf(const c10::IValue &v)
{
    return v.isInt() ? double(v.toInt()) : v.isBool() ? double(v.toBool()) : v.toDouble();
}

// Python's operator module on ints and floats (sizes and scale factors computed in the graph).
Result<c10::IValue> scalarOp(const std::string &op, const std::vector<c10::IValue> &a)
{
    bool ints = true;
    for (const auto &v : a)
        ints = ints && (v.isInt() || v.isBool());
    if (a.size() == 1) {
        if (op == "neg")
            return ints ? c10::IValue(-a[0].toInt()) : c10::IValue(-scalarOf(a[0]));
        return Error{{}, 0, 0, "unsupported unary operator." + op};
    }
    if (a.size() != 2)
        return Error{{}, 0, 0, "operator." + op + " expects two operands"};
    if (ints) {
        int64_t x = a[0].toInt(), y = a[1].toInt();
        if (op == "add")
            return c10::IValue(x + y);
        if (op == "sub")
            return c10::IValue(x - y);
        if (op == "mul")
            return c10::IValue(x * y);
        if (op == "floordiv" && y != 0)
            return c10::IValue(int64_t(std::floor(double(x) / double(y))));
        if (op == "mod" && y != 0)
            return c10::IValue(((x % y) + y) % y);
    }
    double x = scalarOf(a[0]), y = scalarOf(a[1]);
    if (op == "add")
        return c10::IValue(x + y);
    if (op == "sub")
        return c10::IValue(x - y);
    if (op == "mul")
        return c10::IValue(x * y);
    if (op == "truediv")
        return c10::IValue(x / y);
    if (op == "pow")
        return c10::IValue(std::pow(x, y));
    if (op == "floordiv")
        return c10::IValue(std::floor(x / y));
    return Error{{}, 0, 0, "unsupported operator." + op};
}

bool isReducedFloat(const at::Tensor &t)
{
    return t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16;
}

} // namespace

Result<Executor> Executor::create(const Graph &graph, c10::Device device)
{
    Executor ex(graph, device);
    const auto &nodes = graph.nodes();
    ex.m_plans.resize(nodes.size());
    ex.m_upcast.assign(nodes.size(), 0);
    std::vector<size_t> lastUse(nodes.size(), 0);
    for (const auto &n : nodes)
        for (Node *in : n->inputNodes())
            lastUse[in->index()] = std::max(lastUse[in->index()], n->index());
    for (const auto &n : nodes) {
        Plan &plan = ex.m_plans[n->index()];
        switch (n->op()) {
        case OpKind::Placeholder:
        case OpKind::GetAttr: plan.step = Step::Input; break;
        case OpKind::Output: plan.step = Step::Output; break;
        case OpKind::CallMethod:
        case OpKind::CallModule: return nodeError(*n, std::string("unsupported op kind ") + opKindName(n->op()));
        case OpKind::CallFunction: {
            const std::string &t = n->target();
            if (t == "operator.getitem" || t == "_operator.getitem") {
                plan.step = Step::GetItem;
            } else if (t.rfind("operator.", 0) == 0 || t.rfind("_operator.", 0) == 0) {
                plan.step = Step::ScalarOp;
                plan.scalarOp = t.substr(t.find('.') + 1);
            } else if (t == "torch.ops.prims.convert_element_type.default"
                || t == "prims.convert_element_type.default") {
                // prims are registered from Python only; LibTorch alone lacks them.
                plan.step = Step::Convert;
            } else {
                std::string name, overload;
                if (!splitOpTarget(t, name, overload))
                    return nodeError(*n, "unsupported op: not a torch.ops target");
                auto handle = c10::Dispatcher::singleton().findSchema({name, overload});
                if (!handle)
                    return nodeError(*n,
                        "unsupported op: " + name + (overload.empty() ? "" : "." + overload)
                            + " is not registered in LibTorch's dispatcher");
                plan.step = Step::Call;
                plan.op = *handle;
            }
            break;
        }
        }
    }
    // Intermediates are freed after their last use (graph outputs are kept by the output node's use).
    for (size_t i = 0; i < nodes.size(); ++i)
        if (!nodes[i]->users().empty())
            ex.m_plans[lastUse[i]].freeAfter.push_back(i);
    return ex;
}

Result<c10::IValue> Executor::call(const Node &node, const Plan &plan, std::vector<c10::IValue> &values) const
{
    const c10::FunctionSchema &schema = plan.op->schema();
    const auto &formals = schema.arguments();
    torch::jit::Stack stack;
    stack.reserve(formals.size());
    size_t positional = 0;
    for (const auto &formal : formals) {
        const Argument *given = nullptr;
        if (!formal.kwarg_only() && positional < node.args().size())
            given = &node.args()[positional++];
        else if (const Argument *kw = node.kwarg(formal.name()))
            given = kw;
        if (given) {
            auto v = toIValue(*given, formal.type(), values);
            if (!v)
                return nodeError(node, "argument '" + formal.name() + "': " + v.error().message);
            stack.push_back(std::move(v.value()));
        } else if (formal.default_value()) {
            stack.push_back(*formal.default_value());
        } else {
            return nodeError(node, "missing argument '" + formal.name() + "' of " + c10::toString(schema));
        }
    }
    if (positional < node.args().size())
        return nodeError(node, "too many positional arguments for " + c10::toString(schema));
    // LibTorch 1.x has no CPU kernels for many half-precision ops (mm, bmm): those run in float32 and are cast
    // back, as the device would compute them in its own reduced precision. A node that needed it once skips the
    // failing attempt afterwards.
    bool upcast = m_upcast[node.index()] != 0;
    if (!upcast) {
        torch::jit::Stack saved;
        if (m_device.is_cpu())
            saved = stack;
        try {
            plan.op->callBoxed(stack);
        } catch (const c10::Error &e) {
            std::string what = e.what_without_backtrace();
            bool reduced = false;
            for (auto &v : saved)
                reduced = reduced || (v.isTensor() && isReducedFloat(v.toTensor()));
            if (!reduced || what.find("not implemented for") == std::string::npos)
                return nodeError(node, what);
            m_upcast[node.index()] = 1;
            upcast = true;
            stack = std::move(saved);
        }
    }
    if (upcast) {
        c10::ScalarType original = at::kHalf;
        for (auto &v : stack)
            if (v.isTensor() && isReducedFloat(v.toTensor())) {
                original = v.toTensor().scalar_type();
                v = v.toTensor().to(at::kFloat);
            }
        try {
            plan.op->callBoxed(stack);
        } catch (const c10::Error &e) {
            return nodeError(node, e.what_without_backtrace());
        }
        for (auto &v : stack)
            if (v.isTensor() && v.toTensor().scalar_type() == at::kFloat)
                v = v.toTensor().to(original);
    }
    if (stack.size() == 1)
        return std::move(stack[0]);
    return c10::IValue(c10::ivalue::Tuple::create(std::move(stack)));
}

Result<std::vector<at::Tensor>> Executor::run(
    const std::unordered_map<std::string, at::Tensor> &inputs, std::vector<double> *nodeMicros) const
{
    const auto &nodes = m_graph->nodes();
    std::vector<c10::IValue> values(nodes.size());
    std::vector<at::Tensor> outputs;
    if (nodeMicros)
        nodeMicros->assign(nodes.size(), 0.0);
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node &node = *nodes[i];
        const Plan &plan = m_plans[i];
        auto start = std::chrono::steady_clock::now();
        switch (plan.step) {
        case Step::Input: {
            auto it = inputs.find(node.name());
            if (it == inputs.end())
                return nodeError(node, "no input value given");
            values[i] = it->second;
            break;
        }
        case Step::Call: {
            auto v = call(node, plan, values);
            if (!v)
                return v.error();
            values[i] = std::move(v.value());
            break;
        }
        case Step::Convert: {
            if (node.args().size() < 2 || !node.args()[0].isNode() || node.args()[1].kind() != Argument::Kind::Dtype)
                return nodeError(node, "expected (tensor, dtype)");
            auto type = scalarTypeFromName(node.args()[1].text());
            if (!type)
                return nodeError(node, "unknown dtype " + node.args()[1].text());
            values[i] = values[node.args()[0].node()->index()].toTensor().to(*type);
            break;
        }
        case Step::GetItem: {
            if (node.args().size() != 2 || !node.args()[0].isNode() || node.args()[1].kind() != Argument::Kind::Int)
                return nodeError(node, "expected (node, index)");
            const c10::IValue &from = values[node.args()[0].node()->index()];
            int64_t k = node.args()[1].toInt();
            if (from.isTuple()) {
                const auto &elems = from.toTupleRef().elements();
                if (k < 0)
                    k += int64_t(elems.size());
                if (k < 0 || size_t(k) >= elems.size())
                    return nodeError(node, "index out of range");
                values[i] = elems[size_t(k)];
            } else if (from.isList()) {
                auto list = from.toList();
                if (k < 0)
                    k += int64_t(list.size());
                if (k < 0 || size_t(k) >= list.size())
                    return nodeError(node, "index out of range");
                values[i] = list.get(size_t(k));
            } else if (from.isIntList()) {
                auto list = from.toIntVector();
                if (k < 0)
                    k += int64_t(list.size());
                if (k < 0 || size_t(k) >= list.size())
                    return nodeError(node, "index out of range");
                values[i] = list[size_t(k)];
            } else {
                return nodeError(node, "getitem on a value that is not a tuple or list");
            }
            break;
        }
        case Step::ScalarOp: {
            std::vector<c10::IValue> operands;
            for (const auto &a : node.args()) {
                auto v = toIValue(a, nullptr, values);
                if (!v)
                    return nodeError(node, v.error().message);
                operands.push_back(std::move(v.value()));
            }
            auto v = scalarOp(plan.scalarOp, operands);
            if (!v)
                return nodeError(node, v.error().message);
            values[i] = std::move(v.value());
            break;
        }
        case Step::Output: {
            if (!node.args().empty())
                node.args()[0].forEachNode([&](Node *n) {
                    const c10::IValue &v = values[n->index()];
                    if (v.isTensor())
                        outputs.push_back(v.toTensor());
                });
            break;
        }
        case Step::Skip: break;
        }
        if (nodeMicros)
            (*nodeMicros)[i]
                = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        for (size_t dead : plan.freeAfter)
            values[dead] = c10::IValue();
    }
    return outputs;
}

} // namespace fxs
