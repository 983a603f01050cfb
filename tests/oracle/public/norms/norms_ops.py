"""The fused normalization kernels the norms suite's pattern files replace with, as torch.library custom ops (the
way vLLM declares its _C ops for torch.compile): a schema, a reference implementation in aten ops, a fake kernel.
Imported by the pattern files of this folder (and by the suite's graph builders); defining twice is a no-op."""
import torch
import torch.nn.functional as F

NS = "fxnorms"


def _exists(name):
    try:
        getattr(getattr(torch.ops, NS), name).default
        return True
    except (AttributeError, RuntimeError):
        return False


def _rms_norm(x, weight, epsilon):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + epsilon)
    return weight * h.to(x.dtype)


def _gemma_rms_norm(x, weight, epsilon):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + epsilon)
    return (h * (1.0 + weight.float())).type_as(x)


def _add_layer_norm(x, residual, weight, bias, epsilon):
    return F.layer_norm(x + residual, [x.shape[-1]], weight, bias, epsilon)


def _group_norm_silu(x, weight, bias, groups, epsilon):
    return F.silu(F.group_norm(x, groups, weight, bias, epsilon))


def _rms_scale(x, epsilon):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon)


OPS = {
    "rms_norm": ("rms_norm(Tensor x, Tensor weight, float epsilon) -> Tensor", _rms_norm,
                 lambda x, weight, epsilon: torch.empty_like(x, dtype=torch.promote_types(x.dtype, weight.dtype))),
    "gemma_rms_norm": ("gemma_rms_norm(Tensor x, Tensor weight, float epsilon) -> Tensor", _gemma_rms_norm,
                       lambda x, weight, epsilon: torch.empty_like(x)),
    "add_layer_norm": ("add_layer_norm(Tensor x, Tensor residual, Tensor weight, Tensor bias, float epsilon) -> Tensor",
                       _add_layer_norm, lambda x, residual, weight, bias, epsilon: torch.empty_like(x)),
    "group_norm_silu": ("group_norm_silu(Tensor x, Tensor weight, Tensor bias, int groups, float epsilon) -> Tensor",
                        _group_norm_silu, lambda x, weight, bias, groups, epsilon: torch.empty_like(x)),
    "rms_scale": ("rms_scale(Tensor x, float epsilon) -> Tensor", _rms_scale,
                  lambda x, epsilon: torch.empty_like(x)),
}

_LIB = None


def define():
    global _LIB
    for name, (schema, impl, fake) in OPS.items():
        if _exists(name):
            continue
        if _LIB is None:
            _LIB = torch.library.Library(NS, "FRAGMENT")
        _LIB.define(schema)
        _LIB.impl(name, impl, "CompositeExplicitAutograd")
        torch.library.register_fake(f"{NS}::{name}", lib=_LIB)(fake)


define()
