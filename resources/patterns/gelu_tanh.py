"""GELU with the tanh approximation, written out (GPT-2's NewGELUActivation) -> one gelu(approximate="tanh")."""
import functools
import torch, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * torch.pow(x, 3.0))))


def gelu_tanh_replacement(x):
    return torch.nn.functional.gelu(x, approximate="tanh")


def extra_check(match: Match):
    # The fused kernel computes in the input's dtype: only floating inputs.
    x = match.kwargs["x"].meta.get("val")
    if x is None:
        logger.debug("x has no meta['val']")
        return False
    return x.dtype in [torch.float16, torch.bfloat16, torch.float32]


with FakeTensorMode():
    t = functools.partial(torch.empty, (2, 8, 16), device="npu", dtype=torch.float32)
    torchair.register_replacement(
        search_fn=gelu_tanh,
        replace_fn=gelu_tanh_replacement,
        example_inputs=(t(),),
        extra_check=extra_check,
    )
