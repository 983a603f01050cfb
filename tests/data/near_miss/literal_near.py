"""A scaled residual with its scale hard-coded (0.5): Inductor's generic pattern ignores the number, the re-trace
with the match's values does not, and the model scales by 0.25."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def scaled_residual(x, r):
    return x + r * 0.5


def fused_scaled_residual(x, r):
    return torch.add(x, r, alpha=0.5)


register_replacement(scaled_residual, fused_scaled_residual, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only,
                     pm_pass)
