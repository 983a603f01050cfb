"""Writes the inputs and PyTorch's outputs of a small flex_attention for tst_executor, computed by PyTorch's own
torch.nn.attention.flex_attention (eager, CPU): grouped-query heads (4 query heads, 2 key/value heads), a score_mod
reading a captured buffer by head (score + slope[h] * (kv - q)) and a mask_mod kv <= q + 1, scale 0.7.

Usage: PYTHONPATH=python .venv/bin/python tests/scripts/flex_attention_reference.py OUT_DIR
Writes OUT_DIR/flex_inputs.safetensors (q, k, v, slope) and OUT_DIR/flex_outputs.safetensors (output_0: out,
output_1: the logsumexp in base 2, as the higher-order op returns it; the public function returns it in base e).
"""
import math
import sys

import torch
from safetensors.torch import save_file
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def main():
    out_dir = sys.argv[1]
    torch.manual_seed(7)
    q = torch.randn(2, 4, 5, 3)
    k = torch.randn(2, 2, 6, 3)
    v = torch.randn(2, 2, 6, 3)
    slope = torch.tensor([0.5, -0.25, 1.0, 0.125])

    def score_mod(score, b, h, q_idx, kv_idx):
        return score + slope[h] * (kv_idx - q_idx)

    def mask_mod(b, h, q_idx, kv_idx):
        return kv_idx <= q_idx + 1

    block_mask = create_block_mask(mask_mod, None, None, q.size(2), k.size(2), device="cpu")
    out, lse = flex_attention(q, k, v, score_mod=score_mod, block_mask=block_mask, scale=0.7, enable_gqa=True,
                              return_lse=True)
    save_file({"q": q, "k": k, "v": v, "slope": slope}, f"{out_dir}/flex_inputs.safetensors")
    save_file({"output_0": out.contiguous(), "output_1": (lse / math.log(2)).contiguous()},
              f"{out_dir}/flex_outputs.safetensors")


if __name__ == "__main__":
    main()
