"""TorchAir built-in style: add_rms_norm_cast registered with a hand-built search_fn_pattern (a MultiOutputPattern
over npu_add_rms_norm's getitems, _users=2, view sizes [-1, Ignored()]) and an empty search_fn body, so the second
stage reuses the hand-built pattern."""
import functools
import operator
import torch, torch_npu, torchair
from torch._inductor.pattern_matcher import CallFunction, Ignored, KeywordArg, MultiOutputPattern
from torch._subclasses.fake_tensor import FakeTensorMode

_add_rms = CallFunction(torch.ops.npu.npu_add_rms_norm.default, KeywordArg("x1"), KeywordArg("x2"),
                        KeywordArg("gamma"), _users=2)
_y = CallFunction(operator.getitem, _add_rms, 0)
_x = CallFunction(operator.getitem, _add_rms, 2)
_cast = CallFunction(torch.ops.prims.convert_element_type.default, _y, Ignored())
_view = CallFunction(torch.ops.aten.view.default, _cast, [-1, Ignored()])
PATTERN = MultiOutputPattern([_view, _x])


def search_fn(x1, x2, gamma):
    pass


def replace_fn(x1, x2, gamma):
    y_cast, y, _, x = torch_npu.npu_add_rms_norm_cast(x1, x2, gamma)
    return y_cast.view(-1, y.size(-1)), x


with FakeTensorMode():
    t = functools.partial(torch.empty, (1, 2), device="npu", dtype=torch.float16)
    g = functools.partial(torch.empty, 2, device="npu", dtype=torch.float16)
    torchair.register_replacement(search_fn=search_fn, replace_fn=replace_fn, example_inputs=(t(), t(), g()),
                                  search_fn_pattern=PATTERN)
