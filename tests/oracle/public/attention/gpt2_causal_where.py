"""GPT-2's eager attention (HF GPT2Attention._attn): w / value.size(-1) ** 0.5, the causal bias applied with
torch.where(causal_mask, w, mask_value), mask_value a 0-d torch.finfo(dtype).min tensor, softmax, .type(v.dtype).
Nested helpers build the pattern; example inputs laid out as _split_heads leaves them, one registration per
model dtype; the scale is a scalar_workaround argument;
replaced by F.scaled_dot_product_attention with the boolean mask."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

gpt2_pass = PatternMatcherPass()


def _causal_fill(attn_weights, causal_mask):
    mask_value = torch.finfo(attn_weights.dtype).min
    # a tensor, not a Python float: torch.where wants matching dtypes (as GPT-2 writes it)
    mask_value = torch.full([], mask_value, dtype=attn_weights.dtype, device=attn_weights.device)
    return torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)


def gpt2_attn(query, key, value, causal_mask, head_scale):
    attn_weights = torch.matmul(query, key.transpose(-1, -2))
    attn_weights = attn_weights / head_scale
    attn_weights = _causal_fill(attn_weights, causal_mask)
    attn_weights = F.softmax(attn_weights, dim=-1)
    attn_weights = attn_weights.type(value.dtype)
    return torch.matmul(attn_weights, value)


def gpt2_sdpa(query, key, value, causal_mask, head_scale):
    return F.scaled_dot_product_attention(query, key, value, attn_mask=causal_mask, scale=1.0 / head_scale)


def _inputs(dtype):
    # laid out as GPT2Attention._split_heads leaves them: view(b, s, h, d).permute(0, 2, 1, 3)
    def heads():
        return torch.empty(2, 6, 5, 12, dtype=dtype).permute(0, 2, 1, 3)
    return [heads(), heads(), heads(), torch.ones(1, 1, 6, 6, dtype=torch.bool)]


for _dtype in (torch.float32, torch.float16):
    register_replacement(gpt2_attn, gpt2_sdpa, _inputs(_dtype), fwd_only, [gpt2_pass],
                         scalar_workaround={"head_scale": 5.5})
