#!/usr/bin/env python3
"""Graph dumps written by torch 2.2 (whose CPU ran aten._scaled_dot_product_flash_attention and whose decompositions
left prims.rev), with the inputs torch gave each graph and the outputs torch 2.2 computed from them. tst_executor
checks that fxscope, on this project's torch 2.13, runs them through its stand-ins and gives torch 2.2's outputs.

Run with torch 2.2 (bench/exec/requirements-old-zoo.txt):
    /work/oldzoo-venv/bin/python tests/data/old_torch/make_fixtures.py tests/data/old_torch
Writes NAME.py (print_readable of the forward graph Inductor was given, as depyf and TORCH_LOGS dump it),
NAME.inputs.safetensors (arg0_1, ...) and NAME.outputs.safetensors (output_0, ...) for:
  bert_tiny_sdpa   a 2-layer BERT (hidden 32, 2 heads): Inductor's fuse_attention turns its attention into SDPA, flash on CPU
  longformer_tiny  a 2-layer Longformer's sliding-window body (window 4): prims.rev from flip, gather, index ops
"""
import sys
from pathlib import Path

import torch
import transformers
from safetensors.torch import save_file
from torch._inductor.compile_fx import compile_fx


def capture(model, inputs):
    """Every forward graph Inductor is given, with inputs of its shapes and torch's outputs for them."""
    graphs = []

    def dump(gm, example_inputs, **_):
        # Inductor is given fake tensors: real ones of their shapes and dtypes, seeded (indices in [0, 2), valid for
        # every table here), and torch's outputs for them.
        with torch.utils._python_dispatch._disable_current_modes():  # out of the compile's FakeTensorMode
            graphs.append(run_real(gm, example_inputs, len(graphs)))
        return gm.forward

    def run_real(gm, example_inputs, seed):
        gen = torch.Generator().manual_seed(seed)
        real = []
        for t in example_inputs:
            if isinstance(t, torch.Tensor) and t.dtype.is_floating_point:
                scale = t.shape[-1] ** -0.5 if t.dim() >= 2 and t.shape[-1] else 1.0
                real.append((torch.randn(t.shape, generator=gen) * scale).to(t.dtype))
            elif isinstance(t, torch.Tensor):
                real.append(torch.randint(0, 2, t.shape, generator=gen).to(t.dtype))
            else:
                real.append(t)
        with torch.no_grad():
            return gm, real, gm(*real)

    torch._dynamo.reset()
    compiled = torch.compile(model, backend=lambda gm, ex: compile_fx(gm, ex, inner_compile=dump))
    with torch.no_grad():
        compiled(**inputs)
    return graphs


def write(out, name, gm, inputs, outputs):
    names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    flat = [t for t in (outputs if isinstance(outputs, (tuple, list)) else [outputs]) if isinstance(t, torch.Tensor)]
    (out / f"{name}.py").write_text(gm.print_readable(print_output=False))
    save_file({n: t.clone().contiguous() for n, t in zip(names, inputs) if isinstance(t, torch.Tensor)},
              out / f"{name}.inputs.safetensors")
    save_file({f"output_{i}": t.clone().contiguous() for i, t in enumerate(flat)}, out / f"{name}.outputs.safetensors")
    print(f"{name}: {len(gm.graph.nodes)} nodes, {len(flat)} outputs, torch {torch.__version__}")


def main():
    out = Path(sys.argv[1])
    torch.manual_seed(0)
    ids = torch.randint(0, 64, (1, 16))
    bert = transformers.BertForMaskedLM(transformers.BertConfig(
        vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
        max_position_embeddings=32)).eval()
    gm, inputs, outputs = capture(bert, {"input_ids": ids})[0]
    assert "_scaled_dot_product_flash_attention" in gm.code
    write(out, "bert_tiny_sdpa", gm, inputs, outputs)

    longformer = transformers.LongformerForMaskedLM(transformers.LongformerConfig(
        vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
        max_position_embeddings=64, attention_window=4)).eval()
    graphs = capture(longformer, {"input_ids": torch.randint(0, 64, (1, 16))})
    gm, inputs, outputs = max(graphs, key=lambda g: len(g[0].graph.nodes))
    assert "prims.rev" in gm.code
    write(out, "longformer_tiny", gm, inputs, outputs)


if __name__ == "__main__":
    main()
