"""RMSNorm -> a fused rms_norm custom op, in the style of vLLM's compilation/fusion.py: one pattern object per
(epsilon, dtype) that makes its own example inputs and registers into the pass's PatternMatcherPass; the search is
vLLM's RMSNorm.forward_static (upcast, variance, rsqrt, downcast, then `* weight`), the check the kernel's limits."""
import torch
from torch._inductor import pattern_matcher as pm

import norms_ops  # noqa: F401  (defines torch.ops.fxnorms.*)

RMS_EPSILONS = [1e-5, 1e-6]
FUSED_DTYPES = [torch.float16, torch.bfloat16]


def _kernel_supports(match: pm.Match) -> bool:
    # The vectorized kernel loads 16 elements per lane: hidden size a multiple of 16, a 1-D weight of that size.
    x = match.kwargs["input"].meta["val"]
    weight = match.kwargs["weight"].meta["val"]
    return x.shape[-1] % 16 == 0 and weight.dim() == 1


class RMSNormPattern:
    def __init__(self, epsilon: float, dtype: torch.dtype):
        self.epsilon = epsilon
        self.dtype = dtype

    def empty(self, *shape):
        return torch.empty(*shape, dtype=self.dtype, device="cpu")

    def register(self, pm_pass: pm.PatternMatcherPass):
        def pattern(input: torch.Tensor, weight: torch.Tensor):
            x = input.to(torch.float32)
            variance = x.pow(2).mean(dim=-1, keepdim=True)
            x = x * torch.rsqrt(variance + self.epsilon)
            x = x.to(self.dtype)
            return x * weight

        def replacement(input: torch.Tensor, weight: torch.Tensor):
            return torch.ops.fxnorms.rms_norm.default(input, weight, self.epsilon)

        pm.register_replacement(pattern, replacement, [self.empty(5, 16), self.empty(16)], pm.fwd_only, pm_pass,
                                extra_check=_kernel_supports)


class RMSNormFusionPass:
    def __init__(self):
        self.patterns = pm.PatternMatcherPass(pass_name="rms_norm_fusion_pass")
        for epsilon in RMS_EPSILONS:
            for dtype in FUSED_DTYPES:
                RMSNormPattern(epsilon, dtype).register(self.patterns)

    def __call__(self, graph: torch.fx.Graph):
        return self.patterns.apply(graph)


rms_norm_fusion_pass = RMSNormFusionPass()
