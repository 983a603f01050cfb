"""Hand-written attention with torch.matmul / div / softmax -> scaled_dot_product_attention (fuse_attention's
_sfdp_pattern_1, written as a user writes it)."""
import functools

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement


def attention(q, k, v, inv_scale):
    return torch.matmul(q, k.transpose(-2, -1)).div(inv_scale).softmax(dim=-1).matmul(v)


def sdpa(q, k, v, inv_scale):
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0 / inv_scale)


qkv = functools.partial(torch.empty, (2, 4, 8, 16))
# Not 4.0: Inductor binds a workaround value wherever the trace has it, sizes included (4 heads).
register_replacement(attention, sdpa, [qkv(), qkv(), qkv()], fwd_only, PatternMatcherPass(),
                     scalar_workaround={"inv_scale": 7.0})
