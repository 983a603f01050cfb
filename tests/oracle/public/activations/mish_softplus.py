"""Mish and softplus as YOLO/CSP model code writes them: x * torch.tanh(F.softplus(x)) -> a fused mish kernel, and
the naive torch.log(1 + torch.exp(x)) softplus -> F.softplus (the numerically stable formulation). Nested helper
functions, and a register loop over (search, replacement) pairs, as in a hand-written fx_passes file."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

mish_pass = PatternMatcherPass()


def _softplus(x):
    return F.softplus(x)


def mish(x):
    return x * torch.tanh(_softplus(x))


def mish_fused(x):
    return torch.ops.fxscope_act.mish.default(x)


def naive_softplus(x):
    return torch.log(1.0 + torch.exp(x))


def stable_softplus(x):
    return F.softplus(x)


for search, replace in ((mish, mish_fused), (naive_softplus, stable_softplus)):
    register_replacement(search, replace, [torch.empty(2, 16, 16)], fwd_only, mish_pass)
