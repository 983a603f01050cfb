"""L2 normalization of embeddings (sentence-transformers' F.normalize, CLIP's `x / x.norm(dim=-1, keepdim=True)`)
-> x * rsqrt(sum(x*x)), one fused reduction. A decorator collects (search, replacement) variants and a loop
registers them, in the style of Inductor's fx_passes; the check reads the embedding width from meta["val"]."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

l2_norm_pass = PatternMatcherPass()
_L2_VARIANTS = []


def l2_variant(replacement):
    def wrap(search):
        _L2_VARIANTS.append((search, replacement))
        return search
    return wrap


def _rsqrt_normalize(x):
    return x * torch.rsqrt(torch.sum(x * x, dim=-1, keepdim=True).clamp_min(1e-24))


def _rsqrt_normalize_no_eps(x):
    return x * torch.rsqrt(torch.sum(x * x, dim=-1, keepdim=True))


@l2_variant(_rsqrt_normalize)
def f_normalize(x):
    return F.normalize(x, p=2.0, dim=-1)


@l2_variant(_rsqrt_normalize_no_eps)
def clip_normalize(x):
    return x / x.norm(p=2, dim=-1, keepdim=True)


def _wide_enough(match):
    # The fused kernel reduces 32 lanes at a time: embeddings of at least 32 elements.
    return match.kwargs["x"].meta["val"].shape[-1] >= 32


# The norm upcasts half-precision inputs, so the f16 trace (casts in it) is a search graph of its own.
for search, replacement in _L2_VARIANTS:
    for dtype in (torch.float32, torch.float16):
        register_replacement(search, replacement, [torch.empty(4, 64, dtype=dtype)], fwd_only, l2_norm_pass,
                             extra_check=_wide_enough)
