"""vLLM-Ascend's compilation/passes style (norm_quant_fusion_pass.py): a pattern class over the NPU ops the model
already calls -- the residual add followed by torch.ops.npu.npu_rms_norm -- fused into npu_add_rms_norm, one
instance per epsilon, registered with pm.fwd_only into the pass's PatternMatcherPass; the check reads shapes."""
import torch
import torch_npu  # noqa: F401  (torch.ops.npu.*)
from torch._inductor import pattern_matcher as pm


class AddRMSNormPattern:
    def __init__(self, eps: float = 1e-6):
        self.eps = eps

    def get_inputs(self):
        rms_norm_input = torch.randn(2, 4, 64, dtype=torch.float16)
        residual = torch.randn(2, 4, 64, dtype=torch.float16)
        rms_norm_weight = torch.randn(64, dtype=torch.float16)
        return [rms_norm_input, residual, rms_norm_weight]

    @staticmethod
    def extra_check(match: pm.Match) -> bool:
        # npu_add_rms_norm does not broadcast: both addends of one shape, the weight the size of the last dim.
        a = match.kwargs["rms_norm_input"].meta["val"]
        b = match.kwargs["residual"].meta["val"]
        w = match.kwargs["rms_norm_weight"].meta["val"]
        return a.shape == b.shape and a.dtype == b.dtype and tuple(w.shape) == (a.shape[-1],)

    def register(self, pm_pass: pm.PatternMatcherPass):
        def pattern(rms_norm_input, residual, rms_norm_weight):
            x = rms_norm_input + residual
            output = torch.ops.npu.npu_rms_norm(x, rms_norm_weight, epsilon=self.eps)
            return output[0], x

        def replacement(rms_norm_input, residual, rms_norm_weight):
            output = torch.ops.npu.npu_add_rms_norm(rms_norm_input, residual, rms_norm_weight, self.eps)
            return output[0], output[2]

        pm.register_replacement(pattern, replacement, self.get_inputs(), pm.fwd_only, pm_pass,
                                extra_check=self.extra_check)


class AddRMSNormFusionPass:
    def __init__(self):
        self.pattern_match_passes = pm.PatternMatcherPass(pass_name="add_rms_norm_fusion_pass")
        for eps in [1e-5, 1e-6]:
            AddRMSNormPattern(eps).register(self.pattern_match_passes)


fusion_pass = AddRMSNormFusionPass()
