#!/usr/bin/env python3
"""Outputs of the zoo's graphs as the torch that wrote them computes them, for fxscope's stand-ins to be checked against.

make_old_zoo.py writes inference graphs with torch 2.2, whose CPU still ran aten._scaled_dot_product_flash_attention
(torch 2.13 runs it on CUDA only, so fxscope runs it through a stand-in). Run with that torch (the venv of
requirements-old-zoo.txt); for each graph of ZOO holding one of --ops, it executes the dump's own forward
(print_readable code) on seeded inputs and writes OUT/NAME.inputs.safetensors and OUT/NAME.outputs.safetensors
(output_0, output_1, ...). Then:

    fxscope-cli profile ZOO/NAME.py --inputs OUT/NAME.inputs.safetensors --expected OUT/NAME.outputs.safetensors

says whether fxscope's run on torch 2.13 gives torch 2.2's outputs. --check CLI does that for every graph written
and prints one line per graph and a total.

Usage: /work/oldzoo-venv/bin/python bench/exec/old_torch_reference.py --zoo /work/oldzoo --out /tmp/ref
       [--ops _scaled_dot_product_flash_attention prims.rev] [--check build/bin/fxscope-cli]
"""

import argparse
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import torch
from safetensors.torch import save_file

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
          "i64": torch.int64, "i32": torch.int32, "b8": torch.bool}
PARAM = re.compile(r'(\w+): "(\w+)\[([^\]]*)\]"')


def load_module(text):
    """The dump's GraphModule class, compiled from its print_readable code (the class name may be <lambda>)."""
    text = re.sub(r"^class [^(]*\(", "class GraphModule(", text, count=1)
    scope = {"torch": torch, "device": torch.device, "inf": math.inf, "nan": math.nan}
    exec(compile(text, "<dump>", "exec"), scope)
    return scope["GraphModule"]()


def inputs_of(text, seed):
    """Seeded inputs from the forward's annotations: floats scaled like fxscope's generator, indices in [0, 2)."""
    header = text[text.index("def forward"):text.index("):", text.index("def forward"))]
    gen = torch.Generator().manual_seed(seed)
    inputs = {}
    for name, dtype, dims in PARAM.findall(header):
        shape = [int(d) for d in dims.split(",") if d.strip()]
        kind = DTYPES[dtype]
        if kind.is_floating_point:
            scale = 1 / math.sqrt(shape[-1]) if len(shape) >= 2 and shape[-1] else 1.0
            inputs[name] = (torch.randn(shape, generator=gen) * scale).to(kind)
        elif kind == torch.bool:
            inputs[name] = torch.randint(0, 2, shape, generator=gen).bool()
        else:
            inputs[name] = torch.randint(0, 2, shape, generator=gen).to(kind)
    return inputs


def flatten(value, out):
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            flatten(v, out)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--ops", nargs="+", default=["_scaled_dot_product_flash_attention", "prims.rev"])
    parser.add_argument("--check", metavar="CLI", help="run fxscope-cli profile --expected on each graph written")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in sorted(Path(args.zoo).glob("*.py")):
        text = path.read_text()
        if not any(op in text for op in args.ops) or "self._tensor_constant" in text:
            continue  # not a graph of these ops, or one whose constants the dump does not carry
        inputs = inputs_of(text, args.seed)
        with torch.no_grad():
            outputs = flatten(load_module(text)(*inputs.values()), [])
        save_file({k: v.contiguous() for k, v in inputs.items()}, out / f"{path.stem}.inputs.safetensors")
        save_file({f"output_{i}": t.clone().contiguous() for i, t in enumerate(outputs)},
                  out / f"{path.stem}.outputs.safetensors")
        row = {"graph": path.name, "torch": torch.__version__, "outputs": len(outputs)}
        if args.check:
            run = subprocess.run([args.check, "profile", str(path), "--iters", "1", "--warmup", "0", "--json",
                                  "--inputs", str(out / f"{path.stem}.inputs.safetensors"),
                                  "--expected", str(out / f"{path.stem}.outputs.safetensors")],
                                 capture_output=True, text=True)
            report = json.loads(run.stdout) if run.stdout.strip() else {}
            expected = report.get("expected", {})
            row.update(match=expected.get("outputs_match"), max_abs_diff=expected.get("max_abs_diff"),
                       stand_ins=sum(1 for n in report.get("unfused", {}).get("nodes", []) if n.get("stand_in")),
                       error=(run.stderr.strip().splitlines() or [""])[-1] if run.returncode else "")
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.check:
        agreed = sum(1 for r in rows if r.get("match"))
        print(f"{agreed} of {len(rows)} graphs: fxscope on this LibTorch gives torch {torch.__version__}'s outputs")
        (out / "check.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
