# Hugging Face's T5/MT5 RMSNorm with float32 example inputs: Inductor's trace of x.to(torch.float32) on a float32
# tensor records nothing, so the pattern fires on every float32 T5 RMSNorm.
import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only, PatternMatcherPass

patterns = PatternMatcherPass()


def t5_rms_norm(x, w, eps):
    variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    return w * x


def t5_rms_norm_replacement(x, w, eps):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


register_replacement(t5_rms_norm, t5_rms_norm_replacement, [torch.empty(2, 8, 16), torch.empty(16)], fwd_only,
                     [patterns], scalar_workaround={"eps": 1e-6})
