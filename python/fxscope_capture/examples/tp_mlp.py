"""A tensor-parallel MLP (Megatron style) on 2 ranks, captured with fxscope_capture.distributed: the first linear is
split by columns, the second by rows, and the partial products are summed with an all_reduce. Writes the sample
that ships in resources/samples/tp_mlp/:

    python -m fxscope_capture.examples.tp_mlp OUT_DIR
"""

import sys

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol

from fxscope_capture.distributed import capture_ranks

TOKENS, HIDDEN, FFN = 32, 64, 256


class TensorParallelMLP(torch.nn.Module):
    def __init__(self, rank, world_size):
        super().__init__()
        full = torch.Generator().manual_seed(1234)  # the same full weights on every rank, then this rank's shard
        w1 = torch.randn(HIDDEN, FFN, generator=full) / HIDDEN ** 0.5
        b1 = torch.randn(FFN, generator=full) * 0.1
        w2 = torch.randn(FFN, HIDDEN, generator=full) / FFN ** 0.5
        b2 = torch.randn(HIDDEN, generator=full) * 0.1
        cols = slice(rank * FFN // world_size, (rank + 1) * FFN // world_size)
        self.w1 = torch.nn.Parameter(w1[:, cols].contiguous())
        self.b1 = torch.nn.Parameter(b1[cols].contiguous())
        self.w2 = torch.nn.Parameter(w2[cols, :].contiguous())
        self.b2 = torch.nn.Parameter(b2)

    def forward(self, x):
        h = torch.nn.functional.gelu(torch.mm(x, self.w1) + self.b1)
        partial = torch.mm(h, self.w2)
        y = funcol.all_reduce(partial, "sum", dist.group.WORLD)
        return funcol.wait_tensor(y) + self.b2


def build(rank, world_size):
    x = torch.randn(TOKENS, HIDDEN, generator=torch.Generator().manual_seed(99))  # replicated activations
    return TensorParallelMLP(rank, world_size), (x,)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "tp_mlp"
    for r in capture_ranks(build, world_size=2, out_dir=out, name="tp_mlp"):
        print(r)
