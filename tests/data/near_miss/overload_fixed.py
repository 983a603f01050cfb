"""overload_near.py with the hint applied: the exponent is the Python number the model passes."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def squared_scale(x, s):
    return torch.pow(x, 2) * s


def fused_squared_scale(x, s):
    return x * x * s


register_replacement(squared_scale, fused_squared_scale, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only, pm_pass)
