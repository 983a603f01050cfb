"""Class-based fusions over custom-op nodes, in the style of vLLM's compilation/activation_quant_fusion.py and
fusion.py (FusedAddRMSNormStaticQuantPattern): silu_and_mul custom op + static quant op -> silu_and_mul_quant, and
residual add + rms_norm op + static quant op -> add_rms_norm_quant; a base class with empty_bf16/empty_fp32 helpers,
patterns written as methods with the epsilon kept on self, and a pass manager registering per epsilon."""
from dataclasses import dataclass

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

SILU_MUL_OP = torch.ops.fxq.silu_and_mul.default
RMS_OP = torch.ops.fxq.rms_norm.default
QUANT_OP = torch.ops.fxq.static_quant.default


@dataclass
class PassConfig:
    enable_act_quant: bool = True
    enable_add_rms_quant: bool = True
    epsilons: tuple = (1e-6, 1e-5)


class VllmPatternBase:
    def empty_bf16(self, *args):
        return torch.empty(*args, dtype=torch.bfloat16)

    def empty_fp32(self, *args):
        return torch.empty(*args, dtype=torch.float32)

    def register(self, pm_pass):
        register_replacement(self.pattern, self.replacement, self.get_inputs(), fwd_only, pm_pass)


class SiluMulStaticQuantPattern(VllmPatternBase):
    def get_inputs(self):
        return [self.empty_bf16(5, 128), self.empty_fp32(1)]

    def pattern(self, input, scale):
        result_silu_mul = SILU_MUL_OP(input)
        return QUANT_OP(result_silu_mul, scale)

    def replacement(self, input, scale):
        return torch.ops.fxq.silu_and_mul_quant.default(input, scale)


class FusedAddRMSNormStaticQuantPattern(VllmPatternBase):
    def __init__(self, epsilon):
        self.epsilon = epsilon

    def get_inputs(self):
        return [self.empty_bf16(5, 64), self.empty_bf16(5, 64), self.empty_bf16(64), self.empty_fp32(1)]

    def pattern(self, input, residual, weight, scale):
        residual = input + residual
        result_rms = RMS_OP(residual, weight, self.epsilon)
        return QUANT_OP(result_rms, scale), residual

    def replacement(self, input, residual, weight, scale):
        q, residual = torch.ops.fxq.add_rms_norm_quant.default(input, residual, weight, scale, self.epsilon)
        return q, residual


class CustomOpQuantFusionPass:
    def __init__(self, config: PassConfig):
        self.patterns = PatternMatcherPass(pass_name="custom_op_quant_fusion_pass")
        if config.enable_act_quant:
            SiluMulStaticQuantPattern().register(self.patterns)
        if config.enable_add_rms_quant:
            for epsilon in config.epsilons:
                FusedAddRMSNormStaticQuantPattern(epsilon).register(self.patterns)

    def __call__(self, graph):
        return self.patterns.apply(graph)


custom_op_quant_fusion_pass = CustomOpQuantFusionPass(PassConfig())
