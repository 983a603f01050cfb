"""The fused activation kernels the activations suite's pattern files replace with: torch.library custom ops with a
reference implementation and a fake one, as vLLM's _custom_ops / a csrc kernel library declares them. Imported by
the pattern files of this folder (`import activations_ops`) and by the suite's graph builders."""
import math

import torch
import torch.nn.functional as F

NS = "fxscope_act"


def _defined(name):
    try:
        getattr(getattr(torch.ops, NS), name).default
        return True
    except (AttributeError, RuntimeError):
        return False


_lib = torch.library.Library(NS, "FRAGMENT")


def _op(schema, impl, fake):
    name = schema.split("(", 1)[0]
    if _defined(name):
        return
    _lib.define(schema)
    _lib.impl(name, impl, "CompositeExplicitAutograd")
    torch.library.register_fake(f"{NS}::{name}", lib=_lib)(fake)


def _like(x, *rest, **kw):
    return torch.empty_like(x)


def _half_last(x):
    return x.new_empty(x.shape[:-1] + (x.shape[-1] // 2,))


_op("gelu(Tensor x, str approximate='none') -> Tensor", lambda x, approximate="none": F.gelu(x, approximate=approximate),
    _like)
_op("quick_gelu(Tensor x) -> Tensor", lambda x: x * torch.sigmoid(1.702 * x), _like)
_op("swish(Tensor x, float beta) -> Tensor", lambda x, beta: x * torch.sigmoid(beta * x), _like)
_op("silu_and_mul(Tensor x) -> Tensor",
    lambda x: F.silu(x[..., : x.shape[-1] // 2]) * x[..., x.shape[-1] // 2:], _half_last)
_op("gelu_and_mul(Tensor gate, Tensor up, str approximate='none') -> Tensor",
    lambda gate, up, approximate="none": F.gelu(gate, approximate=approximate) * up,
    lambda gate, up, approximate="none": torch.empty_like(up))
_op("linear_gelu(Tensor x, Tensor weight_t, Tensor bias, str approximate='none') -> Tensor",
    lambda x, weight_t, bias, approximate="none": F.gelu(torch.addmm(bias, x, weight_t), approximate=approximate),
    lambda x, weight_t, bias, approximate="none": x.new_empty((x.shape[0], weight_t.shape[1])))
_op("mish(Tensor x) -> Tensor", lambda x: F.mish(x), _like)
_op("hardswish(Tensor x) -> Tensor", lambda x: F.hardswish(x), _like)
_op("hardsigmoid(Tensor x) -> Tensor", lambda x: F.hardsigmoid(x), _like)
_op("add_relu(Tensor x, Tensor residual) -> Tensor", lambda x, residual: torch.relu(x + residual),
    lambda x, residual: torch.empty_like(x + residual))
_op("add_tanh(Tensor x, Tensor residual) -> Tensor", lambda x, residual: torch.tanh(x + residual),
    lambda x, residual: torch.empty_like(x + residual))
_op("leaky_relu(Tensor x, float slope) -> Tensor", lambda x, slope: F.leaky_relu(x, slope), _like)

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
