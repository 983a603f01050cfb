import functools

import torch
import torch.nn.functional as F
from torch._inductor import pattern_matcher as pm

from . import ops  # noqa: F401  (defines torch.ops.fxscope_test)
from .config import FusionConfig


class _FusionPattern:
    """One fusion for one dtype: example inputs made from the config, registered by the pass manager."""

    def __init__(self, config: FusionConfig, dtype: torch.dtype):
        self.config = config
        self.dtype = dtype

    def empty(self, *shape):
        return torch.empty(*shape, dtype=self.dtype)

    def register(self, pm_pass: pm.PatternMatcherPass):
        raise NotImplementedError


class RMSNormPattern(_FusionPattern):
    def register(self, pm_pass):
        eps = self.config.epsilon
        multiple = self.config.hidden_multiple

        def pattern(x, weight):
            h = x.to(torch.float32)
            variance = h.pow(2).mean(-1, keepdim=True)
            h = h * torch.rsqrt(variance + eps)
            return weight * h.to(x.dtype)

        def replacement(x, weight):
            return torch.ops.fxscope_test.fused_rms_norm.default(x, weight, eps)

        def extra_check(match):
            hidden = match.kwargs["x"].meta["val"].shape[-1]
            return hidden % multiple == 0

        pm.register_replacement(pattern, replacement, [self.empty(2, 64), self.empty(64)], pm.fwd_only, pm_pass,
                                extra_check=extra_check)


class SiluMulPattern(_FusionPattern):
    def pattern(self, gate, up):
        return F.silu(gate) * up

    def replacement(self, gate, up):
        return torch.ops.fxscope_test.silu_and_mul.default(gate, up)

    def register(self, pm_pass):
        inputs = [self.empty(4, 32), self.empty(4, 32)]
        register = functools.partial(pm.register_replacement, trace_fn=pm.fwd_only, pass_dicts=pm_pass)
        register(self.pattern, self.replacement, inputs)
