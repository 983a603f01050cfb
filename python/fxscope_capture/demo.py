"""python3 -m fxscope_capture.demo OUT_DIR [--compile]

Captures the tiny transformer block (examples/tiny_block.py) into OUT_DIR/tiny_block.json (+ .safetensors,
.outputs.safetensors) and writes OUT_DIR/tiny_block.summary.json: what torch itself reports about the program and
the traced graph (node and op counts from the GraphModule, the output shape from running the block eagerly), for
comparison with what fxscope reads from the JSON (tests/tst_capture.cpp does).

--compile also runs the block through torch.compile with fxscope_capture.backend, with static shapes into
OUT_DIR/compile/static/ and with dynamic=True into OUT_DIR/compile/dynamic/ (tiny_0.json: the Dynamo and the AOT
inference graph, their inputs and outputs), and writes the eager result to OUT_DIR/compile/eager.safetensors
(output_0); the summary's "compile" object names them.
"""

import collections
import os
import re
import sys

import torch

from ._backend import backend
from ._capture import capture
from ._files import write_json
from ._tensors import save_tensors
from .examples.tiny_block import make_tiny_block


def _compile(block, x, out_dir):
    """Both torch.compile captures of the block, and the eager result they are checked against."""
    with torch.no_grad():
        eager = block(x)
    captures = {}
    for kind, dynamic in (("static", False), ("dynamic", True)):
        torch._dynamo.reset()
        folder = os.path.join(out_dir, "compile", kind)
        compiled = torch.compile(block, backend=backend(out_dir=folder, name="tiny"), dynamic=dynamic)
        with torch.no_grad():
            out = compiled(x)
        if not torch.allclose(out, eager, rtol=1e-4, atol=1e-5):
            raise RuntimeError(f"the {kind} torch.compile run of the block does not give the eager result")
        captures[kind] = os.path.join("compile", kind, "tiny_0.json")
    save_tensors(os.path.join(out_dir, "compile", "eager.safetensors"), {"output_0": eager},
                 metadata={"format": "fxscope_capture", "graph": "tiny_block (eager)",
                           "torch_version": torch.__version__})
    return dict(captures, eager_outputs=os.path.join("compile", "eager.safetensors"))


def main(argv):
    flags = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1 or any(f != "--compile" for f in flags):
        print(__doc__.strip(), file=sys.stderr)
        return 1
    out_dir = args[0]
    block, x = make_tiny_block(seed=0)
    result = capture(block, x, out_dir=out_dir, name="tiny_block")

    with torch.no_grad():
        eager = block(x)
    graph = result.graph_module.graph
    # Targets as torch prints them (print(gm.graph)), not through fxscope_capture's serializer.
    targets = collections.Counter(re.findall(r"= call_function\[target=([^\]]+)\]", str(graph)))
    summary = {
        "json": os.path.basename(result.json_path),
        "tensors": os.path.basename(result.tensors_path),
        "outputs": os.path.basename(result.outputs_path),
        "torch_version": torch.__version__,
        "nodes": len(graph.nodes),
        "ops": dict(collections.Counter(n.op for n in graph.nodes)),
        "call_function_targets": dict(sorted(targets.items())),
        "parameters": {name: list(p.shape) for name, p in block.named_parameters()},
        "input_shape": list(x.shape),
        "output_shape": list(eager.shape),
        "output_dtype": str(eager.dtype),
        "output_sum": float(eager.double().sum()),
        "graph_matches_eager": result.graph_matches_eager,
    }
    if "--compile" in flags:
        summary["compile"] = _compile(block, x, out_dir)
    path = write_json(os.path.join(out_dir, "tiny_block.summary.json"), summary)
    print(f"wrote {result.json_path} ({summary['nodes']} nodes), {result.tensors_path}, {result.outputs_path}, {path}")
    if "--compile" in flags:
        print("and " + ", ".join(os.path.join(out_dir, p) for p in summary["compile"].values()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
