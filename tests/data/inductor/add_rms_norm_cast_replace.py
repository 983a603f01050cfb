# TorchAir's add_rms_norm_cast: a hand-built search_fn_pattern; replace_fn reads y.size(-1), which must be the graph's own last dim.
import sys, operator, functools, torch, torch_npu
from torch._inductor.pattern_matcher import Match, MultiOutputPattern, CallFunction, KeywordArg, Ignored
from torch._subclasses.fake_tensor import FakeTensorMode
import torchair

norm = CallFunction(torch.ops.npu.npu_add_rms_norm.default, KeywordArg('x1'), KeywordArg('x2'), KeywordArg('gamma'), _users=2)
y = CallFunction(operator.getitem, norm, 0, _users=2)
x_out = CallFunction(operator.getitem, norm, 2)
cast = CallFunction(torch.ops.aten._to_copy.default, CallFunction(torch.ops.aten.view.default, y, [-1, Ignored()]), dtype=torch.float32)

def search_fn(x1, x2, gamma):
    pass

def replace_fn(x1, x2, gamma):
    y_cast, y, _, x_out = torch.ops.npu.npu_add_rms_norm_cast.default(x1, x2, gamma)
    h = y.size(-1)
    return y, x_out, y_cast.view(-1, h)

with FakeTensorMode():
    t = functools.partial(torch.empty, (1, 1, 2), dtype=torch.float16)
    g = functools.partial(torch.empty, 2, dtype=torch.float16)
    torchair.register_replacement(search_fn=search_fn, replace_fn=replace_fn, example_inputs=(t(), t(), g()),
        search_fn_pattern=MultiOutputPattern([y, x_out, cast]))
