"""slice_near.py with the hint applied: the graph's no-op slice is part of the pattern."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def gelu_gate(x, y):
    h = torch.nn.functional.gelu(x, approximate="tanh")
    return torch.ops.aten.slice.Tensor(h, 1, 0, 9223372036854775807) * y


def fused_gelu_gate(x, y):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))) * y


register_replacement(gelu_gate, fused_gelu_gate, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only, pm_pass)
