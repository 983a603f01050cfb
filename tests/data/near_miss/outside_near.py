"""SiLU-and-mul (vLLM's act_and_mul) where the model also reads the SiLU's output elsewhere."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def silu_and_mul(x, y):
    t = torch.sigmoid(x) * x
    return t * y


def fused_silu_and_mul(x, y):
    return torch.nn.functional.silu(x) * y


register_replacement(silu_and_mul, fused_silu_and_mul, [torch.empty(4, 32), torch.empty(4, 32)], fwd_only, pm_pass)
