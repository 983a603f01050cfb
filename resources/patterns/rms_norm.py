"""Decomposed RMSNorm (LLaMA's LlamaRMSNorm: cast to f32, pow/mean/add/rsqrt/mul, cast back, mul by the weight)
-> npu_rms_norm. Inductor's tracer records exactly this chain for the module, so it is what dumps contain."""
import functools
import torch, torch_npu, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def rms_norm(x, weight, eps):
    input_dtype = x.dtype
    h = x.to(torch.float32)
    variance = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(variance + eps)
    return weight * h.to(input_dtype)


def rms_norm_replacement(x, weight, eps):
    y, _ = torch_npu.npu_rms_norm(x, weight, epsilon=eps)
    return y


def extra_check(match: Match):
    # npu_rms_norm: f16/bf16 input, a 1-D gamma as long as the normalised (last) dim, and that dim a multiple of
    # 32 bytes.
    x = match.kwargs["x"].meta.get("val")
    weight = match.kwargs["weight"].meta.get("val")
    if x is None or weight is None:
        logger.debug("x or weight has no meta['val']")
        return False
    if x.dtype not in [torch.float16, torch.bfloat16]:
        logger.debug("input dtype %s: npu_rms_norm is fused for float16/bfloat16 only", x.dtype)
        return False
    if weight.ndim != 1 or weight.shape[0] != x.shape[-1]:
        logger.debug("weight shape %s does not match the last dim %s", weight.shape, x.shape[-1])
        return False
    return (x.shape[-1] * x.element_size()) % 32 == 0


with FakeTensorMode():
    for dtype in [torch.float16, torch.bfloat16]:
        x = functools.partial(torch.empty, (1, 4, 16), device="npu", dtype=dtype)
        w = functools.partial(torch.empty, 16, device="npu", dtype=dtype)
        torchair.register_replacement(
            search_fn=rms_norm,
            replace_fn=rms_norm_replacement,
            example_inputs=(x(), w()),
            extra_check=extra_check,
            scalar_workaround={"eps": 1e-6},
        )
