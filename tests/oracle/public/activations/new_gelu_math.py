"""GPT-2 / HF NewGELUActivation written out (math.sqrt(2.0 / math.pi), 0.044715, torch.pow(x, 3.0)) -> one
F.gelu(approximate="tanh"). In the style of a plain Inductor post-grad pass file: a module-level
PatternMatcherPass and one register_replacement with fwd_only."""
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass(pass_name="new_gelu_fusion")


def new_gelu(input):
    return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


def new_gelu_replacement(input):
    return F.gelu(input, approximate="tanh")


register_replacement(new_gelu, new_gelu_replacement, [torch.empty(4, 32)], fwd_only, [patterns])
