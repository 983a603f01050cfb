"""exclusive_arg_names=("a", "b"): a and b must bind two different graph nodes, so mul(t, t) is no match."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def mul_add(a, b, c):
    return a * b + c


def mul_add_replacement(a, b, c):
    return torch.addcmul(c, a, b)


register_replacement(mul_add, mul_add_replacement, [torch.empty(4, 4), torch.empty(4, 4), torch.empty(4, 4)], fwd_only, patterns,
                     exclusive_arg_names=("a", "b"))
