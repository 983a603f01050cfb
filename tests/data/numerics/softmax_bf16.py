"""A softmax fusion whose replacement computes in bfloat16 and casts back: the pattern's float32 softmax, replaced
by a lower-precision one (a dtype the example inputs never exercised)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


def softmax(x):
    return torch.softmax(x, -1)


def softmax_in_bf16(x):
    return torch.softmax(x.to(torch.bfloat16), -1).to(x.dtype)


register_replacement(softmax, softmax_in_bf16, [torch.empty(4, 16)], fwd_only, pm_pass)
