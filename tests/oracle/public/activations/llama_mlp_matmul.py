"""LLaMA's MLP with separate gate/up projections written with torch.matmul / @ on [tokens, hidden] rows,
F.silu(x @ w_gate) * (x @ w_up), -> one matmul against the concatenated weights and torch_npu.npu_swiglu. In the
style of TorchAir's pattern files (torchair.register_replacement under FakeTensorMode, npu example inputs)."""
import functools

import torch
import torch.nn.functional as F
import torch_npu
import torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode


def gate_up_swiglu(x, w_gate, w_up):
    return F.silu(torch.matmul(x, w_gate)) * (x @ w_up)


def merged_swiglu(x, w_gate, w_up):
    gate_up = torch.matmul(x, torch.cat([w_gate, w_up], dim=-1))
    return torch_npu.npu_swiglu(gate_up, dim=-1)


def extra_check(match: Match):
    w_gate = match.kwargs["w_gate"].meta.get("val")
    w_up = match.kwargs["w_up"].meta.get("val")
    if w_gate is None or w_up is None:
        return False
    return w_gate.shape == w_up.shape and w_gate.dtype == w_up.dtype


with FakeTensorMode():
    for dtype in (torch.float16, torch.float32):
        t = functools.partial(torch.empty, device="npu", dtype=dtype)
        torchair.register_replacement(
            search_fn=gate_up_swiglu,
            replace_fn=merged_swiglu,
            example_inputs=(t(6, 32), t(32, 64), t(32, 64)),
            extra_check=extra_check,
        )
