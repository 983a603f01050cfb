"""T5 v1.1's gated-gelu FFN (T5DenseGatedActDense: act(wi_0(h)) * wi_1(h)) -> one gelu_and_mul kernel, registered
in a loop over approximate="tanh"/"none" with functools.partial on the replacement. exclusive_arg_names keeps
gate and up distinct nodes (gelu(h) * h is not a gated FFN); extra_check wants gate and up of one shape."""
import functools

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import Match, PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

geglu_pass = PatternMatcherPass(pass_name="geglu_fusion")


def _same_shape(match: Match) -> bool:
    gate, up = match.kwargs["gate"].meta["val"], match.kwargs["up"].meta["val"]
    return gate.shape == up.shape and gate.dtype == up.dtype


def _geglu_pattern(approximate):
    def geglu(gate, up):
        return F.gelu(gate, approximate=approximate) * up
    geglu.__name__ = f"geglu_{approximate}"
    return geglu


def _geglu_replacement(gate, up, approximate="none"):
    return torch.ops.fxscope_act.gelu_and_mul.default(gate, up, approximate)


for approximate in ("tanh", "none"):
    for dtype in (torch.float32, torch.float16):
        t = functools.partial(torch.empty, (2, 8, 32), dtype=dtype)
        register_replacement(_geglu_pattern(approximate), functools.partial(_geglu_replacement,
                                                                             approximate=approximate),
                             [t(), t()], fwd_only, geglu_pass, extra_check=_same_shape,
                             exclusive_arg_names=("gate", "up"))
