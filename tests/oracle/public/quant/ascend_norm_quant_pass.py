"""vLLM-Ascend's compilation/passes/norm_quant_fusion_pass.py style: pattern classes over torch_npu ops
(npu_add_rms_norm + npu_quantize -> npu_add_rms_norm_quant; npu_add_rms_norm + npu_dynamic_quant ->
npu_add_rms_norm_dynamic_quant), get_inputs() on device="npu", closures reading self.eps, and a pass class with
its own PatternMatcherPass looping over the common epsilons; instantiated at module level."""
import torch
import torch_npu  # noqa: F401
from torch._inductor import pattern_matcher as pm
from torch._inductor.pattern_matcher import PatternMatcherPass


class AddRMSNormQuantPattern:
    def __init__(self, vllm_config=None, eps=1e-6):
        self.vllm_config = vllm_config
        self.eps = eps

    def get_inputs(self):
        rms_norm_input = torch.randn(2, 4, device="npu")
        residual = torch.randn(2, 4, device="npu")
        rms_norm_weight = torch.randn(4, device="npu")
        scale = torch.tensor([1.0], device="npu")
        offset = torch.tensor([0.0], device="npu")
        return [rms_norm_input, residual, rms_norm_weight, scale, offset]

    def register(self, pm_pass: PatternMatcherPass):
        def pattern(rms_norm_input, residual, rms_norm_weight, scale, offset):
            output = torch.ops.npu.npu_add_rms_norm(rms_norm_input, residual, rms_norm_weight, self.eps)
            out0 = output[0]
            out1 = output[2]
            quantized_output = torch.ops.npu.npu_quantize(out0, scale, offset, torch.int8, -1, False)
            return quantized_output, out1

        def replacement(rms_norm_input, residual, rms_norm_weight, scale, offset):
            output = torch.ops.npu.npu_add_rms_norm_quant(rms_norm_input, residual, rms_norm_weight, 1. / scale,
                                                         offset, epsilon=self.eps)
            quantized_output = output[0]
            out1 = output[2]
            return quantized_output, out1

        pm.register_replacement(pattern, replacement, self.get_inputs(), pm.fwd_only, pm_pass)


class AddRMSNormDynamicQuantPattern(AddRMSNormQuantPattern):
    def get_inputs(self):
        return super().get_inputs()[:3]

    def register(self, pm_pass: PatternMatcherPass):
        def pattern(rms_norm_input, residual, rms_norm_weight):
            output = torch.ops.npu.npu_add_rms_norm(rms_norm_input, residual, rms_norm_weight, self.eps)
            quantized_output, pertoken_scale = torch.ops.npu.npu_dynamic_quant(output[0])
            return quantized_output, pertoken_scale, output[2]

        def replacement(rms_norm_input, residual, rms_norm_weight):
            output = torch.ops.npu.npu_add_rms_norm_dynamic_quant(rms_norm_input, residual, rms_norm_weight,
                                                                  epsilon=self.eps)
            return output[0], output[3], output[2]

        pm.register_replacement(pattern, replacement, self.get_inputs(), pm.fwd_only, pm_pass)


class AscendNormQuantFusionPass:
    def __init__(self, vllm_config=None):
        self.pattern_match_passes = PatternMatcherPass(pass_name="rmsnorm_quant_fusion_pass")
        common_epsilons = [1e-5, 1e-6]
        for eps in common_epsilons:
            AddRMSNormQuantPattern(vllm_config, eps=eps).register(self.pattern_match_passes)
            AddRMSNormDynamicQuantPattern(vllm_config, eps=eps).register(self.pattern_match_passes)

    def __call__(self, graph: torch.fx.Graph):
        self.pattern_match_passes.apply(graph)


norm_quant_fusion_pass = AscendNormQuantFusionPass()
