"""BART / Marian / M2M100 eager attention (HF BartAttention.forward before the attention-interface refactor): heads
folded into the batch, torch.bmm(q, k.transpose(1, 2)) (+ the 4-D mask through a view), softmax, torch.bmm with v;
q is pre-scaled by the projection, so sdpa gets scale=1.0. exclusive_arg_names keeps a shared-QK (q is k)
attention out; the masked form reads its sizes from the inputs, as the model code does."""
import torch
from torch import nn
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

bmm_attention_pass = PatternMatcherPass()


def bart_attention(query_states, key_states, value_states):
    attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
    attn_weights = nn.functional.softmax(attn_weights, dim=-1)
    return torch.bmm(attn_weights, value_states)


def bart_sdpa(query_states, key_states, value_states):
    return nn.functional.scaled_dot_product_attention(query_states, key_states, value_states, scale=1.0)


def bart_masked_attention(query_states, key_states, value_states, attention_mask):
    bsz, _, tgt_len, src_len = attention_mask.shape
    num_heads = query_states.size(0) // bsz
    attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
    attn_weights = attn_weights.view(bsz, num_heads, tgt_len, src_len) + attention_mask
    attn_weights = attn_weights.view(bsz * num_heads, tgt_len, src_len)
    attn_weights = nn.functional.softmax(attn_weights, dim=-1)
    return torch.bmm(attn_weights, value_states)


def bart_masked_sdpa(query_states, key_states, value_states, attention_mask):
    bsz = attention_mask.size(0)
    num_heads = query_states.size(0) // bsz
    q, k, v = (t.view(bsz, num_heads, t.size(1), t.size(2)) for t in (query_states, key_states, value_states))
    out = nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask, scale=1.0)
    return out.view(bsz * num_heads, out.size(2), out.size(3))


bsz, heads, tgt, head_dim = 2, 3, 10, 12
qkv = [torch.empty(bsz * heads, tgt, head_dim) for _ in range(3)]
register_replacement(bart_attention, bart_sdpa, qkv, fwd_only, bmm_attention_pass,
                     exclusive_arg_names=("query_states", "key_states"))
register_replacement(bart_masked_attention, bart_masked_sdpa, qkv + [torch.empty(bsz, 1, tgt, tgt)], fwd_only,
                     bmm_attention_pass, exclusive_arg_names=("query_states", "key_states"))
