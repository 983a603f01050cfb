"""search_fn takes a scalar (alpha) its traced graph never uses: no KeywordArg binds it, and Inductor's re-check
raises "Not all inputs to pattern found in match.kwargs" when a match is found."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def tanh_mul(x, y, alpha):
    return torch.tanh(x) * y


def tanh_mul_replacement(x, y, alpha):
    return y * torch.tanh(x)


register_replacement(tanh_mul, tanh_mul_replacement, [torch.empty(4, 4), torch.empty(4, 4)], fwd_only, patterns,
                     scalar_workaround={"alpha": 3.0})
