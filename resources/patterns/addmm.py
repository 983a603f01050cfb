"""mm + add of a bias -> addmm (what nn.Linear with a bias becomes)."""
import functools
import torch, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def addmm(a, b, bias):
    return torch.mm(a, b) + bias


def addmm_replacement(a, b, bias):
    return torch.addmm(bias, a, b)


def extra_check(match: Match):
    # addmm broadcasts its bias to [m, n]: accept a 1-D bias of length n or a 2-D [m, n] / [1, n] one, with
    # the same dtype as the product (a residual add of another activation is not a bias).
    a = match.kwargs["a"].meta.get("val")
    b = match.kwargs["b"].meta.get("val")
    bias = match.kwargs["bias"].meta.get("val")
    if a is None or b is None or bias is None:
        logger.debug("a, b or bias has no meta['val']")
        return False
    if bias.dtype != a.dtype or b.dtype != a.dtype:
        logger.debug("dtypes a %s, b %s, bias %s differ", a.dtype, b.dtype, bias.dtype)
        return False
    n = b.shape[-1]
    if bias.ndim == 1:
        return bias.shape[0] == n
    if bias.ndim == 2:
        return bias.shape[-1] == n and bias.shape[0] in [1, a.shape[0]]
    logger.debug("bias of rank %s is not an addmm bias", bias.ndim)
    return False


with FakeTensorMode():
    a = torch.empty(8, 16, dtype=torch.float16)
    b = torch.empty(16, 32, dtype=torch.float16)
    bias = torch.empty(32, dtype=torch.float16)
    torchair.register_replacement(
        search_fn=addmm,
        replace_fn=addmm_replacement,
        example_inputs=(a, b, bias),
        extra_check=extra_check,
    )
