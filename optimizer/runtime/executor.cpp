#include "executor.h"

#include "autocast_scope.h"
#include "flex_attention.h"
#include "op_fallbacks.h"
#include "stand_in_kernels.h"
#include "util/progress.h"

#include <ATen/ATen.h>
#include <ATen/TensorIndexing.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <unordered_set>

namespace fxs {

namespace {

Error nodeError(const Node &node, const std::string &what)
{
    return Error{{}, node.meta().dumpLine, 0, "node '" + node.name() + "' (" + node.target() + "): " + what};
}

// A Python index of a Dynamo graph's x[...] (ints, slices, Ellipsis, None, bools, tensors, a tuple of them) as
// LibTorch's TensorIndex list, which follows Python's indexing rules; an error names what it cannot take.
Result<std::vector<at::indexing::TensorIndex>> tensorIndices(
    const Node &node, const Argument &index, const std::vector<c10::IValue> &values)
{
    using at::indexing::TensorIndex;
    std::vector<TensorIndex> out;
    auto bound = [&](const Argument &a) -> std::optional<c10::optional<c10::SymInt>> {
        if (a.isNone())
            return c10::optional<c10::SymInt>();
        if (a.kind() == Argument::Kind::Int)
            return c10::optional<c10::SymInt>(c10::SymInt(a.toInt()));
        if (a.isNode() && values[a.node()->index()].isInt())
            return c10::optional<c10::SymInt>(c10::SymInt(values[a.node()->index()].toInt()));
        return std::nullopt;
    };
    const std::vector<Argument> one = {index};
    for (const Argument &a : index.kind() == Argument::Kind::Tuple ? index.items() : one) {
        switch (a.kind()) {
        case Argument::Kind::None: out.emplace_back(at::indexing::None); continue;
        case Argument::Kind::Ellipsis: out.emplace_back(at::indexing::Ellipsis); continue;
        case Argument::Kind::Bool: out.emplace_back(a.toBool()); continue;
        case Argument::Kind::Int: out.emplace_back(a.toInt()); continue;
        case Argument::Kind::Slice: {
            auto start = bound(a.items()[0]), stop = bound(a.items()[1]), step = bound(a.items()[2]);
            if (!start || !stop || !step)
                return nodeError(node, "expected int or None bounds in the slice " + a.toFxText());
            out.emplace_back(at::indexing::Slice(*start, *stop, *step));
            continue;
        }
        case Argument::Kind::NodeRef: {
            const c10::IValue &v = values[a.node()->index()];
            if (v.isTensor())
                out.emplace_back(v.toTensor());
            else if (v.isInt())
                out.emplace_back(v.toInt());
            else
                return nodeError(node, "expected a tensor or an int as index, found " + a.toFxText());
            continue;
        }
        default: return nodeError(node, "expected an index (int, slice, ..., None, tensor), found " + a.toFxText());
        }
    }
    return out;
}

// A LibTorch error as one line. The dispatcher's "Could not run 'aten::X' with arguments from the 'CPU' backend"
// is a 15-line dump of its tables; what a user needs is which op lacks a kernel here and where it has one.
std::string oneLine(const c10::Error &e)
{
    std::string what = e.what_without_backtrace();
    static const std::string couldNotRun = "Could not run '";
    if (what.rfind(couldNotRun, 0) == 0) {
        const size_t opEnd = what.find('\'', couldNotRun.size());
        const size_t keyStart = what.find("from the '");
        const size_t keyEnd = keyStart == std::string::npos ? keyStart : what.find('\'', keyStart + 10);
        if (opEnd != std::string::npos && keyEnd != std::string::npos) {
            std::string line = "this LibTorch has no " + what.substr(keyStart + 10, keyEnd - keyStart - 10)
                + " kernel for " + what.substr(couldNotRun.size(), opEnd - couldNotRun.size());
            // "... is only available for these backends: [CUDA, Meta, BackendSelect, Python, ...]": the devices.
            const size_t list = what.find("these backends: [");
            const size_t listEnd = list == std::string::npos ? list : what.find(']', list);
            if (listEnd != std::string::npos) {
                static const char *const notDevices[] = {"Meta", "BackendSelect", "Python", "Functionalize", "Named",
                    "Conjugate", "Negative", "ZeroTensor", "ADInplaceOrView", "Tracer", "Batched", "VmapMode",
                    "PreDispatch", "PythonTLSSnapshot", "PythonDispatcher", "Autograd", "Autocast", "FuncTorch"};
                std::string devices, item;
                std::istringstream items(what.substr(list + 17, listEnd - list - 17));
                while (std::getline(items, item, ',')) {
                    item.erase(0, item.find_first_not_of(' '));
                    bool device = !item.empty();
                    for (const char *prefix : notDevices)
                        device = device && item.rfind(prefix, 0) != 0;
                    if (device)
                        devices += (devices.empty() ? "" : ", ") + item;
                }
                line += devices.empty() ? " (no device of this build has one)" : " (it has kernels for " + devices + ")";
            }
            return line;
        }
    }
    what = what.substr(0, what.find("\n\n")); // the first paragraph; tables and hints follow the blank line
    std::replace(what.begin(), what.end(), '\n', ' ');
    return what;
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
        {"torch.complex64", at::kComplexFloat}, {"torch.complex128", at::kComplexDouble},
        {"torch.float8_e4m3fn", at::kFloat8_e4m3fn}, {"torch.float8_e5m2", at::kFloat8_e5m2},
        {"torch.float8_e4m3fnuz", at::kFloat8_e4m3fnuz}, {"torch.float8_e5m2fnuz", at::kFloat8_e5m2fnuz}};
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
// Device arguments name the device the graph was captured on; the graph runs on `device` instead.
Result<c10::IValue> toIValue(
    const Argument &arg, const c10::TypePtr &type, const std::vector<c10::IValue> &values, c10::Device device)
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
        if (inner && inner->kind() == c10::TypeKind::ListType) // int[1] dim=1
            return c10::IValue(std::vector<int64_t>{arg.toInt()});
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
    case K::Device: return c10::IValue(device);
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
            auto v = toIValue(item, element, values, device);
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
        if (op == "sym_int")
            return ints ? a[0] : c10::IValue(int64_t(scalarOf(a[0])));
        if (op == "sym_float")
            return c10::IValue(scalarOf(a[0]));
        if (op == "not_")
            return c10::IValue(scalarOf(a[0]) == 0);
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
    // Comparisons of sizes (guards and runtime asserts on symbols: u0 >= 0).
    if (op == "eq")
        return c10::IValue(x == y);
    if (op == "ne")
        return c10::IValue(x != y);
    if (op == "lt")
        return c10::IValue(x < y);
    if (op == "le")
        return c10::IValue(x <= y);
    if (op == "gt")
        return c10::IValue(x > y);
    if (op == "ge")
        return c10::IValue(x >= y);
    if (op == "sym_max" || op == "sym_min") {
        bool first = op == "sym_max" ? x >= y : x <= y;
        return first ? a[0] : a[1];
    }
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

// Every overload of aten::<name>, the default overload first.
std::vector<c10::OperatorHandle> atenOverloads(const std::string &name)
{
    static const auto byName = [] {
        std::unordered_map<std::string, std::vector<c10::OperatorName>> map;
        for (const auto &op : c10::Dispatcher::singleton().getAllOpNames())
            if (op.name.rfind("aten::", 0) == 0)
                map[op.name.substr(6)].push_back(op);
        return map;
    }();
    std::vector<c10::OperatorHandle> out;
    auto it = byName.find(name);
    if (it == byName.end())
        return out;
    std::vector<c10::OperatorName> names = it->second;
    std::stable_sort(names.begin(), names.end(), [](const c10::OperatorName &a, const c10::OperatorName &b) {
        return a.overload_name.empty() > b.overload_name.empty();
    });
    for (const auto &n : names)
        if (auto handle = c10::Dispatcher::singleton().findSchema(n))
            out.push_back(*handle);
    return out;
}

// Whether an FX argument fits a schema argument's type without conversion (for choosing an overload: a Python
// number does not pick a Tensor overload when a Scalar one exists).
bool fits(const Argument &arg, const c10::TypePtr &type, const std::vector<c10::IValue> &values)
{
    using K = Argument::Kind;
    c10::TypePtr t = type;
    if (t->kind() == c10::TypeKind::OptionalType) {
        if (arg.kind() == K::None)
            return true;
        t = t->castRaw<c10::OptionalType>()->getElementType();
    }
    const c10::IValue *v = arg.kind() == K::NodeRef ? &values[arg.node()->index()] : nullptr;
    switch (t->kind()) {
    case c10::TypeKind::TensorType: return v && v->isTensor();
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType:
        return arg.kind() == K::Int || arg.kind() == K::Dtype || arg.kind() == K::Layout
            || arg.kind() == K::MemoryFormat || (v && v->isInt());
    case c10::TypeKind::FloatType:
        return arg.kind() == K::Float || arg.kind() == K::Int || (v && (v->isDouble() || v->isInt()));
    case c10::TypeKind::BoolType: return arg.kind() == K::Bool || (v && v->isBool());
    case c10::TypeKind::NumberType:
        return arg.kind() == K::Int || arg.kind() == K::Float || arg.kind() == K::Bool
            || (v && (v->isInt() || v->isDouble() || v->isBool()));
    case c10::TypeKind::StringType: return arg.kind() == K::String;
    case c10::TypeKind::DeviceObjType: return arg.kind() == K::Device;
    case c10::TypeKind::ListType: {
        if (v)
            return v->isList() || v->isIntList() || v->isTensorList();
        if (arg.kind() == K::Int) // int[1] dim=1
            return true;
        if (arg.kind() != K::List && arg.kind() != K::Tuple)
            return false;
        c10::TypePtr element = t->castRaw<c10::ListType>()->getElementType();
        for (const auto &item : arg.items())
            if (!fits(item, element, values))
                return false;
        return true;
    }
    default: return true;
    }
}

bool bindable(const Node &node, const std::vector<Argument> &args, const c10::FunctionSchema &schema,
    const std::vector<c10::IValue> &values)
{
    size_t positional = 0;
    size_t kwargsUsed = 0;
    for (const auto &formal : schema.arguments()) {
        const Argument *given = nullptr;
        if (!formal.kwarg_only() && positional < args.size())
            given = &args[positional++];
        else if ((given = node.kwarg(formal.name())))
            ++kwargsUsed;
        if (given ? !fits(*given, formal.type(), values) : !formal.default_value())
            return false;
    }
    // torch.nn.functional's inplace=False has no aten argument: the out-of-place op is what it asks for.
    const Argument *inplace = node.kwarg("inplace");
    if (inplace && inplace->kind() == Argument::Kind::Bool && !inplace->toBool()
        && !schema.argumentIndexWithName("inplace"))
        ++kwargsUsed;
    return positional == args.size() && kwargsUsed == node.kwargs().size() && !schema.is_vararg();
}

// The aten op of a Python operator applied to tensors (operator.truediv -> aten::div).
std::string atenNameOfOperator(const std::string &op)
{
    static const std::pair<const char *, const char *> table[]
        = {{"truediv", "div"}, {"floordiv", "floor_divide"}, {"mod", "remainder"}, {"and_", "bitwise_and"},
            {"or_", "bitwise_or"}, {"xor", "bitwise_xor"}, {"invert", "bitwise_not"}, {"inv", "bitwise_not"},
            {"not_", "logical_not"}, {"lshift", "bitwise_left_shift"}, {"rshift", "bitwise_right_shift"}};
    for (const auto &[python, aten] : table)
        if (op == python)
            return aten;
    return op; // add, sub, mul, pow, neg, matmul, eq, ne, lt, le, gt, ge, abs
}

// The nested graph an argument names: a get_attr node of the graph whose target is one of its subgraphs.
const Graph *nestedGraph(const Graph &graph, const Argument &arg)
{
    if (!arg.isNode() || arg.node()->op() != OpKind::GetAttr)
        return nullptr;
    return graph.subgraph(arg.node()->target());
}

bool isTarget(const std::string &target, const char *name)
{
    return target == name || target == std::string("torch.ops.") + name;
}

// The name `parent` knows `sub` by ("wrap_body_0"), for errors.
std::string nestedGraphName(const Graph &parent, const Graph &sub)
{
    for (const auto &[name, graph] : parent.subgraphs())
        if (graph.get() == &sub)
            return name;
    return "?";
}

// An error inside a nested graph keeps the inner node's line, so FILE:LINE:COL points at that node in the dump
// (nested graphs are classes of their own there), and says which outer node ran the graph; levels of nesting add
// one clause each, innermost first. An inner error without a line stays on the outer node.
Error nestedError(const Node &outer, const std::string &graphName, const Error &inner)
{
    std::string where = "in nested graph '" + graphName + "'";
    if (inner.line <= 0)
        return nodeError(outer, where + ": " + inner.message);
    Error located = inner;
    located.message += "; " + where + " of node '" + outer.name() + "' (" + outer.target() + ")";
    if (outer.meta().dumpLine > 0)
        located.message += " at line " + std::to_string(outer.meta().dumpLine);
    return located;
}

// wrap_with_autocast(device_type, dtype, enabled, cache_enabled, body, *operands). The graph's tensors all live on
// the run's device (device arguments name it instead of the capture's), so the autocast state is set for the run's
// device type: on the CPU a region captured as autocast('cuda', torch.float16) computes in float16 as it did there.
Result<AutocastSpec> autocastSpecOf(const Node &node, c10::Device device)
{
    using K = Argument::Kind;
    const auto &a = node.args();
    if (a.size() < 5 || a[0].kind() != K::String || (a[1].kind() != K::Dtype && a[1].kind() != K::None)
        || a[2].kind() != K::Bool || (a[3].kind() != K::Bool && a[3].kind() != K::None))
        return nodeError(node,
            "expected (device_type: str, dtype: dtype or None, enabled: bool, cache_enabled: bool or None, body, "
            "*operands)");
    if (!node.kwargs().empty())
        return nodeError(node, "expected the body's operands as positional arguments, found keyword arguments");
    AutocastSpec spec;
    spec.device = device.type();
    if (auto supported = AutocastScope::supports(spec.device); !supported)
        return nodeError(node, supported.error().message);
    if (a[1].kind() == K::Dtype) {
        spec.dtype = scalarTypeFromName(a[1].text());
        if (!spec.dtype)
            return nodeError(node, "unknown dtype " + a[1].text());
    }
    spec.enabled = a[2].toBool();
    if (a[3].kind() == K::Bool)
        spec.cacheEnabled = a[3].toBool();
    return spec;
}

} // namespace

Status Executor::planNested(const Node &node, Plan &plan, const std::vector<std::string> &graphs, size_t firstOperand)
{
    for (const auto &name : graphs) {
        const Graph *sub = m_graph->subgraph(name);
        if (!sub)
            return nodeError(node, "no nested graph named '" + name + "' in the dump");
        const Executor *found = nullptr;
        for (const auto &e : m_nested)
            if (e->m_graph == sub)
                found = e.get();
        if (!found) {
            auto created = Executor::create(*sub, m_device);
            if (!created)
                return nestedError(node, name, created.error());
            m_nested.push_back(std::make_shared<Executor>(std::move(created.value())));
            found = m_nested.back().get();
        }
        plan.branches.push_back(found);
    }
    plan.firstOperand = firstOperand;
    return Ok{};
}

Result<Executor> Executor::create(const Graph &graph, c10::Device device)
{
    registerOpFallbacks(); // before operators are looked up by schema
    registerStandIns(device);
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
            plan.step = Step::Input;
            plan.intInput = n->meta().val && n->meta().val->kind == ValueMeta::Kind::SymInt;
            break;
        case OpKind::GetAttr:
            plan.step = graph.subgraph(n->target()) || n->users().empty() ? Step::Skip : Step::Input; // see graphInputs
            break;
        case OpKind::Output: plan.step = Step::Output; break;
        case OpKind::CallMethod: {
            // Tensor methods (Dynamo-level graphs): aten's op of the same name, overload chosen by the arguments.
            if (n->target() == "size" && n->args().size() == 1 && n->kwargs().empty()) {
                plan.step = Step::Sizes;
                break;
            }
            plan.candidates = atenOverloads(n->target());
            plan.args = n->args();
            if (plan.candidates.empty())
                return nodeError(*n, "unsupported method: aten has no op named '" + n->target() + "'");
            plan.step = Step::Resolve;
            break;
        }
        case OpKind::CallModule:
            // A submodule whose graph the dump carries (print_readable's nested classes) runs as a nested graph.
            if (n->target() == "_guards_fn" && n->users().empty()) {
                // torch.export's input guard check: the inputs here are made from the meta it guards.
                plan.step = Step::Skip;
                break;
            }
            if (!graph.subgraph(n->target()))
                return nodeError(*n, "unsupported op kind call_module: the graph dump carries no module to run");
            if (auto planned = ex.planNested(*n, plan, {n->target()}, 0); !planned)
                return planned.error();
            plan.step = Step::Nested;
            break;
        case OpKind::CallFunction: {
            const std::string &t = n->target();
            std::string opName, opOverload;
            // Empty for torch.* functions (torch.matmul), which are not namespace.op.overload targets.
            if ((t.rfind("torch.", 0) != 0 || t.rfind("torch.ops.", 0) == 0) && !splitOpTarget(t, opName, opOverload))
                opName.clear();
            if (opName == "aten::sym_size" || opName == "aten::sym_numel" || opName == "aten::sym_stride"
                || opName == "aten::sym_storage_offset") {
                // Sizes as SymInts: LibTorch 1.x has no such ops, and they are facts of the tensor anyway.
                plan.step = Step::TensorFact;
                plan.scalarOp = opName.substr(6);
            } else if (opName == "aten::_assert_scalar") {
                plan.step = Step::AssertScalar; // LibTorch 1.x lacks it
            } else if (opName == "aten::sym_constrain_range" || opName == "aten::sym_constrain_range_for_size") {
                plan.step = Step::Skip; // range hints for the compiler; nothing to compute
            } else if (isTarget(t, "higher_order.cond")) {
                // cond(pred, true_graph, false_graph, operands)
                const Graph *onTrue = n->args().size() == 4 ? nestedGraph(graph, n->args()[1]) : nullptr;
                const Graph *onFalse = n->args().size() == 4 ? nestedGraph(graph, n->args()[2]) : nullptr;
                if (!onTrue || !onFalse)
                    return nodeError(
                        *n, "expected (pred, true_graph, false_graph, operands) with both graphs in the dump");
                if (auto planned
                    = ex.planNested(*n, plan, {n->args()[1].node()->target(), n->args()[2].node()->target()}, 3);
                    !planned)
                    return planned.error();
                plan.step = Step::Cond;
            } else if (isTarget(t, "higher_order.wrap") || isTarget(t, "higher_order.wrap_with_set_grad_enabled")) {
                // wrap(body, *operands); wrap_with_set_grad_enabled(enabled, body, *operands): the run is in
                // inference mode, so the grad mode changes nothing here.
                const size_t body = isTarget(t, "higher_order.wrap") ? 0 : 1;
                if (n->args().size() <= body || !nestedGraph(graph, n->args()[body]))
                    return nodeError(*n, "expected the wrapped graph as argument " + std::to_string(body));
                if (auto planned = ex.planNested(*n, plan, {n->args()[body].node()->target()}, body + 1); !planned)
                    return planned.error();
                plan.step = Step::Nested;
            } else if (isTarget(t, "higher_order.wrap_with_autocast")) {
                auto spec = autocastSpecOf(*n, device);
                if (!spec)
                    return spec.error();
                if (!nestedGraph(graph, n->args()[4]))
                    return nodeError(*n, "expected the wrapped graph as argument 4");
                if (auto planned = ex.planNested(*n, plan, {n->args()[4].node()->target()}, 5); !planned)
                    return planned.error();
                plan.step = Step::Nested;
                ex.m_autocast.emplace(n->index(), spec.value());
            } else if (isTarget(t, "higher_order.flex_attention")) {
                // flex_attention(query, key, value, score_mod, block_mask (..., mask_mod), scale, kernel_options,
                // score_mod_other_buffers, mask_mod_other_buffers): PyTorch's eager math, mods from the dump.
                const auto &a = n->args();
                const Argument *maskArg
                    = a.size() >= 6 && a[4].isSequence() && !a[4].items().empty() ? &a[4].items().back() : nullptr;
                const Graph *score = a.size() >= 6 ? nestedGraph(graph, a[3]) : nullptr;
                const Graph *mask = maskArg ? nestedGraph(graph, *maskArg) : nullptr;
                if (!maskArg)
                    return nodeError(
                        *n, "expected (query, key, value, score_mod, block_mask ending in mask_mod, scale, ...)");
                if (!score || !mask) {
                    const Argument &missing = score ? *maskArg : a[3];
                    return nodeError(*n,
                        std::string("the dump carries no graph for its ") + (score ? "mask_mod" : "score_mod") + " '"
                            + (missing.isNode() ? missing.node()->name() : missing.toPython()) + "'");
                }
                for (const auto &[mod, role] : {std::pair{score, "score_mod"}, std::pair{mask, "mask_mod"}})
                    if (auto elementwise = checkElementwiseMod(*mod, role); !elementwise)
                        return nestedError(*n, nestedGraphName(graph, *mod), elementwise.error());
                if (auto planned = ex.planNested(*n, plan, {a[3].node()->target(), maskArg->node()->target()}, 0);
                    !planned)
                    return planned.error();
                plan.step = Step::Nested;
                ex.m_flexAttention.insert(n->index());
            } else if (t == "torch.sym_max" || t == "torch.sym_min" || t == "torch.sym_int" || t == "torch.sym_float"
                || t == "torch.sym_not") {
                plan.step = Step::ScalarOp;
                plan.scalarOp = t == "torch.sym_not" ? "not_" : t.substr(6);
            } else if (t == "operator.getitem" || t == "_operator.getitem") {
                plan.step = Step::GetItem;
            } else if (t == "operator.setitem" || t == "_operator.setitem") {
                plan.step = Step::SetItem;
            } else if (t.rfind("operator.", 0) == 0 || t.rfind("_operator.", 0) == 0) {
                plan.step = Step::ScalarOp;
                plan.scalarOp = t.substr(t.find('.') + 1);
            } else if (t == "torch.ops.prims.convert_element_type.default"
                || t == "prims.convert_element_type.default") {
                // prims are registered from Python only; LibTorch alone lacks them.
                plan.step = Step::Convert;
            } else if (t == "torch.ops.prims.iota.default" || t == "prims.iota.default") {
                plan.step = Step::Iota;
            } else if (t == "torch._C._set_grad_enabled") {
                // Dynamo's torch.no_grad() regions: the whole run is in inference mode, so grad mode changes nothing.
                plan.step = Step::Skip;
            } else if (t.rfind("torch.ops.", 0) != 0 && t.rfind("torch.", 0) == 0) {
                // torch.matmul, torch.nn.functional.relu, torch._C._nn.linear: the aten op of the last name.
                plan.candidates = atenOverloads(t.substr(t.rfind('.') + 1));
                if (plan.candidates.empty())
                    plan.candidates = functionFallbacks(t.substr(t.rfind('.') + 1));
                plan.args = n->args();
                if (plan.candidates.empty())
                    return nodeError(*n, "unsupported op: aten has no op for " + t);
                plan.step = Step::Resolve;
            } else {
                if (opName.empty())
                    return nodeError(*n, "unsupported op: not a torch.ops target");
                auto handle = c10::Dispatcher::singleton().findSchema({opName, opOverload});
                if (!handle)
                    return nodeError(*n,
                        "unsupported op: " + opName + (opOverload.empty() ? "" : "." + opOverload)
                            + " is not registered in LibTorch's dispatcher");
                plan.step = Step::Call;
                plan.op = *handle;
                plan.outOp = OutputBufferPool::outVariant(*handle, device);
                if (auto bound = ex.bind(*n, plan); !bound)
                    return bound.error();
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

Status Executor::bind(const Node &node, Plan &plan) const
{
    const c10::FunctionSchema &schema = plan.op->schema();
    const std::vector<Argument> &args = plan.candidates.empty() ? node.args() : plan.args;
    std::vector<c10::IValue> none;
    size_t positional = 0;
    plan.bindings.clear();
    for (const auto &formal : schema.arguments()) {
        Binding b;
        if (!formal.kwarg_only() && positional < args.size())
            b.arg = &args[positional++];
        else
            b.arg = node.kwarg(formal.name());
        if (!b.arg && !formal.default_value())
            return nodeError(node, "missing argument '" + formal.name() + "' of " + c10::toString(schema));
        bool refersToNodes = false;
        if (b.arg)
            b.arg->forEachNode([&](Node *) { refersToNodes = true; });
        if (!b.arg) {
            b.constant = *formal.default_value();
        } else if (!refersToNodes) {
            // Literals convert once, not per run (a wrapped-number tensor per call was most of a small op's cost).
            auto v = toIValue(*b.arg, formal.type(), none, m_device);
            if (!v)
                return nodeError(node, "argument '" + formal.name() + "': " + v.error().message);
            b.constant = std::move(v.value());
            if (m_device.is_cpu() && b.constant.isTensor()
                && b.constant.toTensor().unsafeGetTensorImpl()->is_wrapped_number()) {
                b.wrappedNumber = b.constant;
                plan.hasWrappedNumbers = true;
            }
        } else {
            b.type = formal.type();
            b.tensorParam = b.type->kind() == c10::TypeKind::TensorType;
            if (b.arg->kind() == Argument::Kind::NodeRef)
                b.value = b.arg->node()->index();
        }
        plan.bindings.push_back(std::move(b));
    }
    if (positional < args.size())
        return nodeError(node, "too many positional arguments for " + c10::toString(schema));
    return Ok{};
}

void Executor::convertWrappedNumbers(Plan &plan, const std::vector<c10::IValue> &values) const
{
    // The dtype of the op's tensor operands, when they share one.
    c10::optional<c10::ScalarType> dtype;
    bool shared = true;
    for (const Binding &b : plan.bindings)
        if (b.value != Binding::kNoValue && values[b.value].isTensor()) {
            c10::ScalarType t = values[b.value].toTensor().scalar_type();
            shared = shared && (!dtype || *dtype == t);
            dtype = t;
        }
    if (!shared)
        dtype = c10::nullopt;
    if (dtype == plan.wrappedNumbersAs)
        return;
    plan.wrappedNumbersAs = dtype;
    for (Binding &b : plan.bindings) {
        if (!b.wrappedNumber.isTensor())
            continue;
        const at::Tensor &number = b.wrappedNumber.toTensor();
        // A number of the operands' kind takes their dtype in type promotion: TensorIterator would convert it to
        // exactly that, per call. Another kind (x_int * 0.5) promotes, so it stays as it is; half-precision
        // operands may run upcast (invoke), so their numbers stay too.
        const bool sameKind = dtype && *dtype != at::kHalf && *dtype != at::kBFloat16
            && ((c10::isFloatingType(*dtype) && c10::isFloatingType(number.scalar_type()))
                || (c10::isIntegralType(*dtype, false) && c10::isIntegralType(number.scalar_type(), false)));
        if (!sameKind) {
            b.constant = b.wrappedNumber;
            continue;
        }
        at::Tensor converted = number.to(*dtype);
        converted.unsafeGetTensorImpl()->set_wrapped_number(true);
        b.constant = converted;
    }
}

Result<c10::IValue> Executor::call(const Node &node, const Plan &plan, std::vector<c10::IValue> &values) const
{
    const size_t index = size_t(&plan - m_plans.data()); // not node.index(): no visit to the node's memory
    Plan &planState = m_plans[index]; // what runs learn: the numbers' dtype, the output's shape
    if (plan.hasWrappedNumbers)
        convertWrappedNumbers(planState, values);
    // One stack for every call: its capacity stays, so a call allocates no vector.
    torch::jit::Stack &stack = m_stack;
    stack.clear();
    for (const Binding &b : plan.bindings) {
        if (!b.type) {
            stack.push_back(b.constant);
            continue;
        }
        if (b.value != Binding::kNoValue) {
            const c10::IValue &v = values[b.value];
            if ((v.isInt() || v.isDouble()) && b.tensorParam) {
                // A size computed in the graph (SymInt) where the schema takes a Tensor: a wrapped number, as
                // PyTorch passes Python numbers.
                at::Tensor t = v.isInt() ? at::scalar_tensor(v.toInt(), at::kLong)
                                         : at::scalar_tensor(v.toDouble(), at::kDouble);
                t.unsafeGetTensorImpl()->set_wrapped_number(true);
                stack.push_back(c10::IValue(t));
                continue;
            }
            stack.push_back(v);
            continue;
        }
        auto v = toIValue(*b.arg, b.type, values, m_device);
        if (!v)
            return nodeError(node, v.error().message);
        stack.push_back(std::move(v.value()));
    }
    if (plan.outDtype) {
        // A buffer freed earlier in this run, of the output's shape: the out= variant writes into it.
        if (at::Tensor buffer = m_buffers.take(plan.outSizes, *plan.outDtype, m_device); buffer.defined()) {
            stack.push_back(std::move(buffer));
            try {
                plan.outOp->callBoxed(stack);
            } catch (const c10::Error &e) {
                return nodeError(node, oneLine(e));
            }
            c10::IValue result = std::move(stack[0]);
            stack.clear();
            return result;
        }
    }
    const bool firstRun = plan.outOp && !plan.outDtype && !m_upcast[index];
    std::vector<const void *> inputStorages;
    if (firstRun)
        for (const auto &v : stack)
            if (v.isTensor() && v.toTensor().has_storage())
                inputStorages.push_back(v.toTensor().storage().unsafeGetStorageImpl());
    auto out = invoke(node, plan, stack);
    stack.clear(); // holds no tensor past the call (liveness, freeing after last use)
    if (firstRun && out && out->isTensor() && !m_upcast[index]) {
        // Later runs may write this node's output into a freed buffer, if it is a fresh dense tensor: an op
        // that returned (a view of) an input keeps allocating.
        const at::Tensor &t = out->toTensor();
        const void *storage = t.has_storage() ? t.storage().unsafeGetStorageImpl() : nullptr;
        if (storage && t.is_contiguous() && t.storage_offset() == 0 && t.device().type() == m_device.type()
            && std::find(inputStorages.begin(), inputStorages.end(), storage) == inputStorages.end()) {
            planState.outSizes.assign(t.sizes().begin(), t.sizes().end());
            planState.outDtype = t.scalar_type();
        }
    }
    return out;
}

Result<c10::IValue> Executor::invoke(const Node &node, const Plan &plan, torch::jit::Stack &stack) const
{
    // LibTorch 1.x has no CPU kernels for many half-precision ops (mm, bmm): those run in float32 and are cast
    // back, as the device would compute them in its own reduced precision (also on a device that forwards to CPU). A
    // node that needed it once skips the failing attempt afterwards.
    const size_t index = size_t(&plan - m_plans.data()); // not node.index(): no visit to the node's memory
    bool upcast = m_upcast[index] != 0;
    if (!upcast) {
        bool reduced = false;
        for (auto &v : stack)
            reduced = reduced || (v.isTensor() && isReducedFloat(v.toTensor()));
        torch::jit::Stack saved;
        if (reduced)
            saved = stack;
        try {
            plan.op->callBoxed(stack);
        } catch (const c10::Error &e) {
            std::string what = oneLine(e);
            if (!reduced || what.find("not implemented for") == std::string::npos)
                return nodeError(node, what);
            m_upcast[index] = 1;
            upcast = true;
            stack = std::move(saved);
        }
    }
    if (upcast) {
        c10::optional<c10::ScalarType> original;
        for (auto &v : stack)
            if (v.isTensor() && isReducedFloat(v.toTensor())) {
                original = v.toTensor().scalar_type();
                v = v.toTensor().to(at::kFloat);
            }
        try {
            plan.op->callBoxed(stack);
        } catch (const c10::Error &e) {
            return nodeError(node, oneLine(e));
        }
        for (auto &v : stack)
            if (original && v.isTensor() && v.toTensor().scalar_type() == at::kFloat)
                v = v.toTensor().to(*original);
    }
    if (stack.size() == 1)
        return std::move(stack[0]);
    return c10::IValue(c10::ivalue::Tuple::create(std::move(stack)));
}

namespace {

// Bytes held by computed values, counted once per storage (views share their base's), for the liveness peak.
class LiveBytes {
public:
    // Inputs and weights (and views of them) are not intermediates.
    void exclude(const c10::IValue &v)
    {
        if (v.isTensor() && v.toTensor().defined() && v.toTensor().has_storage())
            m_excluded.insert(v.toTensor().storage().unsafeGetStorageImpl());
    }
    void add(const c10::IValue &v) { visit(v, +1); }
    void remove(const c10::IValue &v) { visit(v, -1); }
    int64_t peak() const { return m_peak; }

private:
    void visit(const c10::IValue &v, int delta)
    {
        if (v.isTensor()) {
            const at::Tensor &t = v.toTensor();
            if (!t.defined() || !t.has_storage() || m_excluded.count(t.storage().unsafeGetStorageImpl()))
                return;
            int &count = m_storages[t.storage().unsafeGetStorageImpl()];
            if ((delta > 0 && count++ == 0) || (delta < 0 && --count == 0)) {
                m_current += delta * int64_t(t.storage().nbytes());
                m_peak = std::max(m_peak, m_current);
            }
            if (count == 0)
                m_storages.erase(t.storage().unsafeGetStorageImpl());
        } else if (v.isTuple()) {
            for (const auto &e : v.toTupleRef().elements())
                visit(e, delta);
        } else if (v.isTensorList()) {
            for (const at::Tensor &t : v.toTensorVector())
                visit(c10::IValue(t), delta);
        }
    }
    std::unordered_map<const c10::StorageImpl *, int> m_storages;
    std::unordered_set<const c10::StorageImpl *> m_excluded;
    int64_t m_current = 0;
    int64_t m_peak = 0;
};

} // namespace

Result<c10::IValue> Executor::resolveAndCall(const Node &node, std::vector<c10::IValue> &values) const
{
    const size_t i = node.index();
    const Plan &plan = m_plans[i];
    // The first overload the arguments fit, chosen on the first run and kept.
    if (!plan.op) {
        // As given, else with trailing ints as one list: x.view(2, 8) is view(x, [2, 8]) but
        // x.transpose(0, 1) is transpose(x, 0, 1). Under dynamic shapes the ints are nodes (sym_size, floordiv)
        // or symbols: x.view(s0, s1, 4, 8).
        std::vector<std::vector<Argument>> forms = {plan.args};
        auto isInt = [&](const Argument &a) {
            return a.kind() == Argument::Kind::Int || a.kind() == Argument::Kind::SymExpr
                || (a.kind() == Argument::Kind::NodeRef && values[a.node()->index()].isInt());
        };
        bool trailingInts = plan.args.size() > 2;
        for (size_t k = 1; k < plan.args.size(); ++k)
            trailingInts = trailingInts && isInt(plan.args[k]);
        if (trailingInts)
            forms.push_back({plan.args[0], Argument::list({plan.args.begin() + 1, plan.args.end()})});
        for (const auto &form : forms)
            for (const auto &candidate : plan.candidates)
                if (!plan.op && bindable(node, form, candidate.schema(), values)) {
                    m_plans[i].op = candidate;
                    m_plans[i].args = form;
                }
        if (plan.op)
            if (auto bound = bind(node, m_plans[i]); !bound)
                return bound.error();
        if (!plan.op)
            return nodeError(node,
                "unsupported op: no overload of " + plan.candidates.front().schema().name() + " takes these arguments");
    }
    return call(node, plan, values);
}

Result<std::vector<at::Tensor>> Executor::run(
    const std::unordered_map<std::string, at::Tensor> &inputs, std::vector<double> *nodeMicros, RunStats *stats) const
{
    auto result = execute(nullptr, inputs, nodeMicros, stats);
    if (!result)
        return result.error();
    // The graph's tensor outputs, flattened in the order the output node lists them.
    std::vector<at::Tensor> outputs;
    std::vector<c10::IValue> pending{std::move(result.value())};
    while (!pending.empty()) {
        c10::IValue v = std::move(pending.back());
        pending.pop_back();
        if (v.isTensor())
            outputs.push_back(v.toTensor());
        else if (v.isTuple())
            for (size_t k = v.toTupleRef().elements().size(); k-- > 0;)
                pending.push_back(v.toTupleRef().elements()[k]);
        else if (v.isTensorList())
            for (const at::Tensor &t : v.toTensorVector())
                outputs.push_back(t);
    }
    return outputs;
}

Result<c10::IValue> Executor::runFlexAttention(const Node &node, const Plan &plan,
    const std::vector<c10::IValue> &values, const std::unordered_map<std::string, at::Tensor> &named) const
{
    const auto &a = node.args();
    std::vector<at::Tensor> qkv;
    for (size_t k = 0; k < 3; ++k) {
        auto v = toIValue(a[k], nullptr, values, m_device);
        if (!v || !v->isTensor())
            return nodeError(node, "expected query, key and value tensors as arguments 0 to 2");
        qkv.push_back(v->toTensor());
    }
    double scale = 1.0 / std::sqrt(double(qkv[0].size(-1)));
    if (a[5].kind() != Argument::Kind::None) {
        auto v = toIValue(a[5], nullptr, values, m_device);
        if (!v || !(v->isDouble() || v->isInt()))
            return nodeError(node, "expected the scale (argument 5) as a number or None");
        scale = scalarOf(v.value());
    }
    std::vector<c10::IValue> buffers[2];
    for (size_t k = 0; k < 2; ++k) {
        if (a.size() <= 7 + k)
            continue;
        if (!a[7 + k].isSequence())
            return nodeError(node, "expected the mods' other buffers (arguments 7 and 8) as tuples");
        for (const auto &item : a[7 + k].items()) {
            auto v = toIValue(item, nullptr, values, m_device);
            if (!v)
                return nodeError(node, v.error().message);
            buffers[k].push_back(std::move(v.value()));
        }
    }
    auto runner = [&](const Executor *mod) -> ModRunner {
        return [&node, &named, mod, this](const std::vector<c10::IValue> &operands) -> Result<at::Tensor> {
            auto out = mod->execute(&operands, named, nullptr, nullptr);
            if (!out)
                return nestedError(node, nestedGraphName(*m_graph, mod->graph()), out.error());
            c10::IValue v = out.value();
            if (v.isTuple() && v.toTupleRef().elements().size() == 1)
                v = v.toTupleRef().elements()[0];
            if (!v.isTensor())
                return nodeError(
                    node, "nested graph '" + nestedGraphName(*m_graph, mod->graph()) + "' returned no single tensor");
            return v.toTensor();
        };
    };
    auto out = flexAttentionMath(
        qkv[0], qkv[1], qkv[2], scale, runner(plan.branches[0]), buffers[0], runner(plan.branches[1]), buffers[1]);
    if (!out)
        return out.error().line > 0 ? out.error() : nodeError(node, out.error().message);
    auto &[attention, logsumexp, maxScores] = out.value();
    return c10::IValue(c10::ivalue::Tuple::create({attention, logsumexp, maxScores}));
}

Result<c10::IValue> Executor::runNested(const Node &node, const Plan &plan, const std::vector<c10::IValue> &values,
    const std::unordered_map<std::string, at::Tensor> &named) const
{
    if (m_flexAttention.count(node.index()))
        return runFlexAttention(node, plan, values, named);
    std::vector<c10::IValue> operands;
    auto add = [&](const Argument &a) -> Status {
        auto v = toIValue(a, nullptr, values, m_device);
        if (!v)
            return nodeError(node, v.error().message);
        operands.push_back(std::move(v.value()));
        return Ok{};
    };
    const Executor *body = plan.branches.front();
    if (plan.step == Step::Cond) {
        const Argument &pred = node.args()[0];
        bool taken = false;
        if (pred.kind() == Argument::Kind::Bool) {
            taken = pred.toBool();
        } else if (pred.isNode()) {
            const c10::IValue &p = values[pred.node()->index()];
            if (p.isTensor() && p.toTensor().numel() == 1)
                taken = p.toTensor().item<bool>();
            else if (p.isBool() || p.isInt())
                taken = p.isBool() ? p.toBool() : p.toInt() != 0;
            else
                return nodeError(node, "the predicate is not a bool or a one-element tensor");
        } else {
            return nodeError(node, "the predicate is not a bool or a node");
        }
        body = plan.branches[taken ? 0 : 1];
        const Argument &list = node.args()[plan.firstOperand];
        if (list.kind() != Argument::Kind::List && list.kind() != Argument::Kind::Tuple)
            return nodeError(node, "expected the operands as a list or tuple");
        for (const auto &a : list.items())
            if (auto added = add(a); !added)
                return added.error();
    } else {
        for (size_t k = plan.firstOperand; k < node.args().size(); ++k)
            if (auto added = add(node.args()[k]); !added)
                return added.error();
    }
    std::optional<AutocastScope> autocast; // wrap_with_autocast: the body runs under the state its node gives
    if (auto it = m_autocast.find(node.index()); it != m_autocast.end())
        autocast.emplace(it->second);
    auto out = body->execute(&operands, named, nullptr, nullptr);
    autocast.reset();
    if (!out)
        return nestedError(node, nestedGraphName(*m_graph, body->graph()), out.error());
    return out;
}

Result<c10::IValue> Executor::execute(const std::vector<c10::IValue> *positional,
    const std::unordered_map<std::string, at::Tensor> &inputs, std::vector<double> *nodeMicros, RunStats *stats) const
{
    c10::optional<LiveBytes> live;
    if (stats) {
        *stats = RunStats();
        live.emplace();
    }
    const auto &nodes = m_graph->nodes();
    // One array of values serves every run: a new one per run is a block that malloc hands back to the system
    // each time on large graphs (160 KB at 10k nodes), with page faults and free-list consolidation.
    std::vector<c10::IValue> &values = m_values;
    values.assign(nodes.size(), c10::IValue());
    c10::IValue output;
    size_t placeholder = 0;
    if (nodeMicros)
        nodeMicros->assign(nodes.size(), 0.0);
    // On a device other than the CPU, work is asynchronous: a node's time lasts until the device's stream drains.
    // LibTorch's generic device API (guard, stream, synchronise) serves CUDA and a PrivateUse1 plugin alike.
    // No autograd: inference mode also skips the autograd dispatch keys (a plugin need not register them).
    c10::InferenceMode inference;
    c10::optional<c10::DeviceGuard> guard;
    c10::optional<c10::impl::VirtualGuardImpl> device;
    if (!m_device.is_cpu()) {
        guard.emplace(m_device);
        device.emplace(m_device.type());
    }
    auto synchronize = [&] {
        if (device)
            device->synchronizeStream(device->getStream(device->getDevice()));
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (m_checkpoint && i % kCheckpointNodes == 0 && i > 0 && !m_checkpoint(i))
            return canceledError({});
        const Node &node = *nodes[i];
        const Plan &plan = m_plans[i];
        if (m_nodeSlot)
            m_nodeSlot->store(int64_t(i), std::memory_order_relaxed);
        std::chrono::steady_clock::time_point start;
        if (nodeMicros)
            start = std::chrono::steady_clock::now();
        switch (plan.step) {
        case Step::Input: {
            if (positional && node.op() == OpKind::Placeholder) {
                if (placeholder >= positional->size())
                    return nodeError(node,
                        "the nested graph was given " + std::to_string(positional->size())
                            + " operands, fewer than its placeholders");
                values[i] = (*positional)[placeholder++];
                break;
            }
            auto it = inputs.find(node.name());
            if (it == inputs.end())
                return nodeError(node, "no input value given");
            if (plan.intInput && it->second.dim() == 0)
                values[i] = it->second.item<int64_t>();
            else
                values[i] = it->second;
            break;
        }
        case Step::TensorFact: {
            const Argument *self = node.args().empty() ? nullptr : &node.args()[0];
            if (!self || !self->isNode() || !values[self->node()->index()].isTensor())
                return nodeError(node, "expected a tensor as the first argument");
            const at::Tensor &t = values[self->node()->index()].toTensor();
            c10::optional<int64_t> dim;
            if (node.args().size() > 1) {
                const Argument &d = node.args()[1];
                if (d.kind() == Argument::Kind::Int)
                    dim = d.toInt();
                else if (d.isNode() && values[d.node()->index()].isInt())
                    dim = values[d.node()->index()].toInt();
                else
                    return nodeError(node, "expected an int dim");
                if (*dim < -t.dim() || *dim >= std::max<int64_t>(t.dim(), 1))
                    return nodeError(node,
                        "dim " + std::to_string(*dim) + " out of range for a " + std::to_string(t.dim()) + "-d tensor");
            }
            if (plan.scalarOp == "sym_numel")
                values[i] = t.numel();
            else if (plan.scalarOp == "sym_storage_offset")
                values[i] = t.storage_offset();
            else if (plan.scalarOp == "sym_size")
                values[i] = dim ? c10::IValue(t.size(*dim)) : c10::IValue(t.sizes().vec());
            else
                values[i] = dim ? c10::IValue(t.stride(*dim)) : c10::IValue(t.strides().vec());
            break;
        }
        case Step::AssertScalar: {
            auto v = node.args().empty() ? Result<c10::IValue>(c10::IValue())
                                         : toIValue(node.args()[0], nullptr, values, m_device);
            if (!v || !(v->isBool() || v->isInt() || v->isDouble()))
                return nodeError(node, "expected a bool to assert");
            if (scalarOf(v.value()) == 0)
                return nodeError(node,
                    node.args().size() > 1 && node.args()[1].kind() == Argument::Kind::String
                        ? node.args()[1].text()
                        : std::string("assertion failed"));
            break;
        }
        case Step::Cond:
        case Step::Nested: {
            auto v = runNested(node, plan, values, inputs);
            if (!v)
                return v.error();
            values[i] = std::move(v.value());
            break;
        }
        case Step::Resolve: {
            auto v = resolveAndCall(node, values);
            if (!v)
                return v.error();
            values[i] = std::move(v.value());
            break;
        }
        case Step::Sizes: {
            const c10::IValue &t = values[node.args()[0].isNode() ? node.args()[0].node()->index() : 0];
            if (!node.args()[0].isNode() || !t.isTensor())
                return nodeError(node, "size() of a value that is not a tensor");
            values[i] = c10::IValue(t.toTensor().sizes().vec());
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
        case Step::Iota: {
            // prims.iota(length, *, start, step, dtype, device, requires_grad): arange on the run's device.
            auto intArg = [&](const Argument *a, int64_t fallback) -> c10::optional<int64_t> {
                if (!a)
                    return fallback;
                if (a->kind() == Argument::Kind::Int)
                    return a->toInt();
                if (a->isNode() && values[a->node()->index()].isInt())
                    return values[a->node()->index()].toInt();
                return c10::nullopt;
            };
            auto length = intArg(node.args().empty() ? nullptr : &node.args()[0], -1);
            auto start = intArg(node.kwarg("start"), 0), step = intArg(node.kwarg("step"), 1);
            if (!length || *length < 0 || !start || !step)
                return nodeError(node, "expected (length, start=int, step=int)");
            c10::ScalarType type = at::kLong;
            if (const Argument *d = node.kwarg("dtype"); d && d->kind() == Argument::Kind::Dtype)
                if (auto t = scalarTypeFromName(d->text()))
                    type = *t;
            values[i]
                = at::arange(*start, *start + *length * *step, *step, at::TensorOptions().dtype(type).device(m_device));
            break;
        }
        case Step::GetItem: {
            if (node.args().size() != 2 || !node.args()[0].isNode())
                return nodeError(node, "expected (node, index)");
            const c10::IValue &from = values[node.args()[0].node()->index()];
            if (from.isTensor()) { // x[:, :-1], x[..., None], x[mask]: Python's indexing through at::indexing
                auto indices = tensorIndices(node, node.args()[1], values);
                if (!indices)
                    return indices.error();
                values[i] = from.toTensor().index(indices.value());
                break;
            }
            if (node.args()[1].kind() != Argument::Kind::Int)
                return nodeError(node, "expected (node, index)");
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
        case Step::SetItem: {
            // x[idx] = v (Dynamo's in-place item assignment): writes into x, returns None.
            if (node.args().size() != 3 || !node.args()[0].isNode() || !values[node.args()[0].node()->index()].isTensor())
                return nodeError(node, "expected (tensor, index, value)");
            auto indices = tensorIndices(node, node.args()[1], values);
            if (!indices)
                return indices.error();
            at::Tensor target = values[node.args()[0].node()->index()].toTensor();
            const Argument &v = node.args()[2];
            const c10::IValue *given = v.isNode() ? &values[v.node()->index()] : nullptr;
            if (given && given->isTensor())
                target.index_put_(indices.value(), given->toTensor());
            else if (given && (given->isInt() || given->isDouble() || given->isBool()))
                target.index_put_(indices.value(), given->toScalar());
            else if (v.kind() == Argument::Kind::Int || v.kind() == Argument::Kind::Bool)
                target.index_put_(indices.value(), v.kind() == Argument::Kind::Int ? at::Scalar(v.toInt()) : at::Scalar(v.toBool()));
            else if (v.kind() == Argument::Kind::Float)
                target.index_put_(indices.value(), at::Scalar(v.toDouble()));
            else
                return nodeError(node, "expected a tensor or a number to assign, found " + v.toFxText());
            values[i] = c10::IValue();
            break;
        }
        case Step::ScalarOp: {
            // Python operators on tensors (Dynamo-level graphs: x + 1, a @ b) are aten ops.
            bool onTensors = false;
            for (const auto &a : node.args())
                onTensors = onTensors || (a.isNode() && values[a.node()->index()].isTensor());
            if (onTensors) {
                if (plan.candidates.empty()) {
                    // 2 * x is mul(x, 2), 1 - x is rsub(x, 1): aten's Scalar overloads take the tensor first.
                    std::string name = atenNameOfOperator(plan.scalarOp);
                    m_plans[i].args = node.args();
                    const auto &a = node.args();
                    if (a.size() == 2 && !(a[0].isNode() && values[a[0].node()->index()].isTensor())
                        && (name == "add" || name == "mul" || name == "sub")) {
                        m_plans[i].args = {a[1], a[0]};
                        if (name == "sub")
                            name = "rsub";
                    }
                    m_plans[i].candidates = atenOverloads(name);
                    if (plan.candidates.empty())
                        return nodeError(node, "unsupported op: operator." + plan.scalarOp + " on tensors");
                }
                auto v = resolveAndCall(node, values);
                if (!v)
                    return v.error();
                values[i] = std::move(v.value());
                break;
            }
            std::vector<c10::IValue> operands;
            for (const auto &a : node.args()) {
                auto v = toIValue(a, nullptr, values, m_device);
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
            // The value the graph returns: a tuple of its items (a nested graph's `return (0,)` included).
            if (node.args().empty())
                break;
            const Argument &ret = node.args()[0];
            if (ret.kind() != Argument::Kind::List && ret.kind() != Argument::Kind::Tuple) {
                auto v = toIValue(ret, nullptr, values, m_device);
                if (!v)
                    return nodeError(node, v.error().message);
                output = std::move(v.value());
                break;
            }
            std::vector<c10::IValue> items;
            for (const auto &item : ret.items()) {
                auto v = toIValue(item, nullptr, values, m_device);
                items.push_back(v ? std::move(v.value()) : c10::IValue()); // a literal with no IValue: no output
            }
            output = c10::IValue(c10::ivalue::Tuple::create(std::move(items)));
            break;
        }
        case Step::Skip: break;
        }
        if (nodeMicros) {
            if (plan.step == Step::Call || plan.step == Step::Resolve || plan.step == Step::Cond
                || plan.step == Step::Nested)
                synchronize();
            (*nodeMicros)[i]
                = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        }
        if (live) {
            if (plan.step == Step::Input)
                live->exclude(values[i]);
            else
                live->add(values[i]);
            for (size_t dead : plan.freeAfter)
                if (m_plans[dead].step != Step::Input)
                    live->remove(values[dead]);
            stats->completed = i + 1;
            stats->peakIntermediateBytes = live->peak();
        }
        for (size_t dead : plan.freeAfter)
            if (values[dead].isTensor())
                m_buffers.give(std::move(values[dead]).toTensor());
            else
                values[dead] = c10::IValue();
    }
    synchronize();
    // Freed buffers live no longer than the run: between runs the memory is the allocator's again.
    m_buffers.clear();
    return output;
}

} // namespace fxs
