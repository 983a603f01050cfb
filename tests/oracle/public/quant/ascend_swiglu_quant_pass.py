"""vLLM-Ascend style class-based pass (compilation/passes/*.py): the MLP's SwiGLU written in torch (chunk, F.silu,
mul) followed by torch_npu's per-token npu_dynamic_quant -> npu_swiglu + npu_dynamic_quant; a config dataclass,
a BasePattern with get_inputs()/get_pattern()/get_replacement() and an extra_check on meta["val"] (even last dim,
half dtypes), and a pass class with its own PatternMatcherPass; instantiated at module level."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F
import torch_npu  # noqa: F401
from torch._inductor import pattern_matcher as pm
from torch._inductor.pattern_matcher import PatternMatcherPass


@dataclass
class AscendFusionConfig:
    enable_swiglu_quant: bool = True
    dtypes: tuple = (torch.float16, torch.bfloat16)


class BasePattern:
    def __init__(self, dtype: torch.dtype):
        self.dtype = dtype

    def extra_check(self, match) -> bool:
        x = match.kwargs["x"].meta["val"]
        return x.dtype in (torch.float16, torch.bfloat16) and x.shape[-1] % 2 == 0

    def register(self, pm_pass: PatternMatcherPass):
        pm.register_replacement(self.get_pattern(), self.get_replacement(), self.get_inputs(), pm.fwd_only,
                                pm_pass, extra_check=self.extra_check)


class SwiGLUDynamicQuantPattern(BasePattern):
    def get_inputs(self):
        return [torch.randn(4, 128, dtype=self.dtype, device="npu")]

    def get_pattern(self):
        def pattern(x):
            gate, up = x.chunk(2, dim=-1)
            y = F.silu(gate) * up
            quantized, pertoken_scale = torch.ops.npu.npu_dynamic_quant(y)
            return quantized, pertoken_scale
        return pattern

    def get_replacement(self):
        def replacement(x):
            y = torch.ops.npu.npu_swiglu(x, -1)
            quantized, pertoken_scale = torch.ops.npu.npu_dynamic_quant(y)
            return quantized, pertoken_scale
        return replacement


class AscendSwiGLUQuantFusionPass:
    def __init__(self, config: AscendFusionConfig):
        self.pattern_match_passes = PatternMatcherPass(pass_name="swiglu_quant_fusion_pass")
        if config.enable_swiglu_quant:
            for dtype in config.dtypes:
                SwiGLUDynamicQuantPattern(dtype).register(self.pattern_match_passes)

    def __call__(self, graph):
        self.pattern_match_passes.apply(graph)


swiglu_quant_fusion_pass = AscendSwiGLUQuantFusionPass(AscendFusionConfig())
