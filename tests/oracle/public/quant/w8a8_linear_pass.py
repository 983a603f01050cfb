"""A class-based W8A8 static linear fusion in the style of vLLM's quantization fusions / SmoothQuant serving code:
static activation quant (upcast, divide, round, clamp), int8 x int8 matmul carried in float, the combined
x_scale * w_scale rescale and the bias -> static_quant op + scaled_mm op + bias. Patterns built per activation dtype
from a config dataclass; exclusive_arg_names keeps the activation and the weight scale distinct nodes."""
import dataclasses

import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement

import fxq_ops  # noqa: F401


@dataclasses.dataclass(frozen=True)
class W8A8Config:
    act_dtypes: tuple = (torch.bfloat16, torch.float16)
    pass_name: str = "w8a8_static_linear"


class W8A8StaticLinearPattern:
    def __init__(self, act_dtype):
        self.act_dtype = act_dtype

    def inputs(self):
        return [torch.empty(16, 64, dtype=self.act_dtype), torch.empty(1), torch.empty(32, 64, dtype=torch.int8),
                torch.empty(32), torch.empty(32, dtype=self.act_dtype)]

    def search(self, x, x_scale, w_q, w_scale, bias):
        q = torch.clamp(torch.round(x.to(torch.float32) / x_scale), -128, 127).to(torch.int8)
        y = torch.mm(q.to(torch.float32), w_q.to(torch.float32).t()) * (x_scale * w_scale)
        return y.to(self.act_dtype) + bias

    def replace(self, x, x_scale, w_q, w_scale, bias):
        q = torch.ops.fxq.static_quant.default(x, x_scale)
        y = torch.ops.fxq.scaled_mm.default(q, w_q, x_scale, w_scale.view(1, -1), self.act_dtype)
        return y + bias

    def register(self, pm_pass):
        register_replacement(self.search, self.replace, self.inputs(), fwd_only, pm_pass,
                             exclusive_arg_names=("x_scale", "w_scale"))


class W8A8FusionPass:
    def __init__(self, config: W8A8Config = W8A8Config()):
        self.patterns = PatternMatcherPass(pass_name=config.pass_name)
        for act_dtype in config.act_dtypes:
            W8A8StaticLinearPattern(act_dtype).register(self.patterns)

    def __call__(self, graph):
        return self.patterns.apply(graph)


w8a8_fusion_pass = W8A8FusionPass()
