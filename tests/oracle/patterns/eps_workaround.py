"""add(x, eps) -> sub(x, -eps) with scalar_workaround={"eps": 2e-6}: Inductor re-traces replace_fn per match with
the match's eps, so add(x, 0.5) becomes sub(x, -0.5)."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

patterns = PatternMatcherPass()


def add_eps(x, eps):
    return torch.add(x, eps)


def sub_neg_eps(x, eps):
    return torch.sub(x, -eps)


register_replacement(add_eps, sub_neg_eps, [torch.empty(4, 4)], fwd_only, patterns, scalar_workaround={"eps": 2e-6})
