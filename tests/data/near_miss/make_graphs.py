"""Writes the graphs the near-miss tests match: python make_graphs.py (torch 2.x, from the repository root).

Each graph is what a model gives; each *_near.py pattern file is what its author wrote, one blocker away from
matching it, and *_fixed.py the file with the hint applied."""
import functools
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import aten_graph  # noqa: E402

aten = torch.ops.aten
save = functools.partial(aten_graph.save, HERE)


def rms_norm_bf16(x, w):
    # a bf16 model's RMSNorm: computed in fp32 and cast back before the weight
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * h.to(torch.bfloat16)


def two_rms_norms_bf16(x, y, w, v):
    # two of them, hidden sizes 64 and 128: an extra_check on the size takes one
    return rms_norm_bf16(x, w), rms_norm_bf16(y, v)


def sliced_gelu(x, y):
    # a no-op slice the model's indexing left (h[:, 0:], as KV-cache code writes it) between the GELU and the gate
    h = torch.nn.functional.gelu(x, approximate="tanh")
    return aten.slice.Tensor(h, 1, 0, 9223372036854775807) * y


def silu_gate_reused(x, y):
    # SiLU(x) * y, the SiLU also read by a residual branch
    t = torch.sigmoid(x) * x
    return t * y, t.sum(-1)


def rms_factor(x):
    # RMSNorm's factor, its mean kept as a column
    return torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def squared_scale(x, s):
    return x.pow(2) * s


def scaled_residual(x, r):
    # a residual scaled by 0.25 (the pattern file hard-codes 0.5)
    return x + r * 0.25


torch.manual_seed(0)
save("rms_norm_bf16", rms_norm_bf16, torch.randn(2, 8, 64, dtype=torch.bfloat16),
     torch.randn(64, dtype=torch.bfloat16))
save("two_rms_norms_bf16", two_rms_norms_bf16, torch.randn(2, 8, 64, dtype=torch.bfloat16),
     torch.randn(2, 8, 128, dtype=torch.bfloat16), torch.randn(64, dtype=torch.bfloat16),
     torch.randn(128, dtype=torch.bfloat16))
save("sliced_gelu", sliced_gelu, torch.randn(4, 32), torch.randn(4, 32))
save("silu_gate_reused", silu_gate_reused, torch.randn(4, 32), torch.randn(4, 32))
save("rms_factor", rms_factor, torch.randn(4, 32))
save("squared_scale", squared_scale, torch.randn(4, 32), torch.randn(4, 32))
save("scaled_residual", scaled_residual, torch.randn(4, 32), torch.randn(4, 32))
