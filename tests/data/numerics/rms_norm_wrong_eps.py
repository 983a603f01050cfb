"""An RMSNorm fusion whose replacement takes its epsilon from the wrong place: the pattern's eps is 1e-6, the
replacement's hard-coded 1e-2 (as when a kernel's default is left in). Applied without a warning; only the numbers
tell."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def rms_norm(x, w):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * h.to(x.dtype)


def fused_rms_norm(x, w):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-2)
    return w * h.to(x.dtype)


register_replacement(rms_norm, fused_rms_norm, [torch.empty(4, 16), torch.empty(16)], fwd_only, pm_pass)
