"""fxscope's built-in patterns (optimizer/patterns/builtin_patterns.cpp) registered in Inductor itself, for
bench/match/run.py: torch._inductor.pattern_matcher.register_replacement into one PatternMatcherPass, in
fxscope's registration order, with the same search graphs, the same scalar_workaround values and the same
extra_check (add_rms_norm's last dim == 7168).

Each search_fn is the aten code of the built-in's search graph (what make_fx prints), traced by Inductor's fwd_only
with no decomposition table (get_decomp_fn=dict): the built-ins are the graphs as written, with aten.silu and
aten.var_mean as calls. Inductor's default table (select_decomp_table) would trace silu as x * sigmoid(x) and never
match a dump that calls aten.silu. run.py checks that each PatternExpr Inductor built prints as fxscope's
(`fxscope-cli patterns builtin --json`).

The npu ops of the replacements (and of add_rms_norm's search) come from fxscope_capture.npu_ops when torch_npu is
absent: torch_npu's schemas with an aten implementation for shapes; only their output meta matters to Inductor's
replacement step.
"""

import functools
import sys
from pathlib import Path

import torch
import torch._inductor.pattern_matcher as pm

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))  # fxscope_capture, installed or not
from fxscope_capture.npu_ops import npu_op  # noqa: E402

aten, prims = torch.ops.aten, torch.ops.prims


def define_npu_ops():
    # fxscope_capture's stand-ins: torch_npu's schemas with an aten implementation (kept if torch_npu defined them).
    for name in ("npu_rms_norm", "npu_add_rms_norm", "npu_swiglu"):
        npu_op(name)


# --- search and replace functions: builtin_patterns.cpp's graphs, op for op ----------------------------------------

def rms_norm_search(x, weight, eps):
    pow_1 = aten.pow.Tensor_Scalar(x, 2)
    mean = aten.mean.dim(pow_1, [-1], True)
    add = aten.add.Tensor(mean, eps)
    rsqrt = aten.rsqrt.default(add)
    mul = aten.mul.Tensor(x, rsqrt)
    return aten.mul.Tensor(weight, mul)


def rms_norm_replace(x, weight, eps):
    return torch.ops.npu.npu_rms_norm.default(x, weight, eps)[0]


def rms_norm_cast_search(x, weight, eps):
    convert_element_type = prims.convert_element_type.default(x, torch.float32)
    pow_1 = aten.pow.Tensor_Scalar(convert_element_type, 2)
    mean = aten.mean.dim(pow_1, [-1], True)
    add = aten.add.Tensor(mean, eps)
    rsqrt = aten.rsqrt.default(add)
    mul = aten.mul.Tensor(convert_element_type, rsqrt)
    convert_element_type_1 = prims.convert_element_type.default(mul, torch.float16)
    return aten.mul.Tensor(weight, convert_element_type_1)


def add_rms_norm_search(x1, x2, gamma):
    add = aten.add.Tensor(x1, x2)
    npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, gamma)
    return npu_rms_norm[0], add


def add_rms_norm_replace(x1, x2, gamma):
    out = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    return out[0], out[2]


def add_rms_norm_check(match):
    # TorchAir's documented example check, as the built-in's extra_check source says.
    x1 = match.kwargs.get("x1")
    if x1 is None:
        return False
    if not hasattr(x1, "meta") or "val" not in x1.meta:
        return False
    return x1.meta["val"].shape[-1] == 7168


def swiglu_search(gate, up):
    silu = aten.silu.default(gate)
    return aten.mul.Tensor(silu, up)


def swiglu_replace(gate, up):
    cat = aten.cat.default([gate, up], -1)
    return torch.ops.npu.npu_swiglu.default(cat, -1)


def layer_norm_search(x, weight, bias, eps):
    # F.layer_norm's decomposition: var_mean over the last weight.dim() dims, as non-negative dims (the built-in's
    # {reduction_dims}, filled from the inputs' shapes; Inductor's check re-traces with the match's shapes).
    dims = list(range(x.dim() - weight.dim(), x.dim()))
    var_mean = aten.var_mean.correction(x, dims, correction=0, keepdim=True)
    getitem, getitem_1 = var_mean[0], var_mean[1]
    add = aten.add.Tensor(getitem, eps)
    rsqrt = aten.rsqrt.default(add)
    sub = aten.sub.Tensor(x, getitem_1)
    mul = aten.mul.Tensor(sub, rsqrt)
    mul_1 = aten.mul.Tensor(mul, weight)
    return aten.add.Tensor(mul_1, bias)


def layer_norm_replace(x, weight, bias, eps):
    return aten.native_layer_norm.default(x, list(weight.shape), weight, bias, eps)[0]


def addmm_search(bias, mat1, mat2):
    mm = aten.mm.default(mat1, mat2)
    return aten.add.Tensor(mm, bias)


def addmm_replace(bias, mat1, mat2):
    return aten.addmm.default(bias, mat1, mat2)


def _t(dtype, *shape):
    return functools.partial(torch.empty, shape, dtype=dtype)


F16, F32 = torch.float16, torch.float32
# name -> (search, replace, example inputs (the built-in's annotations), scalar_workaround, extra_check)
BUILTINS = {
    "rms_norm": (rms_norm_search, rms_norm_replace, [_t(F32, 2, 8), _t(F32, 8)], {"eps": 1e-06}, None),
    "rms_norm_cast": (rms_norm_cast_search, rms_norm_replace, [_t(F16, 2, 8), _t(F16, 8)], {"eps": 1e-06}, None),
    "add_rms_norm": (add_rms_norm_search, add_rms_norm_replace, [_t(F16, 1, 1, 2), _t(F16, 1, 1, 2), _t(F16, 2)], {},
                     add_rms_norm_check),
    "swiglu": (swiglu_search, swiglu_replace, [_t(F16, 2, 8), _t(F16, 2, 8)], {}, None),
    "layer_norm": (layer_norm_search, layer_norm_replace, [_t(F32, 2, 8), _t(F32, 8), _t(F32, 8)], {"eps": 1e-05},
                   None),
    "addmm": (addmm_search, addmm_replace, [_t(F32, 8), _t(F32, 4, 6), _t(F32, 6, 8)], {}, None),
}


def builtin_pass():
    """A PatternMatcherPass with the six built-ins, and {name: PatternEntry} (one entry per pattern; a
    multi-output pattern is listed under each of its anchors in the pass)."""
    define_npu_ops()
    pass_ = pm.PatternMatcherPass()
    entries = {}
    for name, (search, replace, examples, scalars, check) in BUILTINS.items():
        before = {id(e) for es in pass_.patterns.values() for e in es}
        kwargs = {"scalar_workaround": scalars} if scalars else {}
        if check is not None:
            kwargs["extra_check"] = check
        ok = pm.register_replacement(search, replace, [make() for make in examples], pm.fwd_only, pass_,
                                     get_decomp_fn=dict, pattern_name=name, **kwargs)
        if ok is False:
            raise RuntimeError(f"register_replacement refused {name}")
        new = [e for es in pass_.patterns.values() for e in es if id(e) not in before]
        if not new:
            raise RuntimeError(f"{name}: register_replacement added no entry")
        entries[name] = new[0]
    return pass_, entries
