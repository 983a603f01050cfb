"""A graph of ops LibTorch alone cannot run here (attention kernels with no CPU kernel in this torch, prims PyTorch
defines in Python only), written by torch's make_fx, with inputs and the outputs PyTorch computes for them through
its public equivalents, for tst_executor's stand-in test.

Usage: PYTHONPATH=python .venv/bin/python tests/scripts/stand_in_reference.py OUT_DIR
Writes OUT_DIR/stand_ins.py (print_readable), OUT_DIR/stand_ins.inputs.safetensors and
OUT_DIR/stand_ins.outputs.safetensors (output_0, ...).
"""
import math
import sys

import torch
import torch._inductor.inductor_prims  # noqa: F401 - defines prims._unsafe_index_put_ and prepare_softmax_online
import torch.nn.functional as F
from safetensors.torch import save_file
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

aten = torch.ops.aten
prims = torch.ops.prims


def graph(q_by_length, k, v, kv_few, mask, x, idx, src):
    q = aten.permute.default(q_by_length, [0, 2, 1, 3])  # a projection's (batch, length, heads, dim), as models do
    flash = aten._scaled_dot_product_flash_attention.default(q, k, v, 0.0, True, False, scale=0.3)
    efficient = aten._scaled_dot_product_efficient_attention.default(q, k, v, mask, False, 0.0, False)
    cudnn = aten._scaled_dot_product_cudnn_attention.default(q, k, v, None, True, 0.0, True)
    # flash attention's (batch, length, heads, dim) form, over grouped-query heads (2 of key/value for 4 of query)
    blhd = aten._flash_attention_forward.default(q.transpose(1, 2), kv_few.transpose(1, 2), kv_few.transpose(1, 2),
                                                 None, None, 6, 6, 0.0, False, False)
    # a permute back to (batch, length, heads, dim) then a view: the fused kernels' length-major output allows it
    merged = aten.view.default(aten.permute.default(flash[0], [0, 2, 1, 3]), [2, 6, 32])
    put = prims._unsafe_index_put_.default(aten.clone.default(x), [idx], src, True)
    amax, total = prims.prepare_softmax_online.default(x, 1)
    return (flash[0], flash[1], efficient[0], cudnn[0], blhd[0], merged, prims.rev.default(x, [0, 1]),
            prims.var.default(x, [1], 0.0), prims.sum.default(x, [0, 1]), prims.broadcast_in_dim.default(src[0], [2, 5], [1]),
            prims.squeeze.default(aten.unsqueeze.default(x, 0), [0]), put, amax, total)


def attention(q, k, v, mask=None, causal=False, scale=None):
    """Output and log-sum-exp of softmax(q k^T * scale) v, written out with torch's public ops."""
    if k.size(1) != q.size(1):
        k = k.repeat_interleave(q.size(1) // k.size(1), 1)
        v = v.repeat_interleave(q.size(1) // v.size(1), 1)
    scores = q @ k.transpose(-2, -1) * (scale or 1 / math.sqrt(q.size(-1)))
    if mask is not None:
        scores = scores + mask
    if causal:
        scores = scores.masked_fill(~torch.ones(q.size(2), k.size(2), dtype=torch.bool).tril(), -math.inf)
    return scores.softmax(-1) @ v, scores.logsumexp(-1)


def main():
    out_dir = sys.argv[1]
    torch.manual_seed(3)
    q_by_length = torch.randn(2, 6, 4, 8)
    q = q_by_length.permute(0, 2, 1, 3)
    k, v = (torch.randn(2, 4, 6, 8) for _ in range(2))
    kv_few = torch.randn(2, 2, 6, 8)
    mask = torch.randn(2, 4, 6, 6)
    x, src = torch.randn(6, 5), torch.randn(3, 5)
    idx = torch.tensor([0, 2, 2])
    inputs = {"q_by_length": q_by_length, "k": k, "v": v, "kv_few": kv_few, "mask": mask, "x": x, "idx": idx, "src": src}
    with FakeTensorMode() as mode:
        gm = make_fx(graph)(*(mode.from_tensor(t) for t in inputs.values()))
    with open(f"{out_dir}/stand_ins.py", "w") as f:
        f.write(gm.print_readable(print_output=False))

    flash, flash_lse = attention(q, k, v, causal=True, scale=0.3)
    efficient, _ = attention(q, k, v, mask=mask)
    cudnn, _ = attention(q, k, v, causal=True)
    blhd, _ = attention(q, kv_few, kv_few)
    put = x.clone().index_put_([idx], src, accumulate=True)
    expected = [flash, flash_lse, efficient, cudnn, blhd.transpose(1, 2), flash.permute(0, 2, 1, 3).reshape(2, 6, 32),
                torch.flip(x, [0, 1]), torch.var(x, 1, correction=0), torch.sum(x), src[0].expand(2, 5), x, put,
                torch.amax(x, 1, keepdim=True), torch.exp(x - torch.amax(x, 1, keepdim=True)).sum(1, keepdim=True)]
    save_file({f"{name}_1": t for name, t in inputs.items()}, f"{out_dir}/stand_ins.inputs.safetensors")  # make_fx's names
    save_file({f"output_{i}": t.contiguous() for i, t in enumerate(expected)}, f"{out_dir}/stand_ins.outputs.safetensors")


if __name__ == "__main__":
    main()
