"""Scaled casts to float8_e4m3fn (static per-tensor scale, and dynamic per-tensor scale from the tensor's absmax)
-> the fp8 quant kernel, each fusion declared with a decorator that registers it, in the style of vLLM's fp8
fusions (static_scaled_fp8_quant / dynamic_scaled_fp8_quant) and of decorator-registered pattern tables."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

FP8_DTYPE = torch.float8_e4m3fn
FP8_MAX = torch.finfo(FP8_DTYPE).max
fp8_pass = PatternMatcherPass(pass_name="fp8_quant")


def fusion(replacement, *example_inputs, **kwargs):
    """Registers the decorated search function with `replacement` on `example_inputs`."""
    def wrap(search):
        register_replacement(search, replacement, list(example_inputs), fwd_only, [fp8_pass], **kwargs)
        return search
    return wrap


def _bf16(*shape):
    return torch.empty(*shape, dtype=torch.bfloat16)


def _static_kernel(x, scale):
    return torch.ops.fxq.fp8_quant.default(x, scale)


def _dynamic_kernel(x):
    scale = x.abs().amax().to(torch.float32) / FP8_MAX
    return torch.ops.fxq.fp8_quant.default(x, scale), scale


@fusion(_static_kernel, _bf16(16, 64), torch.empty(1))
def static_fp8_quant(x, scale):
    return (x.to(torch.float32) / scale).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8_DTYPE)


@fusion(_dynamic_kernel, _bf16(16, 64))
def dynamic_fp8_quant(x):
    scale = x.abs().amax().to(torch.float32) / FP8_MAX
    q = (x.to(torch.float32) / scale).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8_DTYPE)
    return q, scale
