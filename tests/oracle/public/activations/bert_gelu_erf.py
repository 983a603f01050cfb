"""The original BERT / HF `gelu` helper, x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0))), -> F.gelu(x). In the
style of an Inductor fx_passes file with an extra_check that reads match.kwargs[...].meta["val"]: only floating
inputs whose last dim is a multiple of 8 (a vectorised kernel's condition)."""
import math

import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import Match, PatternMatcherPass, fwd_only, register_replacement

pass_patterns = [PatternMatcherPass()]


def bert_gelu(x):
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


def gelu_replacement(x):
    return F.gelu(x)


def _vectorisable(match: Match) -> bool:
    val = match.kwargs["x"].meta.get("val")
    if val is None or not val.dtype.is_floating_point:
        return False
    return val.shape[-1] % 8 == 0


register_replacement(bert_gelu, gelu_replacement, [torch.empty(2, 16, 32)], fwd_only, pass_patterns,
                     extra_check=_vectorisable)
