"""A hand-written LayerNorm (mean, biased variance from a nested helper, rsqrt, affine) -> F.layer_norm, in the
style of Inductor's fx_passes (post_grad.py, fuse_attention.py): module-level search/replacement functions, the
epsilon a scalar_workaround argument, registered by a functools.cache'd _register function the pass calls lazily."""
import functools

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

aten = torch.ops.aten
pass_patterns = [PatternMatcherPass()]


def _centered_variance(x, mean):
    centered = x - mean
    return (centered * centered).mean(-1, keepdim=True)


def _manual_layer_norm_pattern(x, weight, bias, eps):
    mean = x.mean(-1, keepdim=True)
    var = _centered_variance(x, mean)
    return (x - mean) * torch.rsqrt(var + eps) * weight + bias


def _manual_layer_norm_replacement(x, weight, bias, eps):
    return F.layer_norm(x, [x.shape[-1]], weight, bias, eps)


@functools.cache
def _register_manual_layer_norm():
    # No casts in the search graph: the f32 trace matches f16/bf16 code written the same way too.
    x = functools.partial(torch.empty, (2, 4, 16))
    w = functools.partial(torch.empty, (16,))
    register_replacement(
        _manual_layer_norm_pattern,
        _manual_layer_norm_replacement,
        [x(), w(), w()],
        fwd_only,
        pass_patterns[0],
        scalar_workaround={"eps": 1e-5},
    )
