#include "py_torch_host.h"

#include "patterns/op_schema_table.h"
#include "py_cached_function.h"
#include "py_decompositions.h"
#include "py_op_meta.h"
#include "py_pattern_object.h"
#include "py_trace_cleanup.h"

#include <algorithm>
#include <map>
#include <set>

namespace fxs {

namespace {

std::optional<TensorMeta> metaOf(const Node *n)
{
    if (n && n->meta().val && n->meta().val->kind == ValueMeta::Kind::Tensor)
        return n->meta().val->tensor;
    return std::nullopt;
}

PyValue shapeValue(const std::vector<SymInt> &dims)
{
    PyList items;
    for (const SymInt &d : dims)
        items.push_back(d.isConcrete() ? PyValue::ofInt(d.value) : PyValue::ofStr(d.expr));
    return PyValue::ofTuple(std::move(items));
}

std::string shapeText(const std::vector<SymInt> &dims)
{
    std::string s;
    for (const SymInt &d : dims)
        s += (s.empty() ? "" : ", ") + d.toString();
    return "[" + s + "]";
}

// torch.float16 and friends reach the sandbox as opaque paths.
std::optional<std::string> dtypeOf(const PyValue &v)
{
    if (auto *o = v.as<PyOpaque>())
        if (isDtypeName(o->path()))
            return o->path();
    return std::nullopt;
}

// Bytes per element from the dtype's abbreviation (f16 -> 2, bf16 -> 2, i8 -> 1, b8 -> 1, c64 -> 8); 0: unknown.
int64_t dtypeItemSize(const std::string &dtype)
{
    const std::string abbr = dtypeAbbreviation(dtype);
    size_t d = abbr.find_first_of("0123456789");
    if (d == std::string::npos)
        return 0;
    int64_t bits = 0;
    for (; d < abbr.size() && abbr[d] >= '0' && abbr[d] <= '9'; ++d)
        bits = bits * 10 + (abbr[d] - '0');
    return bits / 8;
}

bool isTraced(const PyValue &v)
{
    return v.as<PyTracedTensor>() != nullptr;
}

bool anyTraced(const PyValue &v)
{
    if (isTraced(v))
        return true;
    if (v.isSequence())
        for (const PyValue &x : *v.list)
            if (anyTraced(x))
                return true;
    return false;
}

bool listType(const std::string &t)
{
    return t.find('[') != std::string::npos;
}

bool accepts(const std::string &type, const PyValue &v, bool loose, bool first)
{
    const bool optional = type.find('?') != std::string::npos;
    if (v.isNone())
        return optional;
    const std::string base = type.substr(0, type.find_first_of("?(["));
    if (base == "Tensor") {
        if (listType(type))
            return v.isSequence() && std::all_of(v.list->begin(), v.list->end(), isTraced);
        return isTraced(v) || (loose && !first && v.isNumber());
    }
    if (isTraced(v))
        return false;
    if (base == "Scalar")
        return v.isNumber();
    if (base == "int" || base == "SymInt") {
        if (listType(type))
            return v.isIntLike()
                || (v.isSequence() && std::all_of(v.list->begin(), v.list->end(), [](const PyValue &x) {
                       return x.isIntLike() || x.kind == PyValue::Kind::Str;
                   }));
        return v.isIntLike();
    }
    if (base == "float")
        return listType(type) ? v.isSequence() : v.isNumber();
    if (base == "bool")
        return listType(type) ? v.isSequence() : v.kind == PyValue::Kind::Bool || v.kind == PyValue::Kind::Int;
    if (base == "str")
        return v.kind == PyValue::Kind::Str;
    if (base == "ScalarType") // FX graphs record a ScalarType as its enum int (TorchAir's dtype=1 is int8)
        return dtypeOf(v).has_value() || v.kind == PyValue::Kind::Int;
    return true; // Device, Layout, MemoryFormat, Generator...: accepted as written
}

Argument toArgument(const PyValue &v, const std::string &type)
{
    if (auto *t = v.as<PyTracedTensor>())
        return Argument::ofNode(t->node());
    switch (v.kind) {
    case PyValue::Kind::None: return Argument::none();
    case PyValue::Kind::Bool: return Argument::ofBool(v.i != 0);
    case PyValue::Kind::Int:
        if (listType(type) && type.rfind("Tensor", 0) != 0)
            return Argument::list({Argument::ofInt(v.i)}); // int[1] dim=-1 is recorded as [-1]
        return Argument::ofInt(v.i);
    case PyValue::Kind::Float: return Argument::ofFloat(v.f);
    case PyValue::Kind::Str:
        if (type.rfind("Device", 0) == 0)
            return Argument::ofText(Argument::Kind::Device, v.str());
        return Argument::ofString(v.str());
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: {
        std::vector<Argument> items;
        for (const PyValue &x : *v.list)
            items.push_back(x.kind == PyValue::Kind::Str ? Argument::ofText(Argument::Kind::SymExpr, x.str())
                                                         : toArgument(x, "Scalar"));
        return Argument::list(std::move(items));
    }
    default: break;
    }
    if (auto d = dtypeOf(v))
        return Argument::ofText(Argument::Kind::Dtype, *d);
    if (v.as<PyFakeTensor>())
        pyRaise("TypeError",
            "a fake tensor created outside the traced function was passed to an op inside it; pass "
            "it as an argument of search_fn/replace_fn");
    return Argument::ofText(Argument::Kind::Verbatim, pyRepr(v));
}

struct Bound {
    const OpSchema *schema = nullptr;
    std::vector<Argument> args;
    Kwargs kwargs;
    std::vector<const PyValue *> values; // per schema argument, nullptr when not given
};

bool bind(const OpSchema &schema, const PyCallArgs &call, bool loose, Bound &out, bool scalarSelf = false)
{
    const auto &params = schema.arguments;
    std::vector<const PyValue *> given(params.size(), nullptr);
    size_t pi = 0;
    for (const PyValue &a : call.args) {
        while (pi < params.size() && params[pi].kwargOnly)
            ++pi;
        if (pi >= params.size())
            return false;
        given[pi++] = &a;
    }
    for (const auto &kv : call.kwargs) {
        size_t i = 0;
        while (i < params.size() && params[i].name != kv.first)
            ++i;
        if (i == params.size() || given[i])
            return false;
        given[i] = &kv.second;
    }
    for (size_t i = 0; i < params.size(); ++i) {
        if (!given[i]) {
            if (!params[i].defaultValue && params[i].type.find('?') == std::string::npos)
                return false;
            continue;
        }
        if (params[i].mutated || !accepts(params[i].type, *given[i], loose, i == 0 && !scalarSelf))
            return false;
    }
    out = Bound{};
    out.schema = &schema;
    out.values = given;
    // Positional arguments as the dispatcher records them: trailing defaults elided, kwarg-only as kwargs.
    size_t lastPositional = 0;
    for (size_t i = 0; i < params.size(); ++i)
        if (!params[i].kwargOnly && given[i]) {
            Argument a = toArgument(*given[i], params[i].type);
            if (!(params[i].defaultValue && *params[i].defaultValue == a))
                lastPositional = i + 1;
        }
    for (size_t i = 0; i < lastPositional; ++i) {
        if (params[i].kwargOnly)
            continue;
        if (given[i])
            out.args.push_back(toArgument(*given[i], params[i].type));
        else
            out.args.push_back(params[i].defaultValue ? *params[i].defaultValue : Argument::none());
    }
    for (size_t i = 0; i < params.size(); ++i)
        if (params[i].kwargOnly && given[i]) {
            Argument a = toArgument(*given[i], params[i].type);
            if (!(params[i].defaultValue && *params[i].defaultValue == a))
                out.kwargs.push_back({params[i].name, a});
        }
    return true;
}

size_t outputCount(const std::string &returns)
{
    if (returns.empty() || returns[0] != '(')
        return 1;
    size_t n = 0;
    for (size_t p = 0; (p = returns.find("Tensor", p)) != std::string::npos; p += 6)
        ++n;
    return n;
}

std::string baseName(const std::string &name)
{
    // FX renames nodes that would shadow a Python builtin (pow -> pow_1).
    static const std::set<std::string> builtins = {"pow", "sum", "max", "min", "abs", "all", "any", "round", "slice"};
    return builtins.count(name) ? name + "_1" : name;
}

// Where PyTorch's tracer (make_fx with Inductor's decomposition table) records something other than the op
// fxscope records.
const std::map<std::string, std::string> &decompositionNotes()
{
    static const std::map<std::string, std::string> notes = {
        {"reshape", "recorded as aten.view.default (or clone + view for a non-contiguous input)"},
        {"rms_norm", "decomposed into pow/mean/add/rsqrt/mul"},
        {"linear", "recorded as aten.t + aten.addmm (or view + mm for 3-D inputs)"},
        {"matmul", "recorded as aten.mm / aten.bmm with views, by the inputs' ranks"},
        {"dropout", "removed in inference tracing or decomposed into bernoulli/mul"},
    };
    return notes;
}

} // namespace

// ---- fake tensors ----

std::string PyFakeTensor::repr() const
{
    std::string abbr = dtypeAbbreviation(m_meta.dtype);
    return "FakeTensor(" + (abbr.empty() ? m_meta.dtype : abbr) + shapeText(m_meta.shape)
        + (m_meta.device.empty() ? "" : ", device='" + m_meta.device + "'") + ")";
}

bool PyFakeTensor::isInstanceOf(const std::string &cls) const
{
    return cls == "torch.Tensor" || cls == "torch._subclasses.fake_tensor.FakeTensor"
        || cls == "torch._subclasses.FakeTensor";
}

namespace {

bool tensorAttribute(PyInterpreter &interp, const std::optional<TensorMeta> &meta, const std::string &name,
    PyValue &out, const std::string &what)
{
    auto need = [&]() -> const TensorMeta & {
        if (!meta)
            pyRaise("AttributeError", what + " has no known shape or dtype (no meta[\"val\"])");
        return *meta;
    };
    auto method = [&](PyBuiltin::Fn fn) { out = PyValue::ofObject(std::make_shared<PyBuiltin>(name, std::move(fn))); };
    if (name == "shape") {
        out = shapeValue(need().shape);
    } else if (name == "dtype") {
        out = interp.makeOpaque(need().dtype.empty() ? "torch.unknown_dtype" : need().dtype);
    } else if (name == "device") {
        out = PyValue::ofStr(need().device);
    } else if (name == "ndim") {
        out = PyValue::ofInt(int64_t(need().shape.size()));
    } else if (name == "size") {
        const TensorMeta m = need();
        method([m](PyInterpreter &, PyCallArgs &a) {
            if (a.args.empty())
                return shapeValue(m.shape);
            int64_t d = a.args[0].i;
            int64_t rank = int64_t(m.shape.size());
            if (d < -rank || d >= rank)
                pyRaise("IndexError", "Dimension out of range");
            const SymInt &s = m.shape[size_t(d < 0 ? d + rank : d)];
            return s.isConcrete() ? PyValue::ofInt(s.value) : PyValue::ofStr(s.expr);
        });
    } else if (name == "stride") {
        const TensorMeta m = need();
        method([m](PyInterpreter &, PyCallArgs &a) {
            if (!m.hasStride)
                pyRaise("AttributeError", "the stride is not known for this tensor");
            if (a.args.empty())
                return shapeValue(m.stride);
            int64_t d = a.args[0].i;
            int64_t rank = int64_t(m.stride.size());
            const SymInt &s = m.stride[size_t(d < 0 ? d + rank : d)];
            return s.isConcrete() ? PyValue::ofInt(s.value) : PyValue::ofStr(s.expr);
        });
    } else if (name == "dim") {
        const TensorMeta m = need();
        method([m](PyInterpreter &, PyCallArgs &) { return PyValue::ofInt(int64_t(m.shape.size())); });
    } else if (name == "numel") {
        const TensorMeta m = need();
        method([m](PyInterpreter &, PyCallArgs &) {
            int64_t n = 1;
            for (const SymInt &s : m.shape) {
                if (!s.isConcrete())
                    pyRaise("TypeError", "numel() of a symbolic shape is outside the subset");
                n *= s.value;
            }
            return PyValue::ofInt(n);
        });
    } else if (name == "element_size") {
        const TensorMeta m = need();
        method([m](PyInterpreter &, PyCallArgs &) {
            const int64_t bytes = dtypeItemSize(m.dtype);
            if (bytes <= 0)
                pyRaise("TypeError", "element_size() of dtype '" + m.dtype + "' is not known");
            return PyValue::ofInt(bytes);
        });
    } else if (name == "is_contiguous") {
        method([](PyInterpreter &, PyCallArgs &) { return PyValue::ofBool(true); });
    } else {
        return false;
    }
    return true;
}

} // namespace

bool PyFakeTensor::getAttr(PyInterpreter &interp, const std::string &name, PyValue &out)
{
    return tensorAttribute(interp, m_meta, name, out, "this fake tensor");
}

// ---- traced tensors ----

bool PyTracedTensor::truthy() const
{
    pyRaise("TypeError",
        "the truth value of a traced tensor (" + m_node->name()
            + ") depends on its data, which symbolic tracing does not have");
}

bool PyTracedTensor::getAttr(PyInterpreter &interp, const std::string &name, PyValue &out)
{
    if (tensorAttribute(interp, metaOf(m_node), name, out, "traced tensor " + m_node->name()))
        return true;
    PyTraceGraph *trace = m_trace;
    Node *node = m_node;
    auto selfValue = [trace, node]() { return PyValue::ofObject(std::make_shared<PyTracedTensor>(trace, node)); };
    auto bound = [&](PyBuiltin::Fn fn) { out = PyValue::ofObject(std::make_shared<PyBuiltin>(name, std::move(fn))); };
    if (name == "contiguous") {
        bound([selfValue](PyInterpreter &, PyCallArgs &) { return selfValue(); });
        return true;
    }
    static const std::map<std::string, std::string> casts
        = {{"float", "torch.float32"}, {"half", "torch.float16"}, {"bfloat16", "torch.bfloat16"},
            {"double", "torch.float64"}, {"int", "torch.int32"}, {"long", "torch.int64"}, {"bool", "torch.bool"}};
    if (casts.count(name) || name == "to" || name == "type") {
        const std::string fixed = casts.count(name) ? casts.at(name) : std::string();
        bound([trace, selfValue, fixed, name](PyInterpreter &in, PyCallArgs &a) {
            std::string dtype = fixed;
            for (const PyValue &v : a.args)
                if (auto d = dtypeOf(v))
                    dtype = *d;
            if (const PyValue *d = a.kwarg("dtype"))
                if (auto dd = dtypeOf(*d))
                    dtype = *dd;
            if (dtype.empty())
                pyRaise(
                    "TypeError", "." + name + "(...) without a dtype (a device move) is outside the subset's tracing");
            // Tensor.to to the dtype the tensor has returns the tensor itself: make_fx records nothing.
            if (auto meta = metaOf(selfValue().as<PyTracedTensor>()->node()); meta && meta->dtype == dtype)
                return selfValue();
            trace->warnings.push_back("line " + std::to_string(in.currentLine()) + ": x." + name
                + "(...) is recorded as prims.convert_element_type.default, as Inductor's "
                  "decompositions record aten._to_copy");
            PyCallArgs args;
            args.args = {selfValue(), in.makeOpaque(dtype)};
            return PyTorchHost::emitOp(in, *trace, "prims.convert_element_type.default", args, "x." + name);
        });
        return true;
    }
    if (name == "reshape" || name == "view") {
        bound([trace, selfValue, name](PyInterpreter &in, PyCallArgs &a) {
            PyCallArgs args;
            args.args.push_back(selfValue());
            if (a.args.size() == 1 && a.args[0].isSequence())
                args.args.push_back(a.args[0]);
            else
                args.args.push_back(PyValue::ofList(a.args));
            if (name == "reshape")
                trace->warnings.push_back("line " + std::to_string(in.currentLine())
                    + ": x.reshape(...) is recorded as aten.view.default, as PyTorch's tracer "
                      "records a reshape of a contiguous tensor");
            return PyTorchHost::emitOp(in, *trace, "aten.view", args, "x." + name);
        });
        return true;
    }
    if (name.size() > 1 && name[0] == '_')
        return false;
    bound([trace, selfValue, name](PyInterpreter &in, PyCallArgs &a) {
        PyCallArgs args = a;
        args.args.insert(args.args.begin(), selfValue());
        return PyTorchHost::emitOp(in, *trace, "aten." + name, args, "x." + name);
    });
    return true;
}

bool PyTracedTensor::binaryOp(
    PyInterpreter &interp, const std::string &op, const PyValue &other, bool reflected, PyValue &out)
{
    static const std::map<std::string, std::string> ops
        = {{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"**", "pow"}, {"@", "matmul"}};
    auto it = ops.find(op);
    if (it == ops.end())
        pyRaise("TypeError", "operator " + op + " on traced tensors is outside the subset");
    PyValue self = PyValue::ofObject(std::make_shared<PyTracedTensor>(m_trace, m_node));
    PyCallArgs args;
    std::string name = it->second;
    if (!reflected || isTraced(other)) {
        args.args = reflected ? PyList{other, self} : PyList{self, other};
    } else if (op == "+" || op == "*") {
        args.args = {self, other}; // 1 + x records add(x, 1), as Tensor.__radd__ does
    } else if (op == "-") {
        name = "rsub";
        args.args = {self, other};
    } else {
        pyRaise(
            "TypeError", "a number " + op + " a traced tensor is outside the subset; write it with torch functions");
    }
    out = PyTorchHost::emitOp(interp, *m_trace, "aten." + name, args, "operator " + op);
    return true;
}

bool PyTracedTensor::unaryOp(PyInterpreter &interp, const std::string &op, PyValue &out)
{
    if (op != "-")
        pyRaise("TypeError", "unary " + op + " on traced tensors is outside the subset");
    PyCallArgs args;
    args.args = {PyValue::ofObject(std::make_shared<PyTracedTensor>(m_trace, m_node))};
    out = PyTorchHost::emitOp(interp, *m_trace, "aten.neg", args, "unary -");
    return true;
}

bool PyTracedTensor::getItem(PyInterpreter &, const PyValue &, PyValue &)
{
    pyRaise("SubsetError",
        "indexing a traced tensor (" + m_node->name()
            + "[...]) is outside the subset; use torch.select/torch.narrow or index a tuple result");
}

// ---- op emission ----

PyValue PyTorchHost::emitOp(PyInterpreter &interp, PyTraceGraph &trace, const std::string &target, PyCallArgs &args,
    const std::string &spelledAs, bool scalarSelf)
{
    OpSchemaTable &table = OpSchemaTable::instance();
    std::vector<const OpSchema *> candidates;
    if (const OpSchema *exact = std::count(target.begin(), target.end(), '.') >= 2 ? table.find(target) : nullptr) {
        candidates.push_back(exact);
    } else {
        table.find(target + ".default"); // a miss consults LibTorch's registry once
        for (const std::string &t : table.overloads(target))
            if (const OpSchema *s = table.find(t))
                if (!s->isMutable())
                    candidates.push_back(s);
    }
    const std::string opName
        = target.substr(target.find('.') + 1, target.find('.', target.find('.') + 1) - target.find('.') - 1);
    if (candidates.empty())
        pyRaise("SubsetError",
            spelledAs + ": no operator schema for " + target
                + " (neither fxscope's table nor LibTorch's registry knows it); register the op's "
                  "schema or use a torch.ops.<ns>.<op>.<overload> that is known");
    static const std::set<std::string> wrapsScalars
        = {"add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "remainder", "where"};
    Bound bound;
    bool found = false;
    // PyTorch's argument parser sends a Python number given for `other` to the .Tensor overload of the
    // arithmetic ops (x + 1e-6 records aten.add.Tensor); elsewhere the strictest overload that binds wins.
    if (wrapsScalars.count(opName))
        for (const OpSchema *s : candidates)
            if (!found && bind(*s, args, true, bound, scalarSelf))
                found = true;
    for (const OpSchema *s : candidates)
        if (!found && bind(*s, args, false, bound))
            found = true;
    // Elsewhere a number stands for a Tensor only where PyTorch's should_allow_numbers_as_tensors says so
    // (torch.addcmul(z, x, 0.1) is a TypeError).
    static const std::set<std::string> numbersAsTensors = {"add", "sub", "mul", "div", "divide", "multiply",
        "subtract", "true_divide", "floor_divide", "to", "_to_copy", "copy", "copy_", "_conj"};
    if (numbersAsTensors.count(opName))
        for (const OpSchema *s : candidates)
            if (!found && bind(*s, args, true, bound))
                found = true;
    if (!found) {
        std::string sigs;
        for (const OpSchema *s : candidates)
            sigs += "\n    " + s->text;
        std::string given;
        for (const PyValue &a : args.args)
            given += (given.empty() ? "" : ", ") + pyTypeName(a);
        for (const auto &kv : args.kwargs)
            given += (given.empty() ? "" : ", ") + kv.first + "=" + pyTypeName(kv.second);
        pyRaise(
            "TypeError", spelledAs + "(" + given + "): no overload of " + target + " accepts these arguments:" + sigs);
    }
    const std::string line = "line " + std::to_string(interp.currentLine()) + ": ";
    auto note = decompositionNotes().find(opName);
    if (note != decompositionNotes().end() && spelledAs.rfind("torch.ops.", 0) != 0)
        trace.warnings.push_back(line + spelledAs + ": PyTorch's tracer (make_fx with Inductor's decompositions) "
            + note->second + "; fxscope recorded " + bound.schema->target()
            + ", so the pattern may differ from the one PyTorch registers");
    if (auto decomposed = PyDecompositions::decompose(interp, trace, *bound.schema, bound.values, spelledAs))
        return *decomposed;
    Graph &g = *trace.graph;
    const size_t outputs = outputCount(bound.schema->returns);
    auto metas = PyOpMeta::infer(*bound.schema, bound.values, outputs);
    Node *call = g.append(OpKind::CallFunction, g.uniqueName(baseName(bound.schema->name)), bound.schema->target(),
        bound.args, bound.kwargs);
    if (outputs == 1) {
        if (metas[0])
            call->meta().val = ValueMeta::ofTensor(*metas[0]);
        return PyValue::ofObject(std::make_shared<PyTracedTensor>(&trace, call));
    }
    // Multi-output: make_fx records one getitem per output; the unused ones go at dead code elimination.
    PyList items;
    ValueMeta tuple;
    tuple.kind = ValueMeta::Kind::Tuple;
    bool allKnown = true;
    for (size_t i = 0; i < outputs; ++i) {
        Node *gi = g.append(OpKind::CallFunction, g.uniqueName("getitem"), "operator.getitem",
            {Argument::ofNode(call), Argument::ofInt(int64_t(i))});
        if (metas[i]) {
            gi->meta().val = ValueMeta::ofTensor(*metas[i]);
            tuple.items.push_back(*gi->meta().val);
        } else {
            allKnown = false;
        }
        items.push_back(PyValue::ofObject(std::make_shared<PyTracedTensor>(&trace, gi)));
    }
    if (allKnown)
        call->meta().val = tuple;
    return PyValue::ofTuple(std::move(items));
}

namespace {

// make_fx gives each symbolic size the proxy of the first input that has it (inputs in order, shape before
// stride) and records that aten.sym_size.int / aten.sym_stride.int just before its first use. A symbol no input
// has, or a compound expression, stays a SymExpr (the replacement maps it to what the match bound).
void readSizesFromInputs(Graph &graph)
{
    struct SizeRead {
        const char *target;
        Node *input;
        int64_t dim;
    };
    std::map<std::string, SizeRead> source; // symbol -> where make_fx reads it
    for (Node *p : graph.placeholders()) {
        if (!p->meta().val || p->meta().val->kind != ValueMeta::Kind::Tensor)
            continue;
        const TensorMeta &t = p->meta().val->tensor;
        auto add = [&](const std::vector<SymInt> &dims, const char *target) {
            for (size_t i = 0; i < dims.size(); ++i)
                if (!dims[i].isConcrete())
                    source.insert({dims[i].expr, SizeRead{target, p, int64_t(i)}});
        };
        add(t.shape, "aten.sym_size.int");
        if (t.hasStride)
            add(t.stride, "aten.sym_stride.int");
    }
    if (source.empty())
        return;
    std::map<std::string, Node *> made;
    std::vector<Node *> order;
    for (const auto &n : graph.nodes())
        order.push_back(n.get());
    for (Node *node : order) {
        bool changed = false;
        std::function<Argument(const Argument &)> read = [&](const Argument &a) -> Argument {
            if (a.kind() == Argument::Kind::SymExpr) {
                auto it = source.find(a.text());
                if (it == source.end())
                    return a;
                Node *&size = made[a.text()];
                if (!size) {
                    const SizeRead &r = it->second;
                    size = graph.insertBefore(node, OpKind::CallFunction, graph.uniqueName("sym_size_int"), r.target,
                        {Argument::ofNode(r.input), Argument::ofInt(r.dim)});
                    size->meta().val = ValueMeta::ofSym(ValueMeta::Kind::SymInt, a.text());
                }
                changed = true;
                return Argument::ofNode(size);
            }
            if (a.items().empty() || a.isNode())
                return a;
            Argument copy = a;
            for (size_t i = 0; i < copy.items().size(); ++i)
                copy.items()[i] = read(a.items()[i]);
            return copy;
        };
        std::vector<Argument> args;
        for (const Argument &a : node->args())
            args.push_back(read(a));
        Kwargs kwargs;
        for (const auto &kv : node->kwargs())
            kwargs.push_back({kv.first, read(kv.second)});
        if (changed)
            graph.setArgs(node, std::move(args), std::move(kwargs));
    }
}

} // namespace

std::shared_ptr<Graph> PyTorchHost::traceFunction(PyInterpreter &interp, const PyValue &fn, const PyList &examples,
    std::vector<std::string> &warnings, SymbolicSizes sizes)
{
    auto *f = fn.as<PyFunction>();
    if (!f)
        pyRaise("TypeError", "expected a function defined in the file to trace, found " + pyTypeName(fn));
    PyTraceGraph trace;
    PyCallArgs args;
    size_t next = 0;
    for (const PyParam &p : f->def->params) {
        if (p.kind != PyParam::Kind::Normal)
            pyRaise("SubsetError", f->def->name + ": *args/**kwargs parameters cannot be traced; name every input");
        if (next >= examples.size())
            pyRaise("TypeError",
                f->def->name + "() has more parameters than example_inputs (" + std::to_string(examples.size()) + ")");
        const PyValue &ex = examples[next++];
        if (auto *ft = ex.as<PyFakeTensor>()) {
            Node *ph = trace.graph->append(OpKind::Placeholder, trace.graph->uniqueName(p.name), p.name);
            ph->meta().val = ValueMeta::ofTensor(ft->meta());
            args.args.push_back(PyValue::ofObject(std::make_shared<PyTracedTensor>(&trace, ph)));
        } else if (ex.isNumber() || ex.isNone() || ex.kind == PyValue::Kind::Str) {
            args.args.push_back(ex); // make_fx burns scalars into the graph as constants
        } else {
            pyRaise("TypeError",
                "example input " + std::to_string(next - 1) + " for '" + p.name + "' is a " + pyTypeName(ex)
                    + "; expected a tensor (torch.empty(...)) or a number");
        }
    }
    PyValue result = interp.call(fn, args);
    std::vector<Argument> outs;
    bool single = false;
    auto outArg = [&](const PyValue &v) {
        auto *t = v.as<PyTracedTensor>();
        if (!t || t->trace() != &trace)
            pyRaise(
                "TypeError", f->def->name + " returns " + pyRepr(v) + "; expected tensors computed from its inputs");
        return Argument::ofNode(t->node());
    };
    if (result.isSequence()) {
        for (const PyValue &v : *result.list)
            outs.push_back(outArg(v));
    } else {
        outs.push_back(outArg(result));
        single = true;
    }
    trace.graph->append(OpKind::Output, "output", "output", {single ? outs[0] : Argument::tuple(outs)});
    if (sizes == SymbolicSizes::ReadFromInputs)
        readSizesFromInputs(*trace.graph);
    // fwd_only's passes after make_fx: remove_noop_ops, then eliminate_dead_code.
    PyTraceCleanup::removeNoopOps(*trace.graph);
    PyTraceCleanup::eliminateDeadCode(*trace.graph);
    warnings.insert(warnings.end(), trace.warnings.begin(), trace.warnings.end());
    return trace.graph;
}

// ---- host calls ----

namespace {

class PyPartial : public PyObject {
public:
    PyPartial(PyValue fn, PyCallArgs bound) : m_fn(std::move(fn)), m_bound(std::move(bound)) { }
    std::string typeName() const override { return "functools.partial"; }
    std::string repr() const override { return "functools.partial(" + pyRepr(m_fn) + ", ...)"; }
    PyValue call(PyInterpreter &interp, PyCallArgs &args) override
    {
        PyCallArgs all = m_bound;
        all.args.insert(all.args.end(), args.args.begin(), args.args.end());
        for (auto &kv : args.kwargs) {
            bool replaced = false;
            for (auto &b : all.kwargs)
                if (b.first == kv.first) {
                    b.second = kv.second;
                    replaced = true;
                }
            if (!replaced)
                all.kwargs.push_back(kv);
        }
        return interp.call(m_fn, all);
    }

private:
    PyValue m_fn;
    PyCallArgs m_bound;
};

std::vector<SymInt> shapeArg(const PyCallArgs &args, size_t from)
{
    std::vector<SymInt> shape;
    auto addDim = [&](const PyValue &v) {
        if (v.isIntLike())
            shape.push_back(SymInt{v.i, {}});
        else if (v.kind == PyValue::Kind::Str)
            shape.push_back(SymInt::parse(v.str()));
        else
            pyRaise("TypeError", "a tensor size must be ints, found " + pyTypeName(v));
    };
    if (args.args.size() == from + 1 && args.args[from].isSequence()) {
        for (const PyValue &v : *args.args[from].list)
            addDim(v);
    } else {
        for (size_t i = from; i < args.args.size(); ++i)
            addDim(args.args[i]);
    }
    if (const PyValue *s = args.kwarg("size"))
        for (const PyValue &v : *s->list)
            addDim(v);
    return shape;
}

} // namespace

bool PyTorchHost::attribute(PyInterpreter &interp, const std::string &path, PyValue &out)
{
    // Signature probes TorchAir's pass manager makes (`'pass_name' in PatternMatcherPass.__init__.__code__
    // .co_varnames`, `'pass_dicts' in register_replacement.__code__.co_varnames`): answered as current
    // Inductor's, the version whose register_replacement the loader models.
    static const std::map<std::string, std::vector<const char *>> varnames = {
        {"torch._inductor.pattern_matcher.PatternMatcherPass.__init__", {"self", "pass_name", "subsystem"}},
        {"torch._inductor.pattern_matcher.register_replacement",
            {"search_fn", "replace_fn", "example_inputs", "trace_fn", "pass_dicts", "extra_check", "scalar_workaround",
                "exclusive_arg_names", "search_fn_pattern", "skip_duplicates"}},
    };
    for (const auto &[function, names] : varnames) {
        if (path.compare(0, function.size(), function) != 0)
            continue;
        const std::string_view rest = std::string_view(path).substr(function.size());
        if (rest == ".__code__.co_varnames") {
            PyList items;
            for (const char *n : names)
                items.push_back(PyValue::ofStr(n));
            out = PyValue::ofTuple(std::move(items));
            return true;
        }
        if (rest == ".__code__"
            || (rest.empty() && path.size() > 9 && path.compare(path.size() - 9, 9, ".__init__") == 0)) {
            out = interp.makeOpaque(path);
            return true;
        }
    }
    if (path == "sys.modules") {
        // The sandbox stands in for an environment where these are imported, torch_npu included, so
        // `'torch_npu' not in sys.modules` guards in TorchAir's files let their patterns register.
        std::vector<std::pair<PyValue, PyValue>> items;
        for (const char *m : {"sys", "functools", "operator", "torch", "torch_npu", "torchair"})
            items.push_back({PyValue::ofStr(m), interp.makeOpaque(m)});
        out = PyValue::ofDict(std::move(items));
        return true;
    }
    if (path == "torch._inductor.fx_passes.post_grad.same_meta") {
        // Inductor's same_meta(node1, node2): both vals are tensors with equal shape, dtype, stride and device.
        out = PyValue::ofObject(std::make_shared<PyBuiltin>("same_meta", [](PyInterpreter &in, PyCallArgs &a) {
            if (a.args.size() != 2)
                pyRaise("TypeError", "same_meta() takes two nodes");
            std::optional<TensorMeta> metas[2];
            for (int i = 0; i < 2; ++i) {
                bool found = false;
                PyValue meta = in.getAttr(a.args[size_t(i)], "meta", &found);
                if (!found || meta.kind != PyValue::Kind::Dict)
                    return PyValue::ofBool(false);
                for (const auto &kv : meta.dict->items)
                    if (kv.first.kind == PyValue::Kind::Str && kv.first.str() == "val")
                        if (auto *ft = kv.second.as<PyFakeTensor>())
                            metas[i] = ft->meta();
            }
            if (!metas[0] || !metas[1])
                return PyValue::ofBool(false);
            const TensorMeta &x = *metas[0];
            const TensorMeta &y = *metas[1];
            return PyValue::ofBool(x.shape == y.shape && x.dtype == y.dtype && x.device == y.device
                && x.hasStride == y.hasStride && x.stride == y.stride);
        }));
        return true;
    }
    return false;
}

bool PyTorchHost::call(PyInterpreter &interp, const std::string &path, PyCallArgs &args, PyValue &out)
{
    if (path == "functools.lru_cache" || path == "functools.cache") {
        // @functools.cache / bare @functools.lru_cache get the function; lru_cache(None) returns the decorator.
        if (args.args.size() == 1 && (args.args[0].as<PyFunction>() || args.args[0].as<PyCachedFunction>())) {
            out = PyValue::ofObject(std::make_shared<PyCachedFunction>(args.args[0]));
            return true;
        }
        out = PyValue::ofObject(std::make_shared<PyBuiltin>("lru_cache", [](PyInterpreter &, PyCallArgs &a) {
            if (a.args.size() != 1 || !(a.args[0].as<PyFunction>() || a.args[0].as<PyCachedFunction>()))
                pyRaise("TypeError", "lru_cache(...) decorates a function defined in the file");
            return PyValue::ofObject(std::make_shared<PyCachedFunction>(a.args[0]));
        }));
        return true;
    }
    static const std::string matcher = "torch._inductor.pattern_matcher.";
    if (path.rfind(matcher, 0) == 0 && PyPatternObject::construct(interp, path.substr(matcher.size()), args, out))
        return true;
    if (path == "functools.partial") {
        if (args.args.empty())
            pyRaise("TypeError", "partial() needs a function");
        PyValue fn = args.args[0];
        PyCallArgs bound = args;
        bound.args.erase(bound.args.begin());
        out = PyValue::ofObject(std::make_shared<PyPartial>(fn, std::move(bound)));
        return true;
    }
    if (path == "torchair.register_replacement" || path == "torch._inductor.pattern_matcher.register_replacement"
        || (path.size() > 17 && path.compare(path.size() - 17, 17, ".register_pattern") == 0)) {
        const std::string kind = path == "torchair.register_replacement" ? "torchair"
            : path.rfind("torch._inductor", 0) == 0                      ? "inductor"
                                                                         : "pass_manager";
        m_onRegister(interp, kind, args);
        out = PyValue::ofBool(true);
        return true;
    }
    bool traced = false;
    for (const PyValue &a : args.args)
        traced = traced || anyTraced(a);
    for (const auto &kv : args.kwargs)
        traced = traced || anyTraced(kv.second);
    static const std::set<std::string> constructors = {"torch.empty", "torch.zeros", "torch.ones", "torch.randn",
        "torch.rand", "torch.empty_strided", "torch.full", "torch.randint", "torch.tensor"};
    if (!traced && constructors.count(path)) {
        TensorMeta m;
        size_t from = 0;
        if (path == "torch.randint")
            from = args.args.size() >= 3 ? 2 : 1;
        if (path == "torch.tensor") {
            if (!args.args.empty() && args.args[0].isSequence())
                m.shape.push_back(SymInt{int64_t(args.args[0].list->size()), {}});
        } else if (path == "torch.empty_strided" || path == "torch.full") {
            PyCallArgs first;
            if (!args.args.empty())
                first.args.push_back(args.args[0]);
            m.shape = shapeArg(first, 0);
            if (path == "torch.empty_strided" && args.args.size() > 1 && args.args[1].isSequence()) {
                m.hasStride = true;
                for (const PyValue &v : *args.args[1].list)
                    m.stride.push_back(SymInt{v.i, {}});
            }
        } else {
            m.shape = shapeArg(args, from);
        }
        m.dtype = path == "torch.randint" ? "torch.int64" : "torch.float32";
        if (const PyValue *d = args.kwarg("dtype"))
            if (auto dd = dtypeOf(*d))
                m.dtype = *dd;
        if (const PyValue *d = args.kwarg("device"))
            m.device = d->kind == PyValue::Kind::Str ? d->str() : pyStr(*d);
        if (!m.hasStride
            && std::all_of(m.shape.begin(), m.shape.end(), [](const SymInt &s) { return s.isConcrete(); })) {
            m.stride.assign(m.shape.size(), SymInt{1, {}});
            for (size_t i = m.shape.size(); i-- > 1;)
                m.stride[i - 1] = SymInt{m.stride[i].value * std::max<int64_t>(1, m.shape[i].value), {}};
            m.hasStride = true;
        }
        out = PyValue::ofObject(std::make_shared<PyFakeTensor>(m));
        return true;
    }
    if (!traced)
        return false;
    // A torch-namespace call on traced tensors: resolve it to an operator overload.
    PyTraceGraph *trace = nullptr;
    auto findTrace = [&](const PyValue &v) {
        if (auto *t = v.as<PyTracedTensor>())
            trace = t->trace();
        else if (v.isSequence())
            for (const PyValue &x : *v.list)
                if (auto *t2 = x.as<PyTracedTensor>())
                    trace = t2->trace();
    };
    for (const PyValue &a : args.args)
        findTrace(a);
    for (const auto &kv : args.kwargs)
        findTrace(kv.second);
    std::string target;
    if (path.rfind("torch.ops.", 0) == 0)
        target = path.substr(10);
    else if (path.rfind("torch_npu.", 0) == 0)
        target = "npu." + path.substr(path.rfind('.') + 1);
    else if (path.rfind("torch.nn.functional.", 0) == 0 || path.rfind("torch.", 0) == 0)
        target = "aten." + path.substr(path.rfind('.') + 1);
    else if (path == "operator.getitem" && args.args.size() == 2)
        pyRaise("SubsetError", "operator.getitem on a traced tensor is outside the subset");
    else
        pyRaise("SubsetError",
            path
                + "(...) on traced tensors: fxscope only traces torch.*, torch_npu.* and "
                  "torch.ops.* calls, tensor methods and operators");
    if (target.rfind("aten.", 0) == 0 && target.size() > 5 && target.back() == '.')
        target.pop_back();
    out = emitOp(interp, *trace, target, args, path);
    return true;
}

} // namespace fxs
