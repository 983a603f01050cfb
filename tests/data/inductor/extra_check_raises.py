# An extra_check that raises: Inductor's pass does not catch it, so torch.compile fails at the first candidate.
import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only, PatternMatcherPass

patterns = PatternMatcherPass()


def exp_of_product(a, b):
    return torch.exp(a * b)


def exp_of_swapped_product(a, b):
    return torch.exp(b * a)


def check(match):
    return match.kwargs["c"].meta["val"].ndim == 1


register_replacement(exp_of_product, exp_of_swapped_product, [torch.empty(8), torch.empty(8)], fwd_only, [patterns],
                     extra_check=check)
