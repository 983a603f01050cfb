"""A class-based fusion pass in the style of vLLM's compilation/fusion.py (RMSNormQuantFusionPass): a QuantKey and
a config dataclass, pattern classes built from (epsilon, quant key, activation dtype) whose register() hands
closures to register_replacement, and a pass class owning PatternMatcherPass(pass_name=...) that loops over the
config; instantiated at module level so that loading this file registers everything. LLaMA's RMSNorm in aten."""
from dataclasses import dataclass, field

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401


@dataclass(frozen=True)
class QuantKey:
    dtype: torch.dtype
    static: bool
    per_token: bool


kInt8StaticTensorSym = QuantKey(torch.int8, static=True, per_token=False)
kInt8DynamicTokenSym = QuantKey(torch.int8, static=False, per_token=True)


@dataclass
class FusionConfig:
    epsilons: tuple = (1e-5, 1e-6)
    act_dtypes: tuple = (torch.float16, torch.bfloat16)
    quant_keys: tuple = field(default_factory=lambda: (kInt8StaticTensorSym, kInt8DynamicTokenSym))
    hidden_multiple: int = 16   # the fused kernel's vector width


class RMSNormQuantPattern:
    def __init__(self, epsilon: float, quant_key: QuantKey, act_dtype: torch.dtype, config: FusionConfig):
        self.epsilon = epsilon
        self.quant_key = quant_key
        self.act_dtype = act_dtype
        self.config = config

    def rms_norm(self, input, weight):
        h = input.to(torch.float32)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + self.epsilon)
        return weight * h.to(self.act_dtype)

    def empty(self, *shape, dtype=None):
        return torch.empty(*shape, dtype=dtype or self.act_dtype)

    def extra_check(self, match):
        x = match.kwargs["input"].meta["val"]
        return x.dtype == self.act_dtype and x.shape[-1] % self.config.hidden_multiple == 0


class RMSNormStaticQuantPattern(RMSNormQuantPattern):
    def register(self, pm_pass: PatternMatcherPass):
        def pattern(input, weight, scale):
            result_rms = self.rms_norm(input, weight)
            return torch.clamp(torch.round(result_rms.to(torch.float32) / scale), -128, 127).to(torch.int8)

        def replacement(input, weight, scale):
            return torch.ops.fxq.rms_norm_static_quant.default(input, weight, scale, self.epsilon)

        inputs = [self.empty(5, 64), self.empty(64), self.empty(1, dtype=torch.float32)]
        register_replacement(pattern, replacement, inputs, fwd_only, pm_pass, extra_check=self.extra_check)


class RMSNormDynamicQuantPattern(RMSNormQuantPattern):
    def register(self, pm_pass: PatternMatcherPass):
        def pattern(input, weight):
            result_rms = self.rms_norm(input, weight).to(torch.float32)
            scale = result_rms.abs().amax(dim=-1, keepdim=True) / 127.0
            q = torch.clamp(torch.round(result_rms / scale), -128, 127).to(torch.int8)
            return q, scale

        def replacement(input, weight):
            q, scale = torch.ops.fxq.rms_norm_dynamic_quant.default(input, weight, self.epsilon)
            return q, scale

        register_replacement(pattern, replacement, [self.empty(5, 64), self.empty(64)], fwd_only, pm_pass,
                             extra_check=self.extra_check)


PATTERNS = {kInt8StaticTensorSym: RMSNormStaticQuantPattern, kInt8DynamicTokenSym: RMSNormDynamicQuantPattern}


class RMSNormQuantFusionPass:
    def __init__(self, config: FusionConfig):
        self.patterns = PatternMatcherPass(pass_name="rms_norm_quant_fusion_pass")
        for epsilon in config.epsilons:
            for act_dtype in config.act_dtypes:
                for key in config.quant_keys:
                    PATTERNS[key](epsilon, key, act_dtype, config).register(self.patterns)

    def __call__(self, graph):
        return self.patterns.apply(graph)


rms_norm_quant_fusion_pass = RMSNormQuantFusionPass(FusionConfig())
