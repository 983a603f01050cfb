"""T5 attention (HF T5Attention.forward, eager): unscaled q @ k^T ("no scaling, as in Mesh TensorFlow"),
scores + position_bias, softmax in float32 and type_as(scores), @ v. Two registrations as a model-porting pass
writes them: the biased form -> sdpa with attn_mask=position_bias and scale=1.0, and an unbiased, unscaled form
that must leave T5's biased attention alone. Example inputs laid out as T5's shape() leaves q/k/v (transposed)."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

t5_attention_pass = PatternMatcherPass()


def t5_biased_attention(query_states, key_states, value_states, position_bias):
    scores = torch.matmul(query_states, key_states.transpose(3, 2))
    scores = scores + position_bias
    attn_weights = F.softmax(scores.float(), dim=-1).type_as(scores)
    return torch.matmul(attn_weights, value_states)


def t5_biased_sdpa(query_states, key_states, value_states, position_bias):
    return F.scaled_dot_product_attention(query_states, key_states, value_states, attn_mask=position_bias,
                                          scale=1.0)


def unscaled_attention(query_states, key_states, value_states):
    scores = torch.matmul(query_states, key_states.transpose(3, 2))
    attn_weights = F.softmax(scores.float(), dim=-1).type_as(scores)
    return torch.matmul(attn_weights, value_states)


def unscaled_sdpa(query_states, key_states, value_states):
    return F.scaled_dot_product_attention(query_states, key_states, value_states, scale=1.0)


def shape(states):  # T5Attention's shape(): (batch, seq, heads, d_kv) -> (batch, heads, seq, d_kv)
    return states.view(2, -1, 4, 16).transpose(1, 2)


for dtype in (torch.float32, torch.bfloat16):
    q, k, v = (shape(torch.empty(2, 8, 64, dtype=dtype)) for _ in range(3))
    bias = torch.empty(1, 4, 8, 8, dtype=dtype)
    register_replacement(t5_biased_attention, t5_biased_sdpa, [q, k, v, bias], fwd_only, t5_attention_pass)
    register_replacement(unscaled_attention, unscaled_sdpa, [q, k, v], fwd_only, t5_attention_pass)
