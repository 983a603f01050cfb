"""outside_near.py with the hint applied: the SiLU is returned as a second output, so the graph keeps it."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def silu_and_mul(x, y):
    t = torch.sigmoid(x) * x
    return t * y, t


def fused_silu_and_mul(x, y):
    t = torch.nn.functional.silu(x)
    return t * y, t


register_replacement(silu_and_mul, fused_silu_and_mul, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only, pm_pass)
