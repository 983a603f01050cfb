"""Quantized attention probabilities (SmoothQuant / int8 BERT attention: softmax(q @ k^T / sqrt(d)) rounded to
uint8 in 1/255 steps) -> a softmax_quant kernel on the raw scores, written with torch.matmul, math.sqrt and
torch.nn.functional.softmax and registered per (head size, dtype) in a loop, in the style of Inductor's
fx_passes/fuse_attention.py (_sfdp_pattern_* with math.sqrt scale factors)."""
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401

attn_quant_pass = PatternMatcherPass(pass_name="attn_probs_uint8")


def _patterns(head_dim, dtype):
    inv_sqrt = 1.0 / math.sqrt(head_dim)

    def probs_uint8(query, key):
        # query, key: [batch, seq, heads, head_dim], as the projections are viewed (_sfdp_pattern_* permute inside)
        q, k = query.transpose(1, 2), key.transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(head_dim)
        probs = F.softmax(scores, dim=-1)
        return torch.clamp(torch.round(probs * 255.0), 0, 255).to(torch.uint8)

    def probs_uint8_fused(query, key):
        q, k = query.transpose(1, 2), key.transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1))
        return torch.ops.fxq.softmax_quant_u8.default(scores, inv_sqrt)
    return probs_uint8, probs_uint8_fused


# softmax's decomposition upcasts half types: f16 gets a registration of its own
for head_dim, dtype in ((64, torch.float32), (32, torch.float32), (64, torch.float16)):
    search, replace = _patterns(head_dim, dtype)
    example = [torch.empty(2, 8, 2, head_dim, dtype=dtype), torch.empty(2, 8, 2, head_dim, dtype=dtype)]
    register_replacement(search, replace, example, fwd_only, [attn_quant_pass])
