"""x-transformers' / lucidrains' RMSNorm: F.normalize(x, dim=-1) * sqrt(dim) * g, the scale a math.sqrt constant of
the model width -> x * rsqrt(max(mean(x^2), eps^2 / dim)) * g in f32 (the same value, one reduction). One
registration per model width and precision, the scale computed with math.sqrt as the model code does."""
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

scaled_norm_pass = PatternMatcherPass()


def register_scaled_rms_norm(dim, dtype=torch.float32, pass_dict=scaled_norm_pass):
    scale = math.sqrt(dim)

    def scaled_rms_norm(x, g):
        return F.normalize(x, dim=-1) * scale * g

    def scaled_rms_norm_replacement(x, g):
        xf = x.float()
        ms = xf.pow(2).mean(-1, keepdim=True).clamp_min(1e-24 / dim)
        return (xf * torch.rsqrt(ms)).type_as(x) * g

    example_inputs = [torch.empty(2, 4, dim, dtype=dtype), torch.empty(dim, dtype=dtype)]
    register_replacement(scaled_rms_norm, scaled_rms_norm_replacement, example_inputs, fwd_only, pass_dict)


for width in (32, 64):
    for dtype in (torch.float32, torch.bfloat16):  # F.normalize upcasts bf16/f16: casts in that search graph
        register_scaled_rms_norm(width, dtype)
