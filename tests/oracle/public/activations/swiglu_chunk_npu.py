"""SwiGLU on the merged gate_up output, written with chunk(2, -1) and with torch.split, -> torch_npu.npu_swiglu.
In the style of vLLM-Ascend's compilation/passes (import torch_npu, a pattern class with get_inputs(), a
module-level pass, extra_check on the half's byte size the NPU kernel needs)."""
import torch
import torch.nn.functional as F
import torch_npu
from torch._inductor import pattern_matcher as pm


class SwiGLUPattern:
    def __init__(self, hidden: int, dtype: torch.dtype = torch.float16):
        self.hidden = hidden
        self.dtype = dtype

    def get_inputs(self):
        return [torch.randn(4, 2 * self.hidden, dtype=self.dtype)]

    @staticmethod
    def extra_check(match: pm.Match) -> bool:
        x = match.kwargs["x"].meta["val"]
        return (x.shape[-1] // 2 * x.element_size()) % 32 == 0

    def register(self, pm_pass):
        def pattern_chunk(x):
            gate, up = x.chunk(2, dim=-1)
            return F.silu(gate) * up

        h = self.hidden

        def pattern_split(x):
            gate, up = torch.split(x, [h, h], dim=-1)
            return F.silu(gate) * up

        def replacement(x):
            return torch_npu.npu_swiglu(x, dim=-1)

        for pattern in (pattern_chunk, pattern_split):
            pm.register_replacement(pattern, replacement, self.get_inputs(), pm.fwd_only, pm_pass,
                                    extra_check=self.extra_check)


swiglu_pass = pm.PatternMatcherPass(pass_name="npu_swiglu_fusion")
for hidden in (64, 24):
    SwiGLUPattern(hidden).register(swiglu_pass)
