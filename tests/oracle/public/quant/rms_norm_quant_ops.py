"""RMSNorm custom op followed by a quant custom op -> one fused rms_norm_quant op, matched on the custom-op nodes
themselves (static per-tensor and dynamic per-token), in the style of vLLM's compilation/fusion.py
(RMS_OP / QUANT_OPS tables, empty_bf16/empty_fp32 example inputs, one registration per epsilon)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

RMS_OP = torch.ops.fxq.rms_norm.default
STATIC_QUANT_OP = torch.ops.fxq.static_quant.default
DYNAMIC_QUANT_OP = torch.ops.fxq.dynamic_quant.default
FUSED_OPS = {"static": torch.ops.fxq.rms_norm_static_quant.default,
             "dynamic": torch.ops.fxq.rms_norm_dynamic_quant.default}


def empty_bf16(*args):
    return torch.empty(*args, dtype=torch.bfloat16)


def empty_fp32(*args):
    return torch.empty(*args, dtype=torch.float32)


rms_quant_pass = PatternMatcherPass(pass_name="rms_norm_quant_fusion")


def register_static(epsilon):
    def pattern(input, weight, scale):
        result_rms = RMS_OP(input, weight, epsilon)
        return STATIC_QUANT_OP(result_rms, scale)

    def replacement(input, weight, scale):
        return FUSED_OPS["static"](input, weight, scale, epsilon)

    register_replacement(pattern, replacement, [empty_bf16(5, 16), empty_bf16(16), empty_fp32(1)], fwd_only,
                         rms_quant_pass)


def register_dynamic(epsilon):
    def pattern(input, weight):
        result_rms = RMS_OP(input, weight, epsilon)
        q, scale = DYNAMIC_QUANT_OP(result_rms)
        return q, scale

    def replacement(input, weight):
        q, scale = FUSED_OPS["dynamic"](input, weight, epsilon)
        return q, scale

    register_replacement(pattern, replacement, [empty_bf16(5, 16), empty_bf16(16)], fwd_only, rms_quant_pass)


for epsilon in (1e-5, 1e-6):
    register_static(epsilon)
    register_dynamic(epsilon)
