"""Writes the graphs the torch-host tests match (fxscope JSON, as the post-grad pass sees them: make_fx with
Inductor's decompositions). Run with the project's Python: .venv/bin/python tests/data/host/make_graphs.py"""
import json
import os
import sys

import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "python"))
from fxscope_capture import _serialize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def rms(x, w, eps=1e-6):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    return w * h.to(x.dtype)


def mlp_block(x, w_norm, w_gate, w_up, w_down, w_norm2, w_proj):
    """A decoder MLP: RMSNorm (hidden 64), gate/up projections, SiLU(gate) * up, down projection; then a second
    RMSNorm over a 48-wide projection, which the fused kernel does not take (48 is not a multiple of 32)."""
    h = rms(x, w_norm)
    act = torch.nn.functional.silu(h @ w_gate) * (h @ w_up)
    y = x + act @ w_down
    return rms(y @ w_proj, w_norm2)


def attention(q, k, v):
    """BERT's self-attention core as written in model code: matmul, divide by sqrt(head dim), softmax, matmul."""
    scores = torch.matmul(q, k.transpose(-2, -1)).div(8.0)
    return torch.matmul(scores.softmax(dim=-1), v)


def write(name, fn, *inputs):
    gm = make_fx(fn, tracing_mode="fake", decomposition_table=select_decomp_table())(*inputs)
    gm.graph.eliminate_dead_code()  # as the graph reaches the post-grad passes
    doc = _serialize.document([{"name": name, "kind": "aten", "graph": _serialize.graph_json(gm)}])
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    h = torch.float16
    write("mlp_block", mlp_block, torch.randn(2, 8, 64, dtype=h), torch.randn(64, dtype=h),
          torch.randn(64, 128, dtype=h), torch.randn(64, 128, dtype=h), torch.randn(128, 64, dtype=h),
          torch.randn(48, dtype=h), torch.randn(64, 48, dtype=h))
    qkv = [torch.randn(2, 4, 16, 64) for _ in range(3)]
    write("attention", attention, *qkv)
