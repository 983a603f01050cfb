"""Rotary position embedding, x * cos + rotate_half(x) * sin, -> npu_rotary_mul(x, cos, sin).
rotate_half is written with the slices Inductor records for x[..., :d // 2] / x[..., d // 2:] on a
[batch, heads, seq, head_dim] tensor; one pattern per common head_dim."""
import functools
import torch, torch_npu, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger

INT64_MAX = 9223372036854775807


def make_search_fn(half):
    def rotary_mul(x, cos, sin):
        x1 = torch.ops.aten.slice.Tensor(x, 3, 0, half)
        x2 = torch.ops.aten.slice.Tensor(x, 3, half, INT64_MAX)
        rotated = torch.cat([-x2, x1], -1)
        return x * cos + rotated * sin
    return rotary_mul


def rotary_mul_replacement(x, cos, sin):
    return torch_npu.npu_rotary_mul(x, cos, sin)


def extra_check(match: Match):
    # npu_rotary_mul (half mode): x, cos and sin share the dtype, cos/sin have x's head_dim and broadcast over
    # batch and heads.
    x = match.kwargs["x"].meta.get("val")
    cos = match.kwargs["cos"].meta.get("val")
    sin = match.kwargs["sin"].meta.get("val")
    if x is None or cos is None or sin is None:
        logger.debug("x, cos or sin has no meta['val']")
        return False
    if x.dtype not in [torch.float16, torch.bfloat16, torch.float32]:
        logger.debug("dtype %s is not supported by npu_rotary_mul", x.dtype)
        return False
    if cos.dtype != x.dtype or sin.dtype != x.dtype:
        logger.debug("cos/sin dtypes %s/%s differ from x's %s", cos.dtype, sin.dtype, x.dtype)
        return False
    if x.ndim != 4 or cos.shape != sin.shape or cos.shape[-1] != x.shape[-1]:
        logger.debug("shapes x %s, cos %s, sin %s are not [b, n, s, d] with matching d", x.shape, cos.shape, sin.shape)
        return False
    return True


with FakeTensorMode():
    for head_dim in [64, 128]:
        x = functools.partial(torch.empty, (1, 2, 4, head_dim), device="npu", dtype=torch.float16)
        cs = functools.partial(torch.empty, (1, 1, 4, head_dim), device="npu", dtype=torch.float16)
        torchair.register_replacement(
            search_fn=make_search_fn(head_dim // 2),
            replace_fn=rotary_mul_replacement,
            example_inputs=(x(), cs(), cs()),
            extra_check=extra_check,
        )
