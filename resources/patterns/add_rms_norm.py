"""add + npu_rms_norm -> npu_add_rms_norm (the fusion from TorchAir's register_replacement documentation)."""
import functools
import torch, torch_npu, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def add_rms_norm(x1, x2, gamma):
    x_out = torch.add(x1, x2)
    y, _ = torch_npu.npu_rms_norm(x_out, gamma)
    return y, x_out


def add_rms_norm_replacement(x1, x2, gamma):
    y, _, x_out = torch_npu.npu_add_rms_norm(x1, x2, gamma)
    return y, x_out


def extra_check(match: Match):
    # npu_add_rms_norm takes two same-shaped f16/bf16 inputs whose last dim is a multiple of 32 bytes.
    x1 = match.kwargs.get("x1")
    x2 = match.kwargs.get("x2")
    if "val" not in x1.meta or "val" not in x2.meta:
        logger.debug("x1 or x2 has no meta['val']; cannot check dtype and shape")
        return False
    a = x1.meta["val"]
    b = x2.meta["val"]
    if a.dtype not in [torch.float16, torch.bfloat16] or b.dtype != a.dtype:
        logger.debug("dtypes %s/%s: npu_add_rms_norm needs both float16 or both bfloat16", a.dtype, b.dtype)
        return False
    if a.shape != b.shape:
        logger.debug("shapes %s and %s differ; npu_add_rms_norm does not broadcast", a.shape, b.shape)
        return False
    last_dim_bytes = a.shape[-1] * a.element_size()
    if last_dim_bytes % 32 != 0:
        logger.debug("last dim is %s bytes, not a multiple of 32", last_dim_bytes)
        return False
    return True


with FakeTensorMode():
    # The search graph has no dtype in it, so one registration covers f16 and bf16; the check tells them apart.
    x = functools.partial(torch.empty, (1, 1, 16), device="npu", dtype=torch.float16)
    w = functools.partial(torch.empty, 16, device="npu", dtype=torch.float16)
    torchair.register_replacement(
        search_fn=add_rms_norm,
        replace_fn=add_rms_norm_replacement,
        example_inputs=(x(), x(), w()),
        extra_check=extra_check,
    )
