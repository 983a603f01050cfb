"""The same fusion into a kernel of this file's own that forgets the multiply (sigmoid(x) for x * sigmoid(x)): only
the torch host can run the kernel, and the numerics there catch it."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


@torch.library.custom_op("fxnum::silu_wrong", mutates_args=())
def silu_kernel(x: torch.Tensor) -> torch.Tensor:
    return torch.sigmoid(x)


@silu_kernel.register_fake
def _(x):
    return torch.empty_like(x)


def silu(x):
    return x * torch.sigmoid(x)


def fused_silu(x):
    return torch.ops.fxnum.silu_wrong(x)


register_replacement(silu, fused_silu, [torch.empty(4, 16)], fwd_only, pm_pass)
