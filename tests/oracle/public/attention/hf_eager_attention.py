"""HF transformers' shared eager_attention_forward (modeling_llama.py and its copies), registered as written:
module.num_key_value_groups through repeat_kv (1 here: plain multi-head attention, so it returns early), scores *
scaling + attention_mask[:, :, :, : key_states.shape[-2]], softmax in float32 .to(query.dtype), dropout with
training=False, @ v; replaced by F.scaled_dot_product_attention. Example inputs laid out as the model has them
(post-RoPE q/k fresh, v a transposed projection); scaling is a scalar_workaround argument."""
import functools
import types

import torch
from torch import nn
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

eager_attention_pass = PatternMatcherPass()


def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def eager_attention_forward(module, query, key, value, attention_mask, scaling, dropout=0.0):
    key_states = repeat_kv(key, module.num_key_value_groups)
    value_states = repeat_kv(value, module.num_key_value_groups)
    attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
    if attention_mask is not None:
        causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
        attn_weights = attn_weights + causal_mask
    attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
    attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
    return torch.matmul(attn_weights, value_states)


_module = types.SimpleNamespace(num_key_value_groups=1, training=False)


def eager_mha(query, key, value, attention_mask, scaling):
    return eager_attention_forward(_module, query, key, value, attention_mask, scaling)


def sdpa_mha(query, key, value, attention_mask, scaling):
    causal_mask = attention_mask[:, :, :, : key.shape[-2]]
    return nn.functional.scaled_dot_product_attention(query, key, value, attn_mask=causal_mask, scale=scaling)


def _transposed(dtype):  # a (batch, seq, heads, head_dim) projection viewed as (batch, heads, seq, head_dim)
    return torch.empty(2, 8, 4, 16, dtype=dtype).transpose(1, 2)


def _rope_out(dtype):  # RoPE's q * cos + rotate_half(q) * sin keeps the transposed layout
    return torch.empty(2, 8, 4, 16, dtype=dtype).transpose(1, 2) * 1.0


for dtype in (torch.float32, torch.float16):
    mask = functools.partial(torch.empty, (1, 1, 8, 8), dtype=dtype)
    register_replacement(eager_mha, sdpa_mha, [_rope_out(dtype), _rope_out(dtype), _transposed(dtype), mask()],
                         fwd_only, eager_attention_pass, scalar_workaround={"scaling": 0.3})
