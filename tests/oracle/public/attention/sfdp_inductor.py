"""Scaled dot-product attention in the style of Inductor's fx_passes/fuse_attention.py: _sfdp_pattern_1/2 (div by
inv_scale, mul by scale_factor), the scale a scalar_workaround argument, the family registered by a generator over
f32 and f16 example inputs (functools.partial(torch.empty, ...)) and _sfdp_params_check on the matched tensors."""
import functools

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

aten = torch.ops.aten
_scaled_dot_product_attention = aten.scaled_dot_product_attention

patterns = PatternMatcherPass()


def _sfdp_pattern_1(query, key, value, inv_scale):
    return (
        torch.matmul(query, key.transpose(-2, -1))
        .div(inv_scale)
        .softmax(dim=-1)
        .matmul(value)
    )


def _sfdp_replacement_1(query, key, value, inv_scale):
    return _scaled_dot_product_attention(
        query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=1.0 / inv_scale
    )


def _sfdp_pattern_2(query, key, value, scale_factor):
    return (
        torch.matmul(query, key.transpose(-2, -1))
        .mul(scale_factor)
        .softmax(dim=-1)
        .matmul(value)
    )


def _sfdp_replacement_2(query, key, value, scale_factor):
    return _scaled_dot_product_attention(
        query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=scale_factor
    )


def _sfdp_params_check(match):
    assert all(k in match.kwargs for k in ("query", "key", "value"))
    query = match.kwargs["query"].meta["val"]
    key = match.kwargs["key"].meta["val"]
    value = match.kwargs["value"].meta["val"]
    if not (query.dtype == key.dtype == value.dtype) or not (query.device == key.device == value.device):
        return False
    # the head dims sdpa's kernels take: q/k share the last dim, v's batch/heads are q's
    return query.size(-1) == key.size(-1) and value.shape[:-2] == query.shape[:-2]


def _get_sfdp_patterns():
    for dtype in (torch.float, torch.half):
        g_inp = functools.partial(torch.empty, (2, 4, 8, 16), device="cpu", dtype=dtype)
        for pattern, replacement, workaround in (
            (_sfdp_pattern_1, _sfdp_replacement_1, {"inv_scale": 7.0}),
            (_sfdp_pattern_2, _sfdp_replacement_2, {"scale_factor": 0.5}),
        ):
            name = f"{pattern.__name__}_{'half' if dtype == torch.half else 'float'}"
            yield name, dict(search_fn=pattern, replace_fn=replacement, example_inputs=[g_inp(), g_inp(), g_inp()],
                             trace_fn=fwd_only, pass_dicts=patterns, extra_check=_sfdp_params_check,
                             scalar_workaround=workaround)


for _name, _args in _get_sfdp_patterns():
    register_replacement(**_args)
