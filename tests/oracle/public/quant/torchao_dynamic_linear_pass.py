"""A class-based rewrite in the style of torchao's int8 dynamic-activation / int8-weight linear
(Int8DynamicActivationInt8WeightConfig): per-token dynamic activation quant, int8 x int8 matmul in float and the
two rescales, in aten ops, -> one int8_dynamic_linear kernel; a config dataclass, a pattern class whose
staticmethod-built search/replace pair closes over the output dtype, an extra_check on K and on the weight's
dtype/layout from meta["val"], and a pass object created at import."""
import dataclasses

import torch
from torch._inductor import pattern_matcher as pm

import fxq_ops  # noqa: F401


@dataclasses.dataclass
class Int8DynamicActivationInt8WeightConfig:
    out_dtypes: tuple = (torch.bfloat16, torch.float16)
    min_k: int = 32
    pass_name: str = "int8_dynamic_linear"


class Int8DynamicLinearPattern:
    def __init__(self, config, out_dtype):
        self.config = config
        self.out_dtype = out_dtype

    @staticmethod
    def build(out_dtype):
        def search(x, w_q, w_scale):
            xf = x.to(torch.float32)
            x_scale = xf.abs().amax(dim=-1, keepdim=True) / 127.0
            x_q = torch.clamp(torch.round(xf / x_scale), -128, 127).to(torch.int8)
            y = torch.mm(x_q.to(torch.float32), w_q.to(torch.float32).t())
            return (y * x_scale * w_scale).to(out_dtype)

        def replace(x, w_q, w_scale):
            return torch.ops.fxq.int8_dynamic_linear.default(x, w_q, w_scale, out_dtype)
        return search, replace

    def check(self, match):
        x, w = match.kwargs["x"].meta["val"], match.kwargs["w_q"].meta["val"]
        return (x.shape[-1] >= self.config.min_k and w.dtype == torch.int8 and w.dim() == 2
                and w.shape[1] == x.shape[-1])

    def example_inputs(self):
        return [torch.empty(16, 64, dtype=self.out_dtype), torch.empty(32, 64, dtype=torch.int8), torch.empty(32)]

    def register(self, pm_pass):
        search, replace = self.build(self.out_dtype)
        pm.register_replacement(search, replace, self.example_inputs(), pm.fwd_only, pm_pass,
                                extra_check=self.check)


class Int8DynamicLinearPass:
    def __init__(self, config=None):
        self.config = config or Int8DynamicActivationInt8WeightConfig()
        self.pass_dict = pm.PatternMatcherPass(pass_name=self.config.pass_name)
        for out_dtype in self.config.out_dtypes:
            Int8DynamicLinearPattern(self.config, out_dtype).register(self.pass_dict)

    def __call__(self, gm):
        return self.pass_dict.apply(gm.graph)


int8_dynamic_linear_pass = Int8DynamicLinearPass()
