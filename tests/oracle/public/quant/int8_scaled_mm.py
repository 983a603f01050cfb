"""Dequantize-then-matmul (int8 activations with a per-token scale, int8 weights with per-channel scales, `@`) ->
one scaled_mm kernel, a family over the output dtype made by a factory of nested functions and registered through a
functools.partial of register_replacement, with an extra_check that reads the matched tensors' meta["val"] (int8
operands, K a multiple of 16): in the style of vLLM's ScaledMM fallbacks and torchao's int8 linear rewrites."""
import functools

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

scaled_mm_pass = PatternMatcherPass(pass_name="int8_scaled_mm")


def _int8_operands_k16(match):
    a, w = match.kwargs["a_q"].meta["val"], match.kwargs["w_q"].meta["val"]
    return a.dtype == torch.int8 and w.dtype == torch.int8 and a.shape[-1] % 16 == 0


register = functools.partial(register_replacement, trace_fn=fwd_only, pass_dicts=[scaled_mm_pass],
                             extra_check=_int8_operands_k16)


def _make(out_dtype):
    def dequant_mm(a_q, w_q, a_scale, w_scale):
        a = a_q.to(torch.float32) * a_scale            # [M, K] * [M, 1]
        w = w_q.to(torch.float32) * w_scale            # [N, K] * [N, 1]
        return (a @ w.t()).to(out_dtype)

    def scaled_mm_kernel(a_q, w_q, a_scale, w_scale):
        return torch.ops.fxq.scaled_mm.default(a_q, w_q, a_scale, w_scale.view(1, -1), out_dtype)
    return dequant_mm, scaled_mm_kernel


def _inputs(m=16, k=64, n=32):
    return [torch.empty(m, k, dtype=torch.int8), torch.empty(n, k, dtype=torch.int8),
            torch.empty(m, 1), torch.empty(n, 1)]


for out_dtype in (torch.float16, torch.bfloat16):
    search, replace = _make(out_dtype)
    register(search, replace, _inputs())
