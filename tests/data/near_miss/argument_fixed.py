"""argument_near.py with the hint applied: keepdim=True, as the model passes it."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def rms_factor(x):
    return torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def fused_rms_factor(x):
    return 1.0 / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


register_replacement(rms_factor, fused_rms_factor, [torch.empty(4, 32)], fwd_only, pm_pass)
