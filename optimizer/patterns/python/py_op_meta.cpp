#include "py_op_meta.h"

#include "py_torch_host.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <set>

namespace fxs {

namespace {

std::optional<TensorMeta> tensorMeta(const PyValue *v)
{
    if (!v)
        return std::nullopt;
    if (auto *t = v->as<PyTracedTensor>()) {
        const Node *n = t->node();
        if (n->meta().val && n->meta().val->kind == ValueMeta::Kind::Tensor)
            return n->meta().val->tensor;
    }
    return std::nullopt;
}

bool isTensor(const PyValue *v)
{
    return v && v->as<PyTracedTensor>() != nullptr;
}

// The dtype categories of type promotion: bool < integral < floating.
int category(const std::string &dtype)
{
    if (dtype == "torch.bool")
        return 0;
    return PyOpMeta::isFloating(dtype) ? 2 : 1;
}

SymInt concrete(int64_t v)
{
    return SymInt{v, {}};
}

// A symbolic size as sympy prints a product: integer coefficient first, then the symbols sorted, powers as **n.
struct Product {
    int64_t coefficient = 1;
    std::map<std::string, int> symbols;
    bool ok = true;

    void multiply(const SymInt &s)
    {
        if (s.isConcrete()) {
            coefficient *= s.value;
            return;
        }
        for (char c : s.expr)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
                ok = false; // a sum or a product already: sympy's expansion is not modelled
                return;
            }
        ++symbols[s.expr];
    }
    SymInt value() const
    {
        if (symbols.empty() || coefficient == 0)
            return concrete(coefficient);
        std::string e = coefficient == 1 ? "" : std::to_string(coefficient);
        for (const auto &[name, power] : symbols)
            e += (e.empty() ? "" : "*") + name + (power > 1 ? "**" + std::to_string(power) : "");
        return SymInt{0, e};
    }
};

int64_t normDim(int64_t d, size_t rank)
{
    const int64_t r = std::max<int64_t>(1, int64_t(rank));
    return d < 0 ? d + r : d;
}

std::vector<int64_t> intList(const PyValue *v)
{
    std::vector<int64_t> out;
    if (!v)
        return out;
    if (v->isIntLike())
        out.push_back(v->i);
    else if (v->isSequence())
        for (const PyValue &x : *v->list)
            out.push_back(x.i);
    return out;
}

// A size list given to view/expand/full: ints and symbolic expressions (strings).
std::optional<std::vector<SymInt>> sizeList(const PyValue *v)
{
    if (!v || !v->isSequence())
        return std::nullopt;
    std::vector<SymInt> out;
    for (const PyValue &x : *v->list) {
        if (x.isIntLike())
            out.push_back(concrete(x.i));
        else if (x.kind == PyValue::Kind::Str)
            out.push_back(SymInt::parse(x.str()));
        else
            return std::nullopt;
    }
    return out;
}

bool isContiguous(const TensorMeta &m)
{
    if (!m.hasStride)
        return false;
    auto c = PyOpMeta::contiguousStrides(m.shape);
    if (!c || m.stride.size() != m.shape.size())
        return false;
    for (size_t k = 0; k < m.shape.size(); ++k)
        if (!(m.shape[k].isConcrete() && m.shape[k].value == 1) && !(m.stride[k] == (*c)[k]))
            return false;
    return true;
}

void setContiguous(TensorMeta &m)
{
    auto c = PyOpMeta::contiguousStrides(m.shape);
    m.hasStride = c.has_value();
    m.stride = c ? *c : std::vector<SymInt>{};
}

std::optional<std::vector<SymInt>> broadcastShapes(const std::vector<std::vector<SymInt>> &shapes)
{
    size_t rank = 0;
    for (const auto &s : shapes)
        rank = std::max(rank, s.size());
    std::vector<SymInt> out(rank, concrete(1));
    for (const auto &s : shapes)
        for (size_t k = 0; k < s.size(); ++k) {
            SymInt &o = out[rank - s.size() + k];
            const SymInt &d = s[k];
            if (d.isConcrete() && d.value == 1)
                continue;
            if (o.isConcrete() && o.value == 1)
                o = d;
            else if (!(o == d))
                return std::nullopt; // unequal symbolic sizes: PyTorch would guard; not modelled
        }
    return out;
}

// elementwise_dtypes of torch._prims_common: tensors with dimensions decide within a category, zero-dim tensors
// only when of a higher category, Python numbers only when of a higher category (then the default dtype).
std::string resultType(const std::vector<const PyValue *> &operands)
{
    std::string dim, zero;
    int scalarCategory = -1;
    for (const PyValue *v : operands) {
        if (!v || v->isNone())
            continue;
        if (isTensor(v)) {
            auto m = tensorMeta(v);
            if (!m || m->dtype.empty())
                return "";
            std::string &slot = m->shape.empty() ? zero : dim;
            slot = slot.empty() ? m->dtype : PyOpMeta::promoteTypes(slot, m->dtype);
            if (slot.empty())
                return "";
        } else if (v->kind == PyValue::Kind::Bool) {
            scalarCategory = std::max(scalarCategory, 0);
        } else if (v->kind == PyValue::Kind::Int || v->kind == PyValue::Kind::Str) {
            scalarCategory = std::max(scalarCategory, 1); // a Str here is a symbolic int
        } else if (v->kind == PyValue::Kind::Float) {
            scalarCategory = std::max(scalarCategory, 2);
        } else {
            return "";
        }
    }
    std::string out = dim;
    if (!zero.empty() && (out.empty() || category(zero) > category(out)))
        out = zero;
    if (scalarCategory >= 0 && (out.empty() || scalarCategory > category(out)))
        out = scalarCategory == 2 ? "torch.float32" : scalarCategory == 1 ? "torch.int64" : "torch.bool";
    return out;
}

// Output of a pointwise op over operands: broadcast shape, promoted dtype, contiguous strides where the inputs of
// the output's shape are contiguous (TensorIterator keeps a non-contiguous input's layout: left unknown).
std::optional<TensorMeta> pointwise(const std::vector<const PyValue *> &operands, const std::string &dtype)
{
    std::vector<std::vector<SymInt>> shapes;
    std::vector<TensorMeta> metas;
    for (const PyValue *v : operands)
        if (isTensor(v)) {
            auto m = tensorMeta(v);
            if (!m)
                return std::nullopt;
            metas.push_back(*m);
            shapes.push_back(m->shape);
        }
    if (metas.empty() || dtype.empty())
        return std::nullopt;
    auto shape = broadcastShapes(shapes);
    if (!shape)
        return std::nullopt;
    TensorMeta out;
    out.dtype = dtype;
    out.shape = *shape;
    for (const TensorMeta &m : metas)
        if (!m.device.empty() && !(m.shape.empty() && m.device == "cpu")) {
            out.device = m.device;
            break;
        }
    if (out.device.empty())
        out.device = metas[0].device;
    bool layoutKnown = true;
    for (const TensorMeta &m : metas)
        if (m.shape == out.shape && !isContiguous(m)) {
            bool expanded = m.hasStride
                && std::any_of(m.stride.begin(), m.stride.end(), [](const SymInt &s) { return s == SymInt{0, {}}; });
            if (!expanded)
                layoutKnown = false;
        }
    if (layoutKnown)
        setContiguous(out);
    return out;
}

std::optional<TensorMeta> reduced(const TensorMeta &in, const PyValue *dimArg, bool keepdim, const std::string &dtype)
{
    const size_t rank = in.shape.size();
    std::vector<bool> reduce(rank, false);
    std::vector<int64_t> dims = intList(dimArg);
    if (!dimArg || dimArg->isNone() || (dimArg->isSequence() && dims.empty()))
        std::fill(reduce.begin(), reduce.end(), true);
    for (int64_t d : dims) {
        int64_t k = normDim(d, rank);
        if (k < 0 || (rank > 0 && k >= int64_t(rank)) || (rank == 0 && k > 0))
            return std::nullopt;
        if (rank > 0)
            reduce[size_t(k)] = true;
    }
    TensorMeta out;
    out.dtype = dtype;
    out.device = in.device;
    for (size_t k = 0; k < rank; ++k)
        if (!reduce[k])
            out.shape.push_back(in.shape[k]);
        else if (keepdim)
            out.shape.push_back(concrete(1));
    setContiguous(out);
    return out;
}

// view/reshape: a -1 is resolved where numel divides out exactly (concrete sizes, or symbols that cancel).
std::optional<std::vector<SymInt>> viewShape(const TensorMeta &in, std::vector<SymInt> size)
{
    int infer = -1;
    Product known;
    for (size_t k = 0; k < size.size(); ++k) {
        if (size[k].isConcrete() && size[k].value == -1) {
            if (infer >= 0)
                return std::nullopt;
            infer = int(k);
        } else {
            known.multiply(size[k]);
        }
    }
    if (infer < 0)
        return size;
    Product total;
    for (const SymInt &s : in.shape)
        total.multiply(s);
    if (!known.ok || !total.ok || known.coefficient == 0 || total.coefficient % known.coefficient != 0)
        return std::nullopt;
    Product rest;
    rest.coefficient = total.coefficient / known.coefficient;
    rest.symbols = total.symbols;
    for (const auto &[name, power] : known.symbols) {
        auto it = rest.symbols.find(name);
        if (it == rest.symbols.end() || it->second < power)
            return std::nullopt;
        if ((it->second -= power) == 0)
            rest.symbols.erase(it);
    }
    size[size_t(infer)] = rest.value();
    return size;
}

TensorMeta withShape(const TensorMeta &in, std::vector<SymInt> shape, std::string dtype = {})
{
    TensorMeta out;
    out.dtype = dtype.empty() ? in.dtype : dtype;
    out.device = in.device;
    out.shape = std::move(shape);
    setContiguous(out);
    return out;
}

const std::set<std::string> &sameDtypeUnary()
{
    static const std::set<std::string> ops = {"neg", "relu", "abs", "clone", "alias", "contiguous", "silu", "gelu",
        "hardswish", "hardsigmoid", "leaky_relu", "elu", "bitwise_not", "positive"};
    return ops;
}

// Unary float ops (INT_TO_FLOAT promotion: an integral input gives the default float dtype).
const std::set<std::string> &floatUnary()
{
    static const std::set<std::string> ops = {"exp", "log", "sin", "cos", "tan", "rsqrt", "sqrt", "sigmoid", "tanh",
        "erf", "reciprocal", "log1p", "expm1", "exp2", "log2", "asin", "acos", "atan", "sinh", "cosh"};
    return ops;
}

std::string dtypeName(const PyValue *v)
{
    if (auto *o = v ? v->as<PyOpaque>() : nullptr)
        if (isDtypeName(o->path()))
            return o->path();
    return "";
}

} // namespace

bool PyOpMeta::isFloating(const std::string &dtype)
{
    static const std::set<std::string> f = {"torch.float16", "torch.bfloat16", "torch.float32", "torch.float64"};
    return f.count(dtype) != 0;
}

bool PyOpMeta::isIntegral(const std::string &dtype)
{
    static const std::set<std::string> i
        = {"torch.bool", "torch.uint8", "torch.int8", "torch.int16", "torch.int32", "torch.int64"};
    return i.count(dtype) != 0;
}

std::string PyOpMeta::promoteTypes(const std::string &a, const std::string &b)
{
    if (a == b)
        return a;
    if (!(isFloating(a) || isIntegral(a)) || !(isFloating(b) || isIntegral(b)))
        return "";
    const int ca = category(a), cb = category(b);
    if (ca != cb)
        return ca > cb ? a : b;
    if (ca == 2) {
        static const std::map<std::string, int> rank
            = {{"torch.float16", 1}, {"torch.bfloat16", 1}, {"torch.float32", 2}, {"torch.float64", 3}};
        if (rank.at(a) == rank.at(b))
            return "torch.float32"; // float16 with bfloat16
        return rank.at(a) > rank.at(b) ? a : b;
    }
    static const std::map<std::string, int> bits
        = {{"torch.int8", 8}, {"torch.int16", 16}, {"torch.int32", 32}, {"torch.int64", 64}};
    if (a == "torch.uint8" || b == "torch.uint8") {
        const std::string &other = a == "torch.uint8" ? b : a;
        return bits.at(other) <= 8 ? "torch.int16" : other;
    }
    return bits.at(a) > bits.at(b) ? a : b;
}

std::optional<std::vector<SymInt>> PyOpMeta::contiguousStrides(const std::vector<SymInt> &shape)
{
    std::vector<SymInt> out(shape.size(), concrete(1));
    Product p;
    for (size_t k = shape.size(); k-- > 0;) {
        out[k] = p.value();
        // max(1, size), as torch computes contiguous strides.
        if (shape[k].isConcrete())
            p.multiply(concrete(std::max<int64_t>(1, shape[k].value)));
        else
            p.multiply(shape[k]);
        if (!p.ok)
            return std::nullopt;
    }
    return out;
}

std::vector<std::optional<TensorMeta>> PyOpMeta::infer(
    const OpSchema &schema, const std::vector<const PyValue *> &values, size_t outputs)
{
    std::vector<std::optional<TensorMeta>> out(outputs);
    const std::string &name = schema.name;
    auto value = [&](size_t i) -> const PyValue * { return i < values.size() ? values[i] : nullptr; };
    auto meta = [&](size_t i) { return tensorMeta(value(i)); };
    auto boolArg = [&](size_t i, bool dflt) {
        const PyValue *v = value(i);
        return v && !v->isNone() ? v->i != 0 : dflt;
    };
    auto intArg = [&](size_t i, int64_t dflt) {
        const PyValue *v = value(i);
        return v && v->isIntLike() ? v->i : dflt;
    };
    auto argIndex = [&](const std::string &arg) {
        for (size_t i = 0; i < schema.arguments.size(); ++i)
            if (schema.arguments[i].name == arg)
                return i;
        return schema.arguments.size();
    };
    const std::string dtypeKwarg = dtypeName(value(argIndex("dtype")));
    auto x = meta(0);

    if (outputs == 1 && sameDtypeUnary().count(name)) {
        if (x)
            out[0] = pointwise({value(0)}, x->dtype);
    } else if (outputs == 1 && floatUnary().count(name)) {
        if (x)
            out[0] = pointwise({value(0)}, isIntegral(x->dtype) ? "torch.float32" : x->dtype);
    } else if (outputs == 1
        && (name == "add" || name == "sub" || name == "mul" || name == "maximum" || name == "minimum"
            || name == "rsub" || name == "remainder" || name == "fmod" || name == "clamp_min" || name == "clamp_max"
            || name == "pow")) {
        out[0] = pointwise({value(0), value(1)}, resultType({value(0), value(1)}));
    } else if (outputs == 1 && name == "div") {
        std::string dt = resultType({value(0), value(1)});
        const PyValue *mode = value(argIndex("rounding_mode"));
        if (isIntegral(dt) && !(mode && mode->kind == PyValue::Kind::Str))
            dt = "torch.float32"; // true division
        out[0] = pointwise({value(0), value(1)}, dt);
    } else if (outputs == 1
        && (name == "eq" || name == "ne" || name == "lt" || name == "le" || name == "gt" || name == "ge")) {
        out[0] = pointwise({value(0), value(1)}, "torch.bool");
    } else if (outputs == 1 && name == "where" && schema.overload == "self") {
        out[0] = pointwise({value(0), value(1), value(2)}, resultType({value(1), value(2)}));
    } else if (outputs == 1 && (name == "addcmul" || name == "addcdiv")) {
        out[0] = pointwise({value(0), value(1), value(2)}, resultType({value(0), value(1), value(2)}));
    } else if (outputs == 1 && name == "convert_element_type" && x) {
        const std::string dt = dtypeName(value(1));
        if (!dt.empty()) {
            TensorMeta m = *x; // prims.convert_element_type keeps the strides
            m.dtype = dt;
            out[0] = m;
        }
    } else if (outputs == 1 && name == "_to_copy" && x) {
        TensorMeta m = *x;
        if (!dtypeKwarg.empty())
            m.dtype = dtypeKwarg;
        out[0] = m;
    } else if (outputs == 1 && (name == "sum" || name == "mean" || name == "amax" || name == "amin") && x) {
        std::string dt = dtypeKwarg;
        if (dt.empty())
            dt = name == "sum" && isIntegral(x->dtype) ? "torch.int64" : x->dtype;
        if (name == "mean" && isIntegral(dt))
            return out; // PyTorch raises
        if (schema.overload == "default" && name != "amax" && name != "amin")
            out[0] = reduced(*x, nullptr, false, dt);
        else
            out[0] = reduced(*x, value(1), boolArg(2, false), dt);
    } else if (outputs == 2 && name == "var_mean" && x && isFloating(x->dtype)) {
        auto m = reduced(*x, value(1), boolArg(argIndex("keepdim"), false), x->dtype);
        out = {m, m};
    } else if (outputs == 1 && name == "cumsum" && x) {
        out[0] = withShape(
            *x, x->shape, !dtypeKwarg.empty() ? dtypeKwarg : isIntegral(x->dtype) ? "torch.int64" : x->dtype);
    } else if (outputs == 1 && (name == "view" || name == "_unsafe_view" || name == "reshape") && x) {
        if (auto size = sizeList(value(1)))
            if (auto shape = viewShape(*x, *size)) {
                // A view of a contiguous tensor is contiguous; elsewhere the strides are not modelled.
                TensorMeta m = withShape(*x, *shape);
                if (!isContiguous(*x)) {
                    m.hasStride = false;
                    m.stride.clear();
                }
                out[0] = m;
            }
    } else if (outputs == 1 && (name == "permute" || name == "t" || name == "transpose") && x) {
        const size_t rank = x->shape.size();
        std::vector<int64_t> perm;
        for (size_t k = 0; k < rank; ++k)
            perm.push_back(int64_t(k));
        if (name == "permute") {
            perm = intList(value(1));
        } else if (rank >= 2) {
            const int64_t a = name == "t" ? 0 : normDim(intArg(1, 0), rank);
            const int64_t b = name == "t" ? 1 : normDim(intArg(2, 1), rank);
            if (a < 0 || b < 0 || a >= int64_t(rank) || b >= int64_t(rank))
                return out;
            std::swap(perm[size_t(a)], perm[size_t(b)]);
        }
        if (perm.size() != rank)
            return out;
        TensorMeta m = *x;
        for (size_t k = 0; k < rank; ++k) {
            const int64_t p = normDim(perm[k], rank);
            if (p < 0 || p >= int64_t(rank))
                return out;
            m.shape[k] = x->shape[size_t(p)];
            if (x->hasStride)
                m.stride[k] = x->stride[size_t(p)];
        }
        out[0] = m;
    } else if (outputs == 1 && name == "unsqueeze" && x) {
        const size_t rank = x->shape.size() + 1;
        const int64_t d = normDim(intArg(1, 0), rank);
        if (d < 0 || d >= int64_t(rank))
            return out;
        TensorMeta m = *x;
        m.shape.insert(m.shape.begin() + d, concrete(1));
        if (x->hasStride) {
            // The new dimension's stride: size*stride of the one it precedes (1 at the end), as the meta function.
            SymInt s = concrete(1);
            Product p;
            if (size_t(d) < x->shape.size()) {
                p.multiply(x->shape[size_t(d)]);
                p.multiply(x->stride[size_t(d)]);
                s = p.value();
            }
            if (p.ok)
                m.stride.insert(m.stride.begin() + d, s);
            else
                m.hasStride = false, m.stride.clear();
        }
        out[0] = m;
    } else if (outputs == 1 && name == "expand" && x) {
        auto size = sizeList(value(1));
        if (!size || size->size() < x->shape.size())
            return out;
        TensorMeta m = *x;
        m.shape = *size;
        std::vector<SymInt> stride(size->size(), concrete(0));
        const size_t lead = size->size() - x->shape.size();
        for (size_t k = lead; k < size->size(); ++k) {
            const SymInt &old = x->shape[k - lead];
            if (m.shape[k] == concrete(-1))
                m.shape[k] = old;
            if (!(m.shape[k] == old) && !(old == concrete(1)))
                return out;
            if (x->hasStride && m.shape[k] == old)
                stride[k] = x->stride[k - lead];
        }
        m.hasStride = x->hasStride;
        m.stride = x->hasStride ? stride : std::vector<SymInt>{};
        out[0] = m;
    } else if (outputs == 1 && name == "slice" && x && !x->shape.empty()) {
        const size_t rank = x->shape.size();
        const int64_t d = normDim(intArg(1, 0), rank);
        if (d < 0 || d >= int64_t(rank))
            return out;
        const SymInt size = x->shape[size_t(d)];
        const PyValue *s = value(2), *e = value(3);
        if ((s && !s->isNone() && !s->isIntLike()) || (e && !e->isNone() && !e->isIntLike()) || intArg(4, 1) != 1)
            return out;
        int64_t start = s && s->isIntLike() ? s->i : 0;
        const bool endOpen = !e || e->isNone() || e->i == INT64_MAX;
        TensorMeta m = *x; // a slice keeps its input's strides
        if (start == 0 && endOpen) {
            out[0] = m;
            return out;
        }
        if (!size.isConcrete())
            return out;
        int64_t end = endOpen ? size.value : e->i;
        if (start < 0)
            start += size.value;
        if (end < 0)
            end += size.value;
        start = std::clamp<int64_t>(start, 0, size.value);
        end = std::clamp<int64_t>(end, start, size.value);
        m.shape[size_t(d)] = concrete(end - start);
        out[0] = m;
    } else if (outputs == 1 && name == "select" && x && !x->shape.empty()) {
        const int64_t d = normDim(intArg(1, 0), x->shape.size());
        if (d < 0 || d >= int64_t(x->shape.size()))
            return out;
        TensorMeta m = *x;
        m.shape.erase(m.shape.begin() + d);
        if (m.hasStride)
            m.stride.erase(m.stride.begin() + d);
        out[0] = m;
    } else if (outputs == 1 && name == "squeeze" && schema.overload == "dim" && x) {
        const int64_t d = normDim(intArg(1, 0), x->shape.size());
        if (d < 0 || d >= int64_t(std::max<size_t>(1, x->shape.size())))
            return out;
        TensorMeta m = *x;
        if (!m.shape.empty() && m.shape[size_t(d)] == concrete(1)) {
            m.shape.erase(m.shape.begin() + d);
            if (m.hasStride)
                m.stride.erase(m.stride.begin() + d);
        }
        out[0] = m;
    } else if (outputs == 1 && (name == "mm" || name == "bmm")) {
        auto a = meta(0), b = meta(1);
        const size_t rank = name == "mm" ? 2 : 3;
        if (!a || !b || a->shape.size() != rank || b->shape.size() != rank || a->dtype != b->dtype)
            return out;
        std::vector<SymInt> shape(a->shape.begin(), a->shape.end() - 1);
        shape.push_back(b->shape.back());
        out[0] = withShape(*a, shape);
    } else if (outputs == 1 && name == "addmm") {
        auto a = meta(1), b = meta(2);
        if (!a || !b || !meta(0) || a->shape.size() != 2 || b->shape.size() != 2 || a->dtype != b->dtype)
            return out;
        out[0] = withShape(*a, {a->shape[0], b->shape[1]});
    } else if (outputs == 1 && name == "cat") {
        const PyValue *list = value(0);
        if (!list || !list->isSequence() || list->list->empty())
            return out;
        std::vector<TensorMeta> parts;
        std::string dt;
        for (const PyValue &t : *list->list) {
            auto m = tensorMeta(&t);
            if (!m)
                return out;
            if (m->shape.size() == 1 && m->shape[0] == concrete(0))
                continue; // legacy: cat skips 1-D empty tensors
            parts.push_back(*m);
            dt = dt.empty() ? m->dtype : promoteTypes(dt, m->dtype);
        }
        if (parts.empty() || dt.empty())
            return out;
        const size_t rank = parts[0].shape.size();
        const int64_t d = normDim(intArg(1, 0), rank);
        if (d < 0 || d >= int64_t(rank))
            return out;
        std::vector<SymInt> shape = parts[0].shape;
        int64_t total = 0;
        std::vector<std::string> symbolic;
        for (const TensorMeta &m : parts) {
            if (m.shape.size() != rank)
                return out;
            const SymInt &s = m.shape[size_t(d)];
            if (s.isConcrete())
                total += s.value;
            else
                symbolic.push_back(s.expr);
        }
        if (!symbolic.empty()) {
            // sympy collects equal symbols (2*s0); other sums are not modelled.
            if (total != 0
                || !std::all_of(
                    symbolic.begin(), symbolic.end(), [&](const std::string &e) { return e == symbolic[0]; }))
                return out;
            Product p;
            p.multiply(concrete(int64_t(symbolic.size())));
            p.multiply(SymInt{0, symbolic[0]});
            if (!p.ok)
                return out;
            shape[size_t(d)] = p.value();
        } else {
            shape[size_t(d)] = concrete(total);
        }
        out[0] = withShape(parts[0], shape, dt);
    } else if (outputs == 1 && name == "full") {
        auto size = sizeList(value(0));
        const PyValue *fill = value(1);
        if (!size || !fill)
            return out;
        TensorMeta m;
        m.dtype = !dtypeKwarg.empty()            ? dtypeKwarg
            : fill->kind == PyValue::Kind::Float ? "torch.float32"
            : fill->kind == PyValue::Kind::Bool  ? "torch.bool"
                                                 : "torch.int64";
        m.shape = *size;
        const PyValue *dev = value(argIndex("device"));
        m.device = dev && dev->kind == PyValue::Kind::Str ? dev->str() : "cpu";
        setContiguous(m);
        out[0] = m;
    } else if (schema.ns == "npu") {
        // The torch_npu ops' shapes and dtypes, as python/fxscope_capture/npu_ops.py's stand-ins compute them.
        auto rstdOf = [&](const TensorMeta &xm, const TensorMeta &gamma) {
            TensorMeta r = xm;
            r.dtype = "torch.float32";
            for (size_t k = 0; k < gamma.shape.size() && k < r.shape.size(); ++k)
                r.shape[r.shape.size() - 1 - k] = concrete(1);
            setContiguous(r);
            return r;
        };
        if (name == "npu_rms_norm" && outputs == 2 && x && meta(1)) {
            if (auto y = pointwise({value(0)}, x->dtype))
                out = {*y, rstdOf(*x, *meta(1))};
        } else if ((name == "npu_add_rms_norm" && outputs == 3) || (name == "npu_add_rms_norm_cast" && outputs == 4)) {
            auto sum = pointwise({value(0), value(1)}, resultType({value(0), value(1)}));
            auto gamma = meta(2);
            if (!sum || !gamma)
                return out;
            const TensorMeta rstd = rstdOf(*sum, *gamma);
            if (outputs == 3) {
                out = {*sum, rstd, *sum};
            } else {
                TensorMeta f = *sum;
                f.dtype = "torch.float32";
                out = {f, *sum, rstd, *sum};
            }
        } else if (name == "npu_swiglu" && outputs == 1 && x && !x->shape.empty()) {
            const int64_t d = normDim(intArg(1, -1), x->shape.size());
            if (d < 0 || d >= int64_t(x->shape.size()) || !x->shape[size_t(d)].isConcrete()
                || x->shape[size_t(d)].value % 2 != 0)
                return out;
            std::vector<SymInt> shape = x->shape;
            shape[size_t(d)] = concrete(shape[size_t(d)].value / 2);
            out[0] = withShape(*x, shape);
        } else if (name == "npu_rotary_mul" && outputs == 1) {
            out[0] = pointwise({value(0), value(1), value(2)}, resultType({value(0), value(1), value(2)}));
        } else if ((name == "npu_dtype_cast" || name == "_npu_dtype_cast") && outputs == 1 && x) {
            static const std::map<int64_t, std::string> scalarTypes = {{0, "torch.uint8"}, {1, "torch.int8"},
                {2, "torch.int16"}, {3, "torch.int32"}, {4, "torch.int64"}, {5, "torch.float16"}, {6, "torch.float32"},
                {7, "torch.float64"}, {11, "torch.bool"}, {15, "torch.bfloat16"}};
            std::string dt = dtypeName(value(1));
            if (dt.empty() && value(1) && value(1)->kind == PyValue::Kind::Int && scalarTypes.count(value(1)->i))
                dt = scalarTypes.at(value(1)->i);
            if (!dt.empty()) {
                TensorMeta m = *x;
                m.dtype = dt;
                out[0] = m;
            }
        } else if (name == "npu_dynamic_quant" && outputs == 2 && x && x->shape.size() >= 2
            && !value(argIndex("dst_type"))) {
            // per-token int8 (torch_npu's meta): the quantized tensor and one float32 scale per row
            TensorMeta q = withShape(*x, x->shape, "torch.int8");
            std::vector<SymInt> rows(x->shape.begin(), x->shape.end() - 1);
            out = {q, withShape(*x, rows, "torch.float32")};
        } else if (name == "npu_add_rms_norm_dynamic_quant" && outputs == 5 && x && !x->shape.empty()) {
            // y1, y2 (int8), x_out, scale1, scale2 (float32 per row); an output the mask leaves out has size 0
            bool y1 = true, y2 = false;
            const PyValue *mask = value(argIndex("output_mask"));
            if (mask && mask->isSequence() && mask->list->size() == 2) {
                y1 = (*mask->list)[0].i != 0;
                y2 = (*mask->list)[1].i != 0;
            } else if (!mask || mask->isNone()) {
                auto given = [&](const char *arg) {
                    const PyValue *v = value(argIndex(arg));
                    return v && !v->isNone();
                };
                y2 = given("smooth_scale1") && given("smooth_scale2");
            } else {
                return out;
            }
            const std::vector<SymInt> empty{concrete(0)};
            const std::vector<SymInt> rows(x->shape.begin(), x->shape.end() - 1);
            out = {withShape(*x, y1 ? x->shape : empty, "torch.int8"), withShape(*x, y2 ? x->shape : empty, "torch.int8"),
                withShape(*x, x->shape), withShape(*x, y1 ? rows : empty, "torch.float32"),
                withShape(*x, y2 ? rows : empty, "torch.float32")};
        }
    }
    return out;
}

} // namespace fxs
