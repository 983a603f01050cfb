"""Residual add + RMSNorm returning both -> npu_add_rms_norm, in the style of vLLM's FusedAddRMSNormPattern
(compilation/fusion.py) as vLLM-Ascend lowers it: a family over epsilon and dtype, register_replacement's arguments
and the example tensors bound with functools.partial, exclusive_arg_names so `x + x` is not input + residual."""
import functools

import torch
import torch_npu
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

fused_add_rms_norm_pass = PatternMatcherPass(pass_name="fused_add_rms_norm")


def make_fused_add_rms_norm(epsilon):
    def fused_add_rms_norm_pattern(input, residual, weight):
        residual = input + residual
        orig_dtype = residual.dtype
        x = residual.to(torch.float32)
        variance = x.pow(2).mean(dim=-1, keepdim=True)
        x = x * torch.rsqrt(variance + epsilon)
        return x.to(orig_dtype) * weight, residual

    def fused_add_rms_norm_replacement(input, residual, weight):
        out, _, residual = torch_npu.npu_add_rms_norm(input, residual, weight, epsilon)
        return out, residual

    return fused_add_rms_norm_pattern, fused_add_rms_norm_replacement


register_fused_add = functools.partial(register_replacement, trace_fn=fwd_only, pass_dicts=fused_add_rms_norm_pass,
                                       exclusive_arg_names=("input", "residual"))

for epsilon in (1e-6, 1e-5):
    for dtype in (torch.float16, torch.bfloat16):
        hidden = functools.partial(torch.empty, (2, 8, 32), dtype=dtype)
        weight = functools.partial(torch.empty, (32,), dtype=dtype)
        register_fused_add(*make_fused_add_rms_norm(epsilon), [hidden(), hidden(), weight()])
