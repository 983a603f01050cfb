"""HF BERT/RoBERTa self-attention (BertSelfAttention.forward, eager) fused into F.scaled_dot_product_attention the
way model-specific passes write it: scores / math.sqrt(attention_head_size) + the extended attention mask, one
registration per head size built by a nested factory, an extra_check that the mask is a [b, 1, 1, s] padding mask."""
import functools
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

bert_attention_pass = PatternMatcherPass(pass_name="bert_attention")


def make_bert_attention(attention_head_size):
    def bert_self_attention(query_layer, key_layer, value_layer, attention_mask):
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = F.softmax(attention_scores, dim=-1)
        attention_probs = F.dropout(attention_probs, p=0.1, training=False)  # eval: traced away
        return torch.matmul(attention_probs, value_layer)

    def bert_sdpa(query_layer, key_layer, value_layer, attention_mask):
        return F.scaled_dot_product_attention(query_layer, key_layer, value_layer, attn_mask=attention_mask,
                                              dropout_p=0.0, scale=1.0 / math.sqrt(attention_head_size))

    return bert_self_attention, bert_sdpa


def is_padding_mask(match):
    mask = match.kwargs["attention_mask"].meta["val"]
    query = match.kwargs["query_layer"].meta["val"]
    return mask.dim() == 4 and mask.shape[1] == 1 and mask.shape[2] == 1 and mask.dtype == query.dtype


register = functools.partial(register_replacement, trace_fn=fwd_only, pass_dicts=bert_attention_pass,
                             extra_check=is_padding_mask)

for head_size in (64, 32, 16):
    qkv = functools.partial(torch.empty, (2, 12, 8, head_size))
    search, replace = make_bert_attention(head_size)
    register(search, replace, [qkv(), qkv(), qkv(), torch.empty(2, 1, 1, 8)])
