"""GPT-2's tanh GELU as model code writes it (math.sqrt(2 / pi), torch.pow) -> F.gelu(approximate="tanh")."""
import math

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gelu_fused(x):
    return torch.nn.functional.gelu(x, approximate="tanh")


register_replacement(gelu_tanh, gelu_fused, [torch.empty(8, 16)], fwd_only, PatternMatcherPass())
