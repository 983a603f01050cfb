"""Static per-tensor int8 quantization written out in aten ops -> vLLM's static_scaled_int8_quant kernel.
In the style of a plain module-level pattern file (Inductor's fx_passes/post_grad.py registrations, vLLM's first
fusion.py): constants from torch.iinfo, one module-level PatternMatcherPass, fwd_only."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401  (torch.ops.fxq)

INT8 = torch.iinfo(torch.int8)
patterns = PatternMatcherPass(pass_name="static_int8_quant")


def static_int8_quant(x, scale):
    return torch.clamp(torch.round(x / scale), INT8.min, INT8.max).to(torch.int8)


def static_int8_quant_kernel(x, scale):
    return torch.ops.fxq.static_quant.default(x, scale)


register_replacement(static_int8_quant, static_int8_quant_kernel,
                     [torch.empty(16, 64), torch.empty(1)], fwd_only, [patterns])
