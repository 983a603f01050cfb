#include "py_decompositions.h"

#include "py_op_meta.h"

#include <cmath>

namespace fxs {

namespace {

// Emits ops into the trace the way a decomposition's Python calls them; every op goes back through emitOp, so a
// decomposed op inside a decomposition decomposes too (softmax.int -> _softmax -> amax ...).
class Emitter {
public:
    Emitter(PyInterpreter &interp, PyTraceGraph &trace, std::string spelledAs)
        : m_interp(interp), m_trace(trace), m_spelledAs(std::move(spelledAs))
    {
    }

    PyValue op(const std::string &target, std::vector<PyValue> args,
        std::vector<std::pair<std::string, PyValue>> kwargs = {}, bool scalarSelf = false)
    {
        PyCallArgs call;
        call.args = std::move(args);
        call.kwargs = std::move(kwargs);
        return PyTorchHost::emitOp(m_interp, m_trace, target, call, m_spelledAs, scalarSelf);
    }
    PyValue dtype(const std::string &name) { return m_interp.makeOpaque(name); }
    // _maybe_convert_to_dtype: prims.convert_element_type only where the dtype differs.
    PyValue to(const PyValue &x, const std::string &dtype)
    {
        auto m = metaOf(x);
        if (m && m->dtype == dtype)
            return x;
        return op("prims.convert_element_type.default", {x, this->dtype(dtype)});
    }
    static std::optional<TensorMeta> metaOf(const PyValue &v)
    {
        if (auto *t = v.as<PyTracedTensor>())
            if (t->node()->meta().val && t->node()->meta().val->kind == ValueMeta::Kind::Tensor)
                return t->node()->meta().val->tensor;
        return std::nullopt;
    }

private:
    PyInterpreter &m_interp;
    PyTraceGraph &m_trace;
    std::string m_spelledAs;
};

// utils.get_computation_dtype: half types compute in float32.
std::string computationDtype(const std::string &dtype)
{
    return dtype == "torch.float16" || dtype == "torch.bfloat16" ? "torch.float32" : dtype;
}

bool given(const std::vector<const PyValue *> &values, size_t i)
{
    return i < values.size() && values[i] && !values[i]->isNone();
}

} // namespace

std::optional<PyValue> PyDecompositions::decompose(PyInterpreter &interp, PyTraceGraph &trace, const OpSchema &schema,
    const std::vector<const PyValue *> &values, const std::string &spelledAs)
{
    const std::string target = schema.target();
    const std::string line = "line " + std::to_string(interp.currentLine()) + ": ";
    auto notReproduced = [&](const std::string &why) -> std::optional<PyValue> {
        trace.warnings.push_back(line + spelledAs + ": fxscope does not reproduce Inductor's decomposition of "
            + target + " " + why + "; recorded as " + target
            + ", so the pattern may differ from the one PyTorch registers");
        return std::nullopt;
    };
    if (values.empty() || !values[0])
        return std::nullopt;
    const PyValue &x = *values[0];
    Emitter e(interp, trace, spelledAs);
    auto xm = Emitter::metaOf(x);

    // torch._refs zeros_like / ones_like / full_like of a strided tensor: full(size, value) with self's dtype, layout
    // and device, so the result no longer uses self.
    if (target == "aten.zeros_like.default" || target == "aten.ones_like.default"
        || target == "aten.full_like.default") {
        const bool full = target == "aten.full_like.default";
        const size_t options = full ? 2 : 1; // dtype, layout, device, pin_memory, memory_format follow
        for (size_t i = options + 1; i < options + 5; ++i)
            if (given(values, i))
                return notReproduced("with layout=, device=, pin_memory= or memory_format=");
        if (!xm || xm->dtype.empty())
            return notReproduced("without a known shape and dtype");
        PyList size;
        for (const SymInt &d : xm->shape)
            size.push_back(d.isConcrete() ? PyValue::ofInt(d.value) : PyValue::ofStr(d.expr));
        const PyValue value = full ? *values[1] : PyValue::ofInt(target == "aten.ones_like.default" ? 1 : 0);
        const PyValue dtype = given(values, options) ? *values[options] : e.dtype(xm->dtype);
        // A tensor made without device= is on torch's default device, the CPU.
        const std::string device = xm->device.empty() || xm->device.rfind("cpu", 0) == 0 ? "cpu" : xm->device;
        return e.op("aten.full.default", {PyValue::ofList(std::move(size)), value},
            {{"dtype", dtype}, {"layout", interp.makeOpaque("torch.strided")}, {"device", PyValue::ofStr(device)},
                {"pin_memory", PyValue::ofBool(false)}});
    }

    // CompositeImplicit flatten: the tensor itself where nothing merges, else reshape, which make_fx records as a
    // view of a contiguous tensor (the sizes merged: a product, a sympy product for symbols).
    if (target == "aten.flatten.using_ints") {
        if (!xm || (xm->hasStride && PyOpMeta::contiguousStrides(xm->shape) != std::optional(xm->stride)))
            return notReproduced("without a known contiguous shape");
        const int64_t rank = int64_t(xm->shape.size());
        auto dim = [&](size_t i, int64_t dflt) {
            int64_t d = given(values, i) && values[i]->isIntLike() ? values[i]->i : dflt;
            return rank == 0 ? 0 : d < 0 ? d + rank : d;
        };
        const int64_t start = dim(1, 0), end = dim(2, -1);
        if (rank == 0 || start < 0 || end >= rank || start > end)
            return notReproduced("of a 0-d tensor or with these dims");
        if (start == end)
            return x;
        PyList size;
        int64_t product = 1;
        std::vector<std::string> symbols;
        for (int64_t i = 0; i < rank; ++i) {
            const SymInt &d = xm->shape[size_t(i)];
            if (i < start || i > end) {
                size.push_back(d.isConcrete() ? PyValue::ofInt(d.value) : PyValue::ofStr(d.expr));
            } else {
                if (d.isConcrete())
                    product *= d.value;
                else
                    symbols.push_back(d.expr);
                if (i == end) {
                    std::string expr = product == 1 && !symbols.empty() ? "" : std::to_string(product);
                    for (const std::string &s : symbols)
                        expr += (expr.empty() ? "" : "*") + s;
                    size.push_back(symbols.empty() ? PyValue::ofInt(product) : PyValue::ofStr(expr));
                }
            }
        }
        return e.op("aten.view.default", {x, PyValue::ofList(std::move(size))});
    }

    if (target == "aten.square.default") // CompositeImplicit: pow(self, 2)
        return e.op("aten.pow.Tensor_Scalar", {x, PyValue::ofInt(2)});

    if (target == "aten.rsub.Scalar") { // torch._refs.rsub: sub(other, self, alpha)
        if (given(values, 2))
            return notReproduced("with alpha");
        return e.op("aten.sub.Tensor", {*values[1], x}, {}, true);
    }

    // Inductor's own silu (decomposition.py, @pw_cast_for_opmath): x / (1 + exp(-x)) in the computation dtype.
    if (target == "aten.silu.default") {
        if (!xm || !PyOpMeta::isFloating(xm->dtype))
            return notReproduced("without a known floating dtype");
        PyValue a = e.to(x, computationDtype(xm->dtype));
        PyValue ex = e.op("aten.exp.default", {e.op("aten.neg.default", {a})});
        PyValue r = e.op("aten.div.Tensor", {a, e.op("aten.add.Tensor", {ex, PyValue::ofInt(1)})});
        return e.to(r, xm->dtype);
    }

    // torch._decomp gelu (@pw_cast_for_opmath), both approximations, with its constants computed as Python does.
    if (target == "aten.gelu.default") {
        if (!xm || !PyOpMeta::isFloating(xm->dtype))
            return notReproduced("without a known floating dtype");
        std::string approximate = "none";
        if (given(values, 1) && values[1]->kind == PyValue::Kind::Str)
            approximate = values[1]->str();
        PyValue a = e.to(x, computationDtype(xm->dtype));
        PyValue r;
        if (approximate == "tanh") {
            const double kBeta = 1.41421356237309504880 * 1.12837916709551257390 * 0.5;
            const double kKappa = 0.044715;
            PyValue cube = e.op("aten.mul.Tensor", {e.op("aten.mul.Tensor", {a, a}), a});
            PyValue inner = e.op("aten.add.Tensor", {a, e.op("aten.mul.Tensor", {cube, PyValue::ofFloat(kKappa)})});
            inner = e.op("aten.mul.Tensor", {inner, PyValue::ofFloat(kBeta)});
            PyValue half = e.op("aten.mul.Tensor", {a, PyValue::ofFloat(0.5)});
            PyValue t = e.op("aten.add.Tensor", {e.op("aten.tanh.default", {inner}), PyValue::ofInt(1)});
            r = e.op("aten.mul.Tensor", {half, t});
        } else if (approximate == "none") {
            const double kAlpha = 0.70710678118654752440;
            PyValue half = e.op("aten.mul.Tensor", {a, PyValue::ofFloat(0.5)});
            PyValue erf = e.op("aten.erf.default", {e.op("aten.mul.Tensor", {a, PyValue::ofFloat(kAlpha)})});
            r = e.op("aten.mul.Tensor", {half, e.op("aten.add.Tensor", {erf, PyValue::ofInt(1)})});
        } else {
            return notReproduced("with approximate='" + approximate + "'");
        }
        return e.to(r, xm->dtype);
    }

    // softmax.int / log_softmax.int (CompositeImplicit): a dtype= casts first, then _softmax(x, dim, False).
    if (target == "aten.softmax.int" || target == "aten.log_softmax.int") {
        if (given(values, 2))
            return notReproduced("with dtype=");
        const std::string inner = target == "aten.softmax.int" ? "aten._softmax.default" : "aten._log_softmax.default";
        return e.op(inner, {x, *values[1], PyValue::ofBool(false)});
    }
    // torch._decomp _softmax / _log_softmax: amax over dim (keepdim), exp of the shifted input, sum, div (or log/sub).
    if (target == "aten._softmax.default" || target == "aten._log_softmax.default") {
        if (!xm || !PyOpMeta::isFloating(xm->dtype))
            return notReproduced("without a known floating dtype");
        if (given(values, 2) && values[2]->i != 0)
            return notReproduced("with half_to_float=True");
        if (xm->shape.empty())
            return notReproduced("of a zero-dim tensor");
        const PyValue dims = PyValue::ofList({*values[1]});
        PyValue a = e.to(x, computationDtype(xm->dtype));
        PyValue amax = e.op("aten.amax.default", {a, dims, PyValue::ofBool(true)});
        PyValue shifted = e.op("aten.sub.Tensor", {a, amax});
        PyValue r;
        if (target == "aten._softmax.default") {
            PyValue ex = e.op("aten.exp.default", {shifted});
            r = e.op("aten.div.Tensor", {ex, e.op("aten.sum.dim_IntList", {ex, dims, PyValue::ofBool(true)})});
        } else {
            PyValue ex = e.op("aten.exp.default", {shifted});
            PyValue s = e.op("aten.sum.dim_IntList", {ex, dims, PyValue::ofBool(true)});
            r = e.op("aten.sub.Tensor", {shifted, e.op("aten.log.default", {s})});
        }
        return e.to(r, xm->dtype);
    }

    // layer_norm (CompositeImplicit) -> native_layer_norm -> torch._refs.native_layer_norm; only output 0 is used, so
    // mean and rstd's conversions are dead code fwd_only drops.
    if (target == "aten.layer_norm.default") {
        if (!xm || !PyOpMeta::isFloating(xm->dtype))
            return notReproduced("without a known floating dtype");
        const PyValue *normalized = values.size() > 1 ? values[1] : nullptr;
        if (!normalized || !normalized->isSequence() || normalized->list->empty()
            || normalized->list->size() > xm->shape.size())
            return notReproduced("with this normalized_shape");
        PyList reduction;
        for (size_t k = xm->shape.size() - normalized->list->size(); k < xm->shape.size(); ++k)
            reduction.push_back(PyValue::ofInt(int64_t(k)));
        double eps = 1e-05;
        if (given(values, 4))
            eps = values[4]->number();
        PyValue a = e.to(x, computationDtype(xm->dtype));
        PyValue vm = e.op("aten.var_mean.correction", {a, PyValue::ofList(reduction)},
            {{"correction", PyValue::ofInt(0)}, {"keepdim", PyValue::ofBool(true)}});
        if (!vm.isSequence() || vm.list->size() != 2)
            return notReproduced("(var_mean gave no pair)");
        PyValue rstd = e.op("aten.rsqrt.default", {e.op("aten.add.Tensor", {(*vm.list)[0], PyValue::ofFloat(eps)})});
        PyValue out = e.op("aten.mul.Tensor", {e.op("aten.sub.Tensor", {a, (*vm.list)[1]}), rstd});
        const bool weight = given(values, 2), bias = given(values, 3);
        if (weight)
            out = e.op("aten.mul.Tensor", {out, *values[2]});
        if (bias)
            out = e.op("aten.add.Tensor", {out, *values[3]});
        return e.to(out, xm->dtype);
    }

    // transpose/t (CompositeImplicit over permute in Inductor's table): recorded as permute.
    if ((target == "aten.t.default" || target == "aten.transpose.int") && xm) {
        const size_t rank = xm->shape.size();
        if (target == "aten.t.default" && rank != 2)
            return notReproduced("of a tensor that is not 2-D");
        if (rank < 2)
            return notReproduced("of a tensor with fewer than 2 dimensions");
        int64_t a = target == "aten.t.default" ? 0 : values[1]->i, b = target == "aten.t.default" ? 1 : values[2]->i;
        a += a < 0 ? int64_t(rank) : 0;
        b += b < 0 ? int64_t(rank) : 0;
        if (a < 0 || b < 0 || a >= int64_t(rank) || b >= int64_t(rank))
            return std::nullopt;
        PyList perm;
        for (size_t k = 0; k < rank; ++k)
            perm.push_back(PyValue::ofInt(int64_t(k) == a ? b : int64_t(k) == b ? a : int64_t(k)));
        return e.op("aten.permute.default", {x, PyValue::ofList(perm)});
    }
    return std::nullopt;
}

} // namespace fxs
