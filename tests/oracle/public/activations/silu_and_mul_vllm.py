"""vLLM's SiluAndMul.forward_native, F.silu(x[..., :d]) * x[..., d:] on the merged gate_up projection, -> one
silu_and_mul kernel. In the style of vLLM's compilation/activation_quant_fusion.py: a pattern class per dtype with
nested pattern/replacement functions and register(pm_pass), inputs [num_tokens, 2 * d] as vLLM traces them."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

SILU_MUL_OP = torch.ops.fxscope_act.silu_and_mul.default


class SiluMulPattern:
    def __init__(self, dtype: torch.dtype, intermediate_size: int):
        self.dtype = dtype
        self.d = intermediate_size

    def empty(self, *args, **kwargs):
        return torch.empty(*args, dtype=self.dtype, **kwargs)

    def register(self, pm_pass: PatternMatcherPass):
        d = self.d

        def pattern(input: torch.Tensor):
            return F.silu(input[..., :d]) * input[..., d:]

        def replacement(input: torch.Tensor):
            return SILU_MUL_OP(input)

        inputs = [self.empty(5, 2 * d)]
        register_replacement(pattern, replacement, inputs, fwd_only, pm_pass)


class ActivationFusionPass:
    def __init__(self):
        self.patterns = PatternMatcherPass(pass_name="activation_fusion_pass")
        for dtype in (torch.float16, torch.bfloat16, torch.float32):
            for d in (64, 128):
                SiluMulPattern(dtype, d).register(self.patterns)


activation_fusion_pass = ActivationFusionPass()
