"""Hugging Face T5/MT5 RMSNorm (T5LayerNorm) with float32 example inputs: in Inductor the .to(torch.float32) of a
float32 tensor traces to nothing, so the pattern is pow/mean/add/rsqrt/mul/mul."""
import torch, torch_npu, torchair


def t5_rms_norm(x, w, eps):
    variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    return w * x


def t5_rms_norm_replacement(x, w, eps):
    y, _ = torch_npu.npu_rms_norm(x, w, epsilon=eps)
    return y


torchair.register_replacement(
    search_fn=t5_rms_norm,
    replace_fn=t5_rms_norm_replacement,
    example_inputs=(torch.empty(2, 4, 8), torch.empty(8)),
    scalar_workaround={"eps": 1e-6},
)
