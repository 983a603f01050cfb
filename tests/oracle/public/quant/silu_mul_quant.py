"""SwiGLU activation followed by static int8 quantization -> one silu_mul_quant kernel: the activation written with
torch.nn.functional (F.silu(gate) * up) and the quant in aten ops, in the style of vLLM's ActivationQuantFusionPass
(compilation/activation_quant_fusion.py) for models whose MLP is not routed through the silu_and_mul custom op."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

act_quant = PatternMatcherPass(pass_name="silu_mul_quant")


def silu_mul_static_quant(gate, up, scale):
    act = F.silu(gate) * up
    return torch.clamp(torch.round(act.to(torch.float32) / scale), -128, 127).to(torch.int8)


def silu_mul_static_quant_fused(gate, up, scale):
    return torch.ops.fxq.silu_mul_quant.default(gate, up, scale)


def _extra_check(match):
    # the kernel handles a gate/up pair of one shape only (no broadcast of up)
    gate, up = match.kwargs["gate"].meta["val"], match.kwargs["up"].meta["val"]
    return gate.shape == up.shape


for dtype in (torch.float16, torch.bfloat16):
    register_replacement(silu_mul_static_quant, silu_mul_static_quant_fused,
                         [torch.empty(4, 64, dtype=dtype), torch.empty(4, 64, dtype=dtype), torch.empty(1)],
                         fwd_only, [act_quant], extra_check=_extra_check)
