"""A static int8 quantization fusion whose replacement multiplies by the scale where the pattern divides by it (the
kernel wanted the inverse scale, and the author passed the scale): it fires wherever the pattern does."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def quant(x, scale):
    return torch.clamp(torch.round(x / scale), -128, 127)


def fused_quant(x, scale):
    return torch.clamp(torch.round(x * scale), -128, 127)


register_replacement(quant, fused_quant, [torch.empty(4, 16), torch.empty(1)], fwd_only, pm_pass)
