"""Linear bias + GELU after a 2-D addmm (BERT/ViT intermediate on packed tokens: gelu(addmm(b, x, w.t()))) -> one
linear_gelu epilogue kernel, in the style of Inductor's post_grad addmm patterns (the `inp`/`mat1`/`mat2` names, a
helper checking the bias broadcasts as a row from meta["val"]); one registration per dtype and approximate."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import Match, PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

aten = torch.ops.aten
pass_patterns = [PatternMatcherPass(), PatternMatcherPass()]


def _is_row_bias(match: Match) -> bool:
    inp = match.kwargs["inp"].meta["val"]
    mat2 = match.kwargs["mat2"].meta["val"]
    return inp.dim() == 1 and inp.shape[0] == mat2.shape[1]


def register_addmm_gelu(dtype, approximate):
    def addmm_gelu(inp, mat1, mat2):
        return F.gelu(aten.addmm(inp, mat1, mat2), approximate=approximate)

    def linear_gelu(inp, mat1, mat2):
        return torch.ops.fxscope_act.linear_gelu.default(mat1, mat2, inp, approximate)

    args = [torch.empty(32, dtype=dtype), torch.empty(8, 16, dtype=dtype), torch.empty(16, 32, dtype=dtype)]
    register_replacement(addmm_gelu, linear_gelu, args, fwd_only, pass_patterns[1], extra_check=_is_row_bias)


for _dtype in (torch.float32, torch.float16, torch.bfloat16):
    for _approximate in ("none", "tanh"):
        register_addmm_gelu(_dtype, _approximate)
