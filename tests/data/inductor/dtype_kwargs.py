"""Two patterns that differ only in a dtype= kwarg (cumsum to float32 / to float64): Inductor's duplicate key
holds the traced search graph, kwargs included, so both register and each fires on its own dtype."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def cumsum_f32(x):
    return torch.cumsum(x, -1, dtype=torch.float32) * 2.0


def cumsum_f32_replacement(x):
    return torch.cumsum(x * 2.0, -1, dtype=torch.float32)


def cumsum_f64(x):
    return torch.cumsum(x, -1, dtype=torch.float64) * 2.0


def cumsum_f64_replacement(x):
    return torch.cumsum(x * 2.0, -1, dtype=torch.float64)


register_replacement(cumsum_f32, cumsum_f32_replacement, [torch.empty(4, 4)], fwd_only, patterns)
register_replacement(cumsum_f64, cumsum_f64_replacement, [torch.empty(4, 4)], fwd_only, patterns)
