"""cast_checked_near.py with its hint applied: the cast before the weight."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def rms_norm(x, w):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * h.to(x.dtype)


def fused_rms_norm(x, w):
    h = x.to(torch.float32)
    return w * (h / torch.sqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)).to(x.dtype)


def wide_rows(match):
    # the fused kernel is tuned for rows of 128
    hidden = match.kwargs["x"].meta["val"].shape[-1]
    return hidden == 128


register_replacement(rms_norm, fused_rms_norm, [torch.empty(4, 16, dtype=torch.bfloat16),
                                                torch.empty(16, dtype=torch.bfloat16)], fwd_only, pm_pass,
                     extra_check=wide_rows)
