"""The dtype-free core of every RMSNorm, x * rsqrt(mean(x^2, -1) + eps), written as a hand-built
search_fn_pattern (CallFunction/KeywordArg/Ignored) as Inductor's fx_passes write graph patterns, -> an rms_scale
custom op; the extra_check reads the epsilon and the reduced dim off the matched nodes since the pattern ignores them."""
import torch
from torch._inductor.pattern_matcher import (CallFunction, Ignored, KeywordArg, PatternMatcherPass, fwd_only,
                                             register_replacement)

import norms_ops  # noqa: F401

aten = torch.ops.aten
EPS = 1e-6
rms_scale_pass = PatternMatcherPass()

_rms_scale_pattern = CallFunction(
    aten.mul.Tensor,
    KeywordArg("x"),
    CallFunction(
        aten.rsqrt.default,
        CallFunction(
            aten.add.Tensor,
            CallFunction(aten.mean.dim, CallFunction(aten.pow.Tensor_Scalar, KeywordArg("x"), 2), Ignored(), True),
            Ignored(),
        ),
    ),
)


def rms_scale(x):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS)


def rms_scale_replacement(x):
    return torch.ops.fxnorms.rms_scale.default(x, EPS)


def _eps_and_dim(match):
    add = next(n for n in match.nodes if n.target == aten.add.Tensor)
    mean = next(n for n in match.nodes if n.target == aten.mean.dim)
    x = match.kwargs["x"].meta["val"]
    dims = [d % x.dim() for d in mean.args[1]]
    return add.args[1] == EPS and dims == [x.dim() - 1] and x.dtype == torch.float32


register_replacement(rms_scale, rms_scale_replacement, [torch.empty(2, 16)], fwd_only, rms_scale_pass,
                     extra_check=_eps_and_dim, search_fn_pattern=_rms_scale_pattern)
