"""Writes tests/data/patterns/addmm_training_graph.json: the joint (forward + backward) graph of a two-layer MLP
written with explicit mm + bias adds, as AOT autograd records it (torch 1.13 functorch, no decompositions).
Layer 1 (float32, 1-D bias) is what resources/patterns/addmm_training.addmm_training.json fuses; layer 2 runs in
float64, so its candidate matches the structure and is rejected by the pattern's extra_check (dtype).

Run from the repository root: PYTHONPATH=python /usr/bin/python3 tests/scripts/make_addmm_training_graph.py
"""
import json
import os

import torch

from fxscope_capture import _serialize
from fxscope_capture._patterns import _joint_fwd_bwd_1x, _tangents
from fxscope_capture._tracing import observe


def mlp(x, w1, b1, w2, b2):
    h = torch.relu(torch.mm(x, w1) + b1)
    return torch.mm(h.double(), w2) + b2


torch.manual_seed(0)
inputs = [torch.randn(4, 16, requires_grad=True), torch.randn(16, 64, requires_grad=True),
          torch.randn(64, requires_grad=True), torch.randn(64, 8, dtype=torch.float64, requires_grad=True),
          torch.randn(8, dtype=torch.float64, requires_grad=True)]
gm = _joint_fwd_bwd_1x(mlp, inputs)
placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
_, observed = observe(gm, (inputs + _tangents(mlp, inputs))[:len(placeholders)])
doc = _serialize.document([{"name": "mlp_joint", "kind": "aot_joint", "graph": _serialize.graph_json(gm, observed)}])
path = os.path.join("tests", "data", "patterns", "addmm_training_graph.json")
with open(path, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(path)
