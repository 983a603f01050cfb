"""Training: mm + add of a bias -> addmm, traced as a joint forward + backward graph (trace_fn=joint_fwd_bwd).

The search graph holds the forward (mm, add) and the backward PyTorch records for it (the bias gradient as
sum(tangents, [0], keepdim) viewed to [n], and the two mm's of the input and weight gradients), so the pattern
matches in training graphs (AOT joint graphs) where the backward must be replaced together with the forward.

fxscope's Python-subset reader cannot trace autograd; this file is exported by PyTorch into ../addmm_training.json:
    .venv/bin/python -c "import fxscope_capture; \
        fxscope_capture.export_patterns('resources/patterns/joint/addmm_training.py', out_dir='resources/patterns')"
"""
import functools
import logging

import torch
from torch._inductor.pattern_matcher import Match, joint_fwd_bwd, register_replacement

logger = logging.getLogger(__name__)


def addmm_training(x, w, bias):
    return torch.mm(x, w) + bias


def addmm_training_replacement(x, w, bias):
    return torch.addmm(bias, x, w)


def extra_check(match: Match):
    # The bias gradient of the joint graph is sum(grad, [0]) viewed to [n]: only a 1-D bias of the product's
    # width, with the same floating dtype as x and w, is a bias that addmm's backward gives the same gradient.
    x = match.kwargs["x"].meta.get("val")
    w = match.kwargs["w"].meta.get("val")
    bias = match.kwargs["bias"].meta.get("val")
    if x is None or w is None or bias is None:
        logger.debug(f"x, w or bias has no meta['val'] (x={x}, w={w}, bias={bias})")
        return False
    if not (x.dtype == w.dtype == bias.dtype) or x.dtype not in [torch.float16, torch.bfloat16, torch.float32]:
        logger.debug(f"x {x.dtype}, w {w.dtype}, bias {bias.dtype}: needs one dtype among float16, bfloat16, float32")
        return False
    if bias.ndim != 1 or bias.shape[0] != w.shape[-1]:
        logger.debug(f"bias {list(bias.shape)} is not a 1-D bias of the {w.shape[-1]}-column product")
        return False
    return True


example = functools.partial(torch.empty, dtype=torch.float32, requires_grad=True)
register_replacement(
    addmm_training,
    addmm_training_replacement,
    [example(8, 16), example(16, 32), example(32)],
    joint_fwd_bwd,
    [],
    extra_check=extra_check,
)
