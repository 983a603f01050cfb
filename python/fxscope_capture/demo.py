"""python3 -m fxscope_capture.demo OUT_DIR

Captures the tiny transformer block (examples/tiny_block.py) into OUT_DIR/tiny_block.json (+ .safetensors,
.outputs.safetensors) and writes OUT_DIR/tiny_block.summary.json: what torch itself reports about the program and
the traced graph (node and op counts from the GraphModule, the output shape from running the block eagerly), for
comparison with what fxscope reads from the JSON (tests/tst_capture.cpp does).
"""

import collections
import os
import re
import sys

import torch

from ._files import write_json
from ._capture import capture
from .examples.tiny_block import make_tiny_block


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 1
    out_dir = argv[0]
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
    path = write_json(os.path.join(out_dir, "tiny_block.summary.json"), summary)
    print(f"wrote {result.json_path} ({summary['nodes']} nodes), {result.tensors_path}, {result.outputs_path}, {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
