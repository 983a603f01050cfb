"""Swin Transformer V2 window attention (WindowAttention.forward of timm/torchvision): the qkv projection reshaped
and permuted into q/k/v, cosine attention F.normalize(q) @ F.normalize(k)^T scaled by
clamp(logit_scale, max=math.log(1. / 0.01)).exp(), + the relative position bias, softmax, @ v; replaced by a
torch.library kernel. The number of heads comes from logit_scale's shape, as the module's own attribute would."""
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import attention_ops  # noqa: F401  (torch.ops.fxscope_attn)

swin_pass = PatternMatcherPass(pass_name="swinv2_cosine_attention")


def _qkv_heads(qkv, num_heads):
    B_, N, C3 = qkv.shape
    qkv = qkv.reshape(B_, N, 3, num_heads, -1).permute(2, 0, 3, 1, 4)
    return qkv[0], qkv[1], qkv[2]


def cosine_window_attention(qkv, logit_scale, relative_position_bias):
    q, k, v = _qkv_heads(qkv, logit_scale.shape[0])
    attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
    logit_scale = torch.clamp(logit_scale, max=math.log(1.0 / 0.01)).exp()
    attn = attn * logit_scale
    attn = attn + relative_position_bias.unsqueeze(0)
    attn = F.softmax(attn, dim=-1)
    return attn @ v


def cosine_window_attention_fused(qkv, logit_scale, relative_position_bias):
    q, k, v = _qkv_heads(qkv, logit_scale.shape[0])
    return torch.ops.fxscope_attn.cosine_attention(q, k, v, logit_scale, relative_position_bias.unsqueeze(0))


windows, tokens, heads, head_dim = 3, 10, 2, 12
register_replacement(cosine_window_attention, cosine_window_attention_fused,
                     [torch.empty(windows, tokens, 3 * heads * head_dim), torch.empty(heads, 1, 1),
                      torch.empty(heads, tokens, tokens)], fwd_only, swin_pass)
