"""fwd_only's own passes on the search function: a no-op slice (remove_noop_ops), a dead exp (DCE), a reshape
(recorded as view by the decompositions) and square (decomposed to pow / mul)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()
INT64_MAX = 9223372036854775807


def square_sum(x):
    full = torch.ops.aten.slice.Tensor(x, 0, 0, INT64_MAX)
    _unused = torch.exp(x)
    return torch.square(full).reshape(-1).sum()


def square_sum_replacement(x):
    return (x * x).sum()


register_replacement(square_sum, square_sum_replacement, [torch.empty(4, 4)], fwd_only, patterns)
