"""Per-tensor int8 quantization, clamp(round(x * scale), -128, 127) -> a torch.library kernel (vLLM-style)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxscope_test_passes.ops  # noqa: F401  (torch.ops.fxscope_test)


def quant(x, scale):
    return torch.clamp(torch.round(x * scale), -128, 127).to(torch.int8)


def fused(x, scale):
    return torch.ops.fxscope_test.quant_int8.default(x, scale)


register_replacement(quant, fused, [torch.empty(8, 16)], fwd_only, PatternMatcherPass(),
                     scalar_workaround={"scale": 0.5})
