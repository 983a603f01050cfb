"""silu(gate) * up -> npu_swiglu(cat([gate, up], -1)): the SwiGLU of LLaMA's MLP."""
import functools
import torch, torch_npu, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def swiglu(gate, up):
    return torch.nn.functional.silu(gate) * up


def swiglu_replacement(gate, up):
    return torch_npu.npu_swiglu(torch.cat([gate, up], -1), -1)


def extra_check(match: Match):
    # npu_swiglu splits its input in two halves along the last dim, so gate and up must have the same shape and
    # dtype (f16/bf16/f32); each half must be a multiple of 32 bytes.
    gate = match.kwargs["gate"].meta.get("val")
    up = match.kwargs["up"].meta.get("val")
    if gate is None or up is None:
        logger.debug("gate or up has no meta['val']")
        return False
    if gate.dtype not in [torch.float16, torch.bfloat16, torch.float32] or up.dtype != gate.dtype:
        logger.debug("dtypes %s/%s are not supported by npu_swiglu", gate.dtype, up.dtype)
        return False
    if gate.shape != up.shape:
        logger.debug("gate %s and up %s differ in shape (a broadcast is not a SwiGLU)", gate.shape, up.shape)
        return False
    return (gate.shape[-1] * gate.element_size()) % 32 == 0


with FakeTensorMode():
    t = functools.partial(torch.empty, (2, 8, 16), device="npu", dtype=torch.float16)
    torchair.register_replacement(
        search_fn=swiglu,
        replace_fn=swiglu_replacement,
        example_inputs=(t(), t()),
        extra_check=extra_check,
    )
