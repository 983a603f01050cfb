"""vLLM-style QK-norm + RoPE fusion (compilation/qk_norm_rope_fusion.py's shape): a pattern class per (eps, dtype)
with get_inputs()/register(pm_pass), Qwen3's per-head RMSNorm (q_norm/k_norm, weight * x.to(dtype)) on the
[b, s, h, d] projection, transpose to [b, h, s, d], rotate_half RoPE; replaced by one torch.library kernel. The
extra_check (vLLM's kind) wants the cos/sin cache in the activation dtype."""
import torch
from torch._inductor import pattern_matcher as pm

import attention_ops  # noqa: F401  (torch.ops.fxscope_attn)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class QkNormRopePattern:
    def __init__(self, epsilon: float, dtype: torch.dtype, head_dim: int = 16):
        self.epsilon = epsilon
        self.dtype = dtype
        self.head_dim = head_dim

    def empty(self, *shape, dtype=None):
        return torch.empty(*shape, dtype=dtype or self.dtype, device="cpu")

    def get_inputs(self):
        x = self.empty(2, 8, 4, self.head_dim)
        weight = self.empty(self.head_dim)
        cos = self.empty(1, 1, 8, self.head_dim)
        sin = self.empty(1, 1, 8, self.head_dim)
        return [x, weight, cos, sin]

    def rms_norm(self, x, weight):
        input_dtype = x.dtype
        hidden = x.to(torch.float32)
        variance = hidden.pow(2).mean(-1, keepdim=True)
        hidden = hidden * torch.rsqrt(variance + self.epsilon)
        return weight * hidden.to(input_dtype)

    @staticmethod
    def extra_check(match):
        x = match.kwargs["x"].meta["val"]
        cos = match.kwargs["cos"].meta["val"]
        sin = match.kwargs["sin"].meta["val"]
        return cos.dtype == x.dtype and sin.dtype == x.dtype and x.shape[-1] % 2 == 0

    def register(self, pm_pass: pm.PatternMatcherPass):
        def pattern(x, weight, cos, sin):
            x = self.rms_norm(x, weight).transpose(1, 2)
            return x * cos + rotate_half(x) * sin

        def replacement(x, weight, cos, sin):
            return torch.ops.fxscope_attn.norm_rope(x, weight, cos, sin, self.epsilon)

        pm.register_replacement(pattern, replacement, self.get_inputs(), pm.fwd_only, pm_pass,
                                extra_check=self.extra_check)


class QkNormRopeFusionPass:
    def __init__(self):
        self.patterns = pm.PatternMatcherPass(pass_name="qk_norm_rope_fusion_pass")
        for epsilon in (1e-5, 1e-6):
            for dtype in (torch.bfloat16, torch.float16):
                QkNormRopePattern(epsilon, dtype).register(self.patterns)

    def __call__(self, graph):
        return self.patterns.apply(graph)


qk_norm_rope_fusion = QkNormRopeFusionPass()
