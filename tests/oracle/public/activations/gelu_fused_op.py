"""F.gelu(x, approximate=...) kept as one fused kernel call instead of Inductor's decomposition, registered as a
family over approximate="none"/"tanh" and the three float dtypes with functools.partial (the way vLLM's
compilation passes register one pattern per dtype, and Inductor's fx_passes loop with skip_duplicates=True)."""
import functools
import itertools

import torch
import torch.nn.functional as F
from torch._inductor import pattern_matcher as pm

import activations_ops  # noqa: F401  (torch.ops.fxscope_act)

GELU_PASS = pm.PatternMatcherPass()


def _make_search(approximate):
    def gelu_pattern(x):
        return F.gelu(x, approximate=approximate)
    return gelu_pattern


def _fused(x, *, approximate):
    return torch.ops.fxscope_act.gelu.default(x, approximate)


for approximate, dtype in itertools.product(("none", "tanh"), (torch.float32, torch.float16, torch.bfloat16)):
    empty = functools.partial(torch.empty, (8, 64), dtype=dtype)
    pm.register_replacement(
        _make_search(approximate),
        functools.partial(_fused, approximate=approximate),
        [empty()],
        pm.fwd_only,
        GELU_PASS,
        skip_duplicates=True,
    )
