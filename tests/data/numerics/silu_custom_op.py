"""The SiLU fusion into an op this file defines with torch.library, as vLLM's and quantisation passes fuse into their
own kernels. fxscope's LibTorch does not have the op: its numerics run in the torch host, where this file ran."""
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

pm_pass = PatternMatcherPass()


@torch.library.custom_op("fxnum::silu", mutates_args=())
def silu_kernel(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(x)


@silu_kernel.register_fake
def _(x):
    return torch.empty_like(x)


def silu(x):
    return x * torch.sigmoid(x)


def fused_silu(x):
    return torch.ops.fxnum.silu(x)


register_replacement(silu, fused_silu, [torch.empty(4, 16)], fwd_only, pm_pass)
