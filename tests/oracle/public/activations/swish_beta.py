"""Swish with a constant beta, x * sigmoid(beta * x) (SiLU for beta=1, CLIP's quick_gelu for beta=1.702), -> a
swish(x, beta) kernel. In the style of Inductor's fx_passes that bind a literal with scalar_workaround (as the
eps/scale patterns of sfdp / pad_mm do): beta is a pattern input that matches any constant."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

swish_pass = PatternMatcherPass()


def swish_pattern(x, beta):
    return x * torch.sigmoid(beta * x)


def swish_replacement(x, beta):
    return torch.ops.fxscope_act.swish.default(x, beta)


register_replacement(swish_pattern, swish_replacement, [torch.empty(4, 32)], fwd_only, [swish_pass],
                     scalar_workaround={"beta": 1.5})
