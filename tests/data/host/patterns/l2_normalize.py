"""F.normalize(x, dim=-1) -> x * rsqrt(max(sum(x^2), eps^2)), as a fused L2-norm kernel would compute it."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement


def normalize(x):
    return F.normalize(x, p=2.0, dim=-1)


def fused(x):
    return x * torch.rsqrt(torch.sum(x * x, dim=-1, keepdim=True).clamp_min(1e-24))


register_replacement(normalize, fused, [torch.empty(4, 32)], fwd_only, PatternMatcherPass())
