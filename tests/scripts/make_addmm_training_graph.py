"""Writes tests/data/patterns/addmm_training_graph.json: the joint (forward + backward) graph of a two-layer MLP
written with explicit mm + bias adds, as Inductor's joint_fwd_bwd traces it (torch 2.x AOT autograd).
Layer 1 (float32, 1-D bias) is what resources/patterns/addmm_training.addmm_training.json fuses; layer 2 runs in
float64, so its candidate matches the structure and is rejected by the pattern's extra_check (dtype).

Run from the repository root, with fxscope_capture installed (pip install ./python; make test's .venv has it):
    .venv/bin/python tests/scripts/make_addmm_training_graph.py
Regenerate resources/patterns/addmm_training.addmm_training.json with the same torch, so the pattern and the graph
come from one AOT autograd.
"""
import json
import os

import torch

from torch._inductor.pattern_matcher import joint_fwd_bwd

from fxscope_capture import _serialize


def mlp(x, w1, b1, w2, b2):
    h = torch.relu(torch.mm(x, w1) + b1)
    return torch.mm(h.double(), w2) + b2


torch.manual_seed(0)
inputs = [torch.randn(4, 16, requires_grad=True), torch.randn(16, 64, requires_grad=True),
          torch.randn(64, requires_grad=True), torch.randn(64, 8, dtype=torch.float64, requires_grad=True),
          torch.randn(8, dtype=torch.float64, requires_grad=True)]
gm = joint_fwd_bwd(mlp, inputs)  # nodes carry meta["val"]: no observing run needed
doc = _serialize.document([{"name": "mlp_joint", "kind": "aot_joint", "graph": _serialize.graph_json(gm)}])
path = os.path.join("tests", "data", "patterns", "addmm_training_graph.json")
with open(path, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(path)
