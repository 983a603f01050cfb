"""Two patterns where the first replacement (a * 0.0 -> zeros_like(a), which Inductor decomposes to full()) removes the outside user of the second one's
intermediate (sin): Inductor changes the graph between anchors, so cos(sin(x)) then has a single-user sin."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def sin_cos(x):
    return torch.cos(torch.sin(x))


def sin_cos_replacement(x):
    return torch.cos(torch.sin(x)) * 1.0


def times_zero(a):
    return a * 0.0


def times_zero_replacement(a):
    return torch.zeros_like(a)  # decomposed to full([4, 4], 0): no longer a user of a


register_replacement(sin_cos, sin_cos_replacement, [torch.empty(4, 4)], fwd_only, patterns)
register_replacement(times_zero, times_zero_replacement, [torch.empty(4, 4)], fwd_only, patterns)
