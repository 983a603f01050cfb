"""A SiLU fusion written too wide: the pattern takes a * sigmoid(b) for any a and b, the replacement is silu(a),
right only where b is a. A gated unit (x * sigmoid(gate)) matches too and is silently rewritten."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def silu(a, b):
    return a * torch.sigmoid(b)


def fused_silu(a, b):
    return F.silu(a)


register_replacement(silu, fused_silu, [torch.empty(4, 16), torch.empty(4, 16)], fwd_only, pm_pass)
