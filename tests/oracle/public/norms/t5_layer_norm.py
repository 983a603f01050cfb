"""HF T5LayerNorm (no mean subtraction, variance in float32, cast back only to a half-precision weight's dtype)
-> torch_npu.npu_rms_norm, written the way TorchAir's pattern files are: torchair.register_replacement under a
FakeTensorMode with npu example inputs, a scalar_workaround epsilon and an extra_check on dtype and alignment."""
import functools

import torch
import torch_npu
import torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def t5_layer_norm(hidden_states, weight, variance_epsilon):
    variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + variance_epsilon)
    if weight.dtype in [torch.float16, torch.bfloat16]:
        hidden_states = hidden_states.to(weight.dtype)
    return weight * hidden_states


def t5_layer_norm_replacement(hidden_states, weight, variance_epsilon):
    return torch_npu.npu_rms_norm(hidden_states, weight, epsilon=variance_epsilon)[0]


def _check_t5_norm(match: Match):
    x = match.kwargs["hidden_states"].meta.get("val")
    w = match.kwargs["weight"].meta.get("val")
    if x is None or w is None:
        return False
    if x.dtype != w.dtype:
        logger.debug("T5 norm with %s input and %s weight: npu_rms_norm keeps the input dtype", x.dtype, w.dtype)
        return False
    if (x.shape[-1] * x.element_size()) % 32 != 0:
        logger.debug("last dim %s is not 32-byte aligned", x.shape[-1])
        return False
    return True


with FakeTensorMode():
    for dtype in (torch.float16, torch.bfloat16):
        x = functools.partial(torch.empty, (1, 4, 32), device="npu", dtype=dtype)
        w = functools.partial(torch.empty, (32,), device="npu", dtype=dtype)
        torchair.register_replacement(
            search_fn=t5_layer_norm,
            replace_fn=t5_layer_norm_replacement,
            example_inputs=(x(), w()),
            extra_check=_check_t5_norm,
            scalar_workaround={"variance_epsilon": 1e-6},
        )
