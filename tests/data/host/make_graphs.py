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


def gelu_mlp(x, w):
    """GPT-2's MLP activation as its code writes it."""
    import math
    h = x @ w
    return 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))))


def l2_head(x, w):
    """A retrieval head: projection, then L2-normalised embeddings."""
    return torch.nn.functional.normalize(x @ w, p=2.0, dim=-1)


def linear_t(x, w, b):
    """nn.Linear as written by hand."""
    return torch.relu(torch.matmul(x, w.t()) + b)


def quant_act(x, w):
    """An activation quantised per tensor before an int8 matmul."""
    return torch.clamp(torch.round((x @ w) * 0.05), -128, 127).to(torch.int8)


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
    write("gelu_mlp", gelu_mlp, torch.randn(4, 32), torch.randn(32, 64))
    write("l2_head", l2_head, torch.randn(4, 32), torch.randn(32, 48))
    write("linear_t", linear_t, torch.randn(8, 16), torch.randn(32, 16), torch.randn(32))
    write("quant_act", quant_act, torch.randn(4, 32), torch.randn(32, 64))
