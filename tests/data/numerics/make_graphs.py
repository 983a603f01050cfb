"""Writes the graphs the numerics tests fuse: python make_graphs.py (torch 2.x, from the repository root)."""
import functools
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import aten_graph  # noqa: E402

save = functools.partial(aten_graph.save, HERE)


def two_norms(x, w1, w2):
    def norm(h, w):
        f = h.to(torch.float32)
        f = f * torch.rsqrt(f.pow(2).mean(-1, keepdim=True) + 1e-6)
        return w * f.to(h.dtype)
    return norm(norm(x, w1) + x, w2)


def quant_linear(x, w, s):
    q = torch.clamp(torch.round(x / s), -128, 127)
    return (q * s) @ w


def attention_probs(q, k):
    return torch.softmax(q @ k.transpose(-1, -2) / 8.0, -1)


def silu_and_gate(x, gate):
    # a SiLU (x * sigmoid(x)) and a gated unit (x * sigmoid(gate)): only the first is a SiLU
    return x * torch.sigmoid(x) + x * torch.sigmoid(gate)


torch.manual_seed(0)
save("two_norms", two_norms, torch.randn(2, 8, 64), torch.randn(64), torch.randn(64))
save("quant_linear", quant_linear, torch.randn(8, 32), torch.randn(32, 16), torch.tensor([0.05]))
save("attention_probs", attention_probs, torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16))
save("silu_and_gate", silu_and_gate, torch.randn(4, 32), torch.randn(4, 32))
