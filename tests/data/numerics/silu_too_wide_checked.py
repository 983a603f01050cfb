"""silu_too_wide.py with the extra_check its author should have written: a * sigmoid(b) is silu(a) only where b is a.
The gated unit (x * sigmoid(gate)) is refused; fused anyway (match --check-numerics --refused) it differs, which is
what the check keeps out."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def silu(a, b):
    return a * torch.sigmoid(b)


def fused_silu(a, b):
    return F.silu(a)


def same_input(match):
    return match.kwargs["a"] is match.kwargs["b"]


register_replacement(silu, fused_silu, [torch.empty(4, 16), torch.empty(4, 16)], fwd_only, pm_pass,
                     extra_check=same_input)
