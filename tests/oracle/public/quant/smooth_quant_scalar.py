"""SmoothQuant activation quantization with the static scale folded into the graph as a Python float
(x * smooth, then round(x * inv_scale) clamped to int8) -> a quant kernel taking the float, using
scalar_workaround so that one pattern matches every constant, in the style of Inductor's own
scalar_workaround registrations (fx_passes/fuse_attention.py, pad_mm.py) and TorchAir's quant patterns."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

pass_dict = PatternMatcherPass()


def smooth_quant(x, smooth, inv_scale):
    xs = x * smooth
    return torch.clamp(torch.round(xs * inv_scale), -128.0, 127.0).to(torch.int8)


def smooth_quant_fused(x, smooth, inv_scale):
    return torch.ops.fxq.quant_scalar.default(x * smooth, inv_scale)


# one registration per activation dtype: clamp's decomposition upcasts f16/bf16, so each traces differently
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    register_replacement(smooth_quant, smooth_quant_fused,
                         [torch.empty(8, 32, dtype=dtype), torch.empty(32, dtype=dtype)], fwd_only,
                         pass_dict, scalar_workaround={"inv_scale": 0.25})
