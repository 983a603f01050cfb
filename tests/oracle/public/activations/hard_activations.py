"""MobileNetV3's h_swish / h_sigmoid (x * F.relu6(x + 3.0) / 6.0, F.relu6(x + 3.0) / 6.0, and h_swish written as
x * h_sigmoid(x)) -> hardswish/hardsigmoid kernels. Registered through a decorator that collects the patterns and
a loop that registers them, as in TorchAir's pattern files."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import activations_ops  # noqa: F401

_PATTERNS = []
hard_pass = PatternMatcherPass(pass_name="hard_activation_fusion")


def fuses_to(replacement):
    def wrap(search_fn):
        _PATTERNS.append((search_fn, replacement))
        return search_fn
    return wrap


def _h_sigmoid(x):
    return F.relu6(x + 3.0) / 6.0


@fuses_to(lambda x: torch.ops.fxscope_act.hardswish.default(x))
def h_swish(x):
    return x * F.relu6(x + 3.0) / 6.0


@fuses_to(lambda x: torch.ops.fxscope_act.hardswish.default(x))
def h_swish_nested(x):
    return x * _h_sigmoid(x)


@fuses_to(lambda x: torch.ops.fxscope_act.hardsigmoid.default(x))
def h_sigmoid(x):
    return _h_sigmoid(x)


for search_fn, replace_fn in _PATTERNS:
    register_replacement(search_fn, replace_fn, [torch.empty(2, 8, 4, 4)], fwd_only, [hard_pass])
