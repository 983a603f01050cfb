"""mul(x, y) + z -> addcmul(z, x, y) registered through Inductor's own register_replacement: one
PatternMatcherPass.apply, without TorchAir's graph passes around it (compare mul_add.py)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def mul_add(x, y, z):
    return x * y + z


def mul_add_replacement(x, y, z):
    return torch.addcmul(z, x, y)


register_replacement(mul_add, mul_add_replacement, [torch.empty(4, 4)] * 3, fwd_only, patterns)
