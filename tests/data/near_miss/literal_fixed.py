"""literal_near.py with the hint applied: the scale is a search_fn parameter given in scalar_workaround."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def scaled_residual(x, r, scale):
    return x + r * scale


def fused_scaled_residual(x, r, scale):
    return torch.add(x, r, alpha=scale)


register_replacement(scaled_residual, fused_scaled_residual, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only,
                     pm_pass, scalar_workaround={"scale": 0.5})
