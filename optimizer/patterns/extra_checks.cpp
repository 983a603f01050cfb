#include "extra_checks.h"

namespace fxs {

ExtraCheck lastDimEquals(const std::string &input, int64_t value)
{
    return [input, value](const Match &m) {
        CheckVerdict v;
        const Argument *x = m.kwarg(input);
        if (!x) {
            v.ok = false;
            v.trace.push_back(input + " = match.kwargs.get(\"" + input + "\") → None, so return False");
            return v;
        }
        if (!x->isNode() || !x->node()->meta().val || x->node()->meta().val->kind != ValueMeta::Kind::Tensor) {
            v.ok = false;
            v.trace.push_back(input + " is " + (x->isNode() ? x->node()->name() : x->toPython())
                + ", which has no tensor meta[\"val\"], so return False");
            return v;
        }
        const TensorMeta &t = x->node()->meta().val->tensor;
        std::string shape = "[";
        for (size_t i = 0; i < t.shape.size(); ++i)
            shape += (i ? ", " : "") + t.shape[i].toString();
        shape += "]";
        v.trace.push_back(
            input + " = " + x->node()->name() + "; a_shape = " + input + ".meta[\"val\"].shape → " + shape);
        const std::string test = "a_shape[-1] == " + std::to_string(value);
        if (t.shape.empty()) {
            v.ok = false;
            v.trace.push_back(test + " → IndexError: the tensor is 0-dimensional, so the check fails");
            return v;
        }
        const SymInt &last = t.shape.back();
        if (!last.isConcrete()) {
            v.ok = false;
            v.trace.push_back(test + " → False because a_shape[-1] is the symbol " + last.expr
                + " (guard_or_false of an unknown comparison)");
            return v;
        }
        v.ok = last.value == value;
        v.trace.push_back(
            test + " → " + (v.ok ? "True" : "False") + " because a_shape[-1] is " + std::to_string(last.value));
        return v;
    };
}

} // namespace fxs
