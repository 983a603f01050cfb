"""Gemma's RMSNorm (HF GemmaRMSNorm / vLLM GemmaRMSNorm.forward_static): a nested _norm helper on the float32
upcast, the weight applied as (1 + weight), cast back with type_as -> a gemma_rms_norm custom op. Registered for
the bf16 trace (casts present) and the f32 trace (casts gone) over Gemma's epsilons, with a shape check."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import norms_ops  # noqa: F401

gemma_norm_pass = PatternMatcherPass(pass_name="gemma_rms_norm")


def _gemma_pattern(eps):
    def _norm(x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)

    def gemma_rms_norm(x, weight):
        output = _norm(x.float())
        output = output * (1.0 + weight.float())
        return output.type_as(x)

    def gemma_rms_norm_replacement(x, weight):
        return torch.ops.fxnorms.gemma_rms_norm.default(x, weight, eps)

    return gemma_rms_norm, gemma_rms_norm_replacement


def _weight_is_hidden(match):
    x = match.kwargs["x"].meta["val"]
    w = match.kwargs["weight"].meta["val"]
    return w.dim() == 1 and w.shape[0] == x.shape[-1]


for eps in (1e-6, 1e-5):
    for dtype in (torch.bfloat16, torch.float32):
        search, replace = _gemma_pattern(eps)
        register_replacement(search, replace, [torch.empty(3, 64, dtype=dtype), torch.empty(64, dtype=dtype)],
                             fwd_only, gemma_norm_pass, extra_check=_weight_is_hidden)
