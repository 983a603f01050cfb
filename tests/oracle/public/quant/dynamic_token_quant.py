"""Dynamic per-token int8 quantization (amax over the hidden dim, scale = amax / 127, round, clamp) -> one
dynamic_quant kernel returning (q, scale), registered once per activation dtype (f16 and bf16 trace alike: skip_duplicates), with
nested helpers for the scale and the rounding, in the style of vLLM's compilation/fusion.py."""
import torch
from torch._inductor import pattern_matcher as pm

import fxq_ops  # noqa: F401

QMAX = float(torch.iinfo(torch.int8).max)
_pass = pm.PatternMatcherPass(pass_name="dynamic_per_token_quant")


def _per_token_scale(xf):
    return xf.abs().amax(dim=-1, keepdim=True) / QMAX


def _round_to_int8(xf, scale):
    return torch.clamp(torch.round(xf / scale), -QMAX - 1, QMAX).to(torch.int8)


def per_token_quant(x):
    xf = x.to(torch.float32)
    scale = _per_token_scale(xf)
    return _round_to_int8(xf, scale), scale


def per_token_quant_kernel(x):
    q, scale = torch.ops.fxq.dynamic_quant.default(x)
    return q, scale


for dtype in (torch.float16, torch.bfloat16, torch.float32):
    pm.register_replacement(per_token_quant, per_token_quant_kernel, [torch.empty(8, 64, dtype=dtype)],
                            pm.fwd_only, _pass, skip_duplicates=True)
