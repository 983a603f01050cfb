# Two patterns where the first replacement (at a later anchor) drops a use of `m`, so the second pattern, which
# needs `m` to have one user, matches on the graph as Inductor's sweep leaves it.
import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only, PatternMatcherPass

patterns = PatternMatcherPass()


def times_zero_plus(t, u):
    return torch.add(t * 0, u)


def just_u(t, u):
    return u + 0


def exp_of_product(a, b):
    return torch.exp(a * b)


def exp_of_swapped_product(a, b):
    return torch.exp(b * a)


inputs = [torch.empty(8), torch.empty(8)]
register_replacement(times_zero_plus, just_u, inputs, fwd_only, [patterns])
register_replacement(exp_of_product, exp_of_swapped_product, inputs, fwd_only, [patterns])
