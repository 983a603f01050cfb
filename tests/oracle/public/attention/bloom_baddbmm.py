"""Bloom's eager attention (HF BloomAttention.forward): alibi.baddbmm(batch1=q, batch2=k, beta=1.0,
alpha=inv_norm_factor), a view to (batch, heads, q, kv), masked_fill of the causal mask with finfo.min, softmax in
float32 cast back, bmm with v; replaced by a torch.library alibi-attention kernel. inv_norm_factor is a
scalar_workaround argument; the extra_check wants a boolean [b, 1, q, kv] mask."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import attention_ops  # noqa: F401  (torch.ops.fxscope_attn)

alibi_pass = PatternMatcherPass()


def bloom_attention(query_layer, key_layer, value_layer, alibi, attention_mask, inv_norm_factor):
    batch_size = attention_mask.shape[0]
    batch_heads, q_length, _ = query_layer.shape
    kv_length = key_layer.shape[-1]
    num_heads = batch_heads // batch_size
    matmul_result = alibi.baddbmm(batch1=query_layer, batch2=key_layer, beta=1.0, alpha=inv_norm_factor)
    attention_scores = matmul_result.view(batch_size, num_heads, q_length, kv_length)
    attn_weights = torch.masked_fill(attention_scores, attention_mask, torch.finfo(attention_scores.dtype).min)
    attention_probs = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_layer.dtype)
    attention_probs_reshaped = attention_probs.view(batch_size * num_heads, q_length, kv_length)
    return torch.bmm(attention_probs_reshaped, value_layer)


def bloom_fused(query_layer, key_layer, value_layer, alibi, attention_mask, inv_norm_factor):
    return torch.ops.fxscope_attn.alibi_attention(query_layer, key_layer, value_layer, alibi, attention_mask, 1.0,
                                                  inv_norm_factor)


def _boolean_causal_mask(match):
    mask = match.kwargs["attention_mask"].meta["val"]
    alibi = match.kwargs["alibi"].meta["val"]
    return mask.dtype == torch.bool and mask.dim() == 4 and mask.shape[1] == 1 and alibi.shape[1] == 1


for dtype in (torch.float32, torch.bfloat16):
    b, h, s, d = 2, 3, 10, 12
    example = [torch.empty(b * h, s, d, dtype=dtype), torch.empty(b * h, d, s, dtype=dtype),
               torch.empty(b * h, s, d, dtype=dtype), torch.empty(b * h, 1, s, dtype=dtype),
               torch.empty(b, 1, s, s, dtype=torch.bool)]
    register_replacement(bloom_attention, bloom_fused, example, fwd_only, alibi_pass,
                         extra_check=_boolean_causal_mask, scalar_workaround={"inv_norm_factor": 0.3})
