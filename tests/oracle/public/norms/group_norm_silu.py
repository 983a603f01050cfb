"""GroupNorm followed by SiLU (diffusers' ResnetBlock2D: norm1 -> nonlinearity) -> one group_norm_silu custom op,
registered with functools.partial over the group counts (the pass-dict/trace-fn arguments bound once, as
vLLM's fusion passes bind them); the extra_check wants channels divisible by the groups and a 4-D NCHW input."""
import functools

import torch
import torch.nn.functional as F
from torch._inductor import pattern_matcher as pm

import norms_ops  # noqa: F401

group_norm_pass = pm.PatternMatcherPass(pass_name="group_norm_silu")
register = functools.partial(pm.register_replacement, trace_fn=pm.fwd_only, pass_dicts=group_norm_pass)


def make_group_norm_silu(groups, eps=1e-6):
    def group_norm_silu(x, weight, bias):
        return F.silu(F.group_norm(x, groups, weight, bias, eps))

    def group_norm_silu_replacement(x, weight, bias):
        return torch.ops.fxnorms.group_norm_silu.default(x, weight, bias, groups, eps)

    return group_norm_silu, group_norm_silu_replacement


def _nchw_divisible(groups, match):
    x = match.kwargs["x"].meta["val"]
    return x.dim() == 4 and x.shape[1] % groups == 0


for groups in (4, 8):
    for dtype in (torch.float32, torch.float16):
        search, replace = make_group_norm_silu(groups)
        register(search, replace,
                 [torch.empty(1, 16, 4, 4, dtype=dtype), torch.empty(16, dtype=dtype), torch.empty(16, dtype=dtype)],
                 extra_check=functools.partial(_nchw_divisible, groups))
