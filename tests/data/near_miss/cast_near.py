"""RMSNorm as its author wrote it for fp32 (vLLM-style): a bf16 model casts to fp32 and back, so the graph has a
cast before the weight that this pattern lacks."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def rms_norm(x, w):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * h


def fused_rms_norm(x, w):
    h = x.to(torch.float32)
    return w * (h / torch.sqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6))


register_replacement(rms_norm, fused_rms_norm, [torch.empty(4, 16, dtype=torch.bfloat16),
                                                torch.empty(16, dtype=torch.bfloat16)], fwd_only, pm_pass)
