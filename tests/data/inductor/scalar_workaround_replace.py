# The match's scalar goes into the replacement: Inductor traces replace_fn per match with the matched value.
import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only, PatternMatcherPass

patterns = PatternMatcherPass()

def search(x, eps):
    return torch.add(x, eps)

def replace(x, eps):
    return torch.sub(x, -eps)

register_replacement(search, replace, [torch.empty(4, 4)], fwd_only, [patterns], scalar_workaround={"eps": 2e-6})
