"""The SiLU fusion written right: x * sigmoid(x) -> silu(x). On a graph with both a SiLU and a gated unit it fires
on the SiLU only, and its numerics are equal."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def silu(x):
    return x * torch.sigmoid(x)


def fused_silu(x):
    return F.silu(x)


register_replacement(silu, fused_silu, [torch.empty(4, 16)], fwd_only, pm_pass)
