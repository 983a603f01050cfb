"""TorchAir-style add_rms_norm_cast: npu_add_rms_norm whose y is cast to float32 and flattened with
view(-1, y.size(-1)) -> npu_add_rms_norm_cast. replace_fn reads y.size(-1): Inductor re-traces it per match, so
the view keeps the graph's own last dim, not the example input's 2."""
import functools
import torch, torch_npu, torchair
from torch._subclasses.fake_tensor import FakeTensorMode


def search_fn(x1, x2, gamma):
    y, _, x = torch_npu.npu_add_rms_norm(x1, x2, gamma)
    h = y.size(-1)
    y_cast = y.to(torch.float32)
    return y_cast.view(-1, h), x


def replace_fn(x1, x2, gamma):
    y_cast, y, _, x = torch_npu.npu_add_rms_norm_cast(x1, x2, gamma)
    h = y.size(-1)
    return y_cast.view(-1, h), x


with FakeTensorMode():
    t = functools.partial(torch.empty, (1, 2), device="npu", dtype=torch.float16)
    g = functools.partial(torch.empty, 2, device="npu", dtype=torch.float16)
    torchair.register_replacement(search_fn=search_fn, replace_fn=replace_fn, example_inputs=(t(), t(), g()))
