"""CLIP's QuickGELUActivation, x * torch.sigmoid(1.702 * x), -> a fused quick_gelu custom op (torch.library, in
the sibling activations_ops.py). In the style of a vLLM compilation pass: a helper that builds the example inputs,
an extra_check on the input dtype/shape from meta["val"]."""
import torch
import torch._inductor.pattern_matcher as pm
from torch._inductor.pattern_matcher import PatternMatcherPass

import activations_ops  # noqa: F401

QUICK_GELU_ALPHA = 1.702
quick_gelu_pass = PatternMatcherPass(pass_name="quick_gelu_fusion")


def empty_bf16(*shape):
    return torch.empty(*shape, dtype=torch.bfloat16)


def _check(match: pm.Match) -> bool:
    x = match.kwargs["x"].meta["val"]
    return x.dtype in (torch.float16, torch.bfloat16, torch.float32) and x.dim() >= 2 and x.shape[-1] % 16 == 0


def pattern(x: torch.Tensor):
    return x * torch.sigmoid(QUICK_GELU_ALPHA * x)


def replacement(x: torch.Tensor):
    return torch.ops.fxscope_act.quick_gelu.default(x)


pm.register_replacement(pattern, replacement, [empty_bf16(5, 64)], pm.fwd_only, quick_gelu_pass, extra_check=_check)
