"""Writes the inputs and PyTorch's outputs of a small flex_attention for tst_executor: the attention is computed the
way PyTorch's eager flex_attention does, with each mod applied by functorch's vmap over (b, h, q, kv) one element
at a time, so fxscope's broadcast evaluation of the mods' graphs is checked against vmap itself (torch 1.13 has no
flex_attention, but it has functorch.vmap). Grouped-query heads (4 query heads, 2 key/value heads), a score_mod
reading a captured buffer by head (score + slope[h] * (kv - q)) and a mask_mod kv <= q + 1.

Usage: PYTHONPATH=python /usr/bin/python3 tests/scripts/flex_attention_reference.py OUT_DIR
Writes OUT_DIR/flex_inputs.safetensors (q, k, v, slope) and OUT_DIR/flex_outputs.safetensors (output_0: out,
output_1: logsumexp / ln 2, as the HOP returns it).
"""
import math
import sys

import torch
from functorch import vmap

from fxscope_capture.safetensors import save_tensors


def score_mod(score, b, h, q, kv, slope):
    # slope[h], as PyTorch's TransformGetItemToIndex turns it into aten.index for the mod's graph
    return score + torch.ops.aten.index.Tensor(slope, [h]) * (kv - q)


def mask_mod(b, h, q, kv):
    return kv <= q + 1


def over_bhqkv(fn, prefix, suffix):
    """fn vmapped over b, h, q and kv in turn (innermost kv), the arguments before them (`prefix`: the score) batched
    along with them and the captured buffers (`suffix`) not."""
    for batched in (4, 3, 2, 1):  # kv, q, h, b: the position among (b, h, q, kv)
        in_dims = prefix + tuple(0 if i == batched else None for i in range(1, 5)) + suffix
        fn = vmap(fn, in_dims=in_dims)
    return fn


def main():
    out_dir = sys.argv[1]
    torch.manual_seed(7)
    q = torch.randn(2, 4, 5, 3)
    k = torch.randn(2, 2, 6, 3)
    v = torch.randn(2, 2, 6, 3)
    slope = torch.tensor([0.5, -0.25, 1.0, 0.125])
    scale = 0.7
    groups = q.size(1) // k.size(1)
    key, value = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    scores = (q @ key.transpose(-2, -1)) * scale
    b, h, m, n = (torch.arange(s) for s in scores.shape)
    modded = over_bhqkv(score_mod, (0,), (None,))(scores, b, h, m, n, slope)
    keep = over_bhqkv(mask_mod, (), ())(b, h, m, n)
    post = torch.where(keep, modded, torch.tensor(-math.inf))
    logsumexp = post.logsumexp(-1)
    out = torch.softmax(post, -1) @ value
    save_tensors(f"{out_dir}/flex_inputs.safetensors", {"q": q, "k": k, "v": v, "slope": slope})
    save_tensors(f"{out_dir}/flex_outputs.safetensors", {"output_0": out, "output_1": logsumexp / math.log(2)})


if __name__ == "__main__":
    main()
