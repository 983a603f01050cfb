"""Per-head q/k RMSNorm (Qwen3/OLMo-style qk-norm as HF writes it: `q_norm(q_proj(x).view(*shape, -1,
head_dim)).transpose(1, 2)`), in the style of vLLM's qk_norm_rope_fusion.py: a pattern per (head_dim, eps) made in
a loop of nested functions, replaced by npu_rms_norm on the head view; the check reads the head size from meta."""
import torch
import torch_npu
from torch._inductor import pattern_matcher as pm

qk_norm_pass = pm.PatternMatcherPass(pass_name="qk_norm_fusion")

HEAD_DIMS = (16, 32)


def make_qk_norm_pattern(head_dim, eps=1e-6):
    def rms_norm(x, weight):
        input_dtype = x.dtype
        x = x.to(torch.float32)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + eps)
        return weight * x.to(input_dtype)

    def qk_norm(proj, weight):
        heads = proj.view(*proj.shape[:-1], -1, head_dim)
        return rms_norm(heads, weight).transpose(1, 2)

    def qk_norm_replacement(proj, weight):
        heads = proj.view(*proj.shape[:-1], -1, head_dim)
        return torch_npu.npu_rms_norm(heads, weight, epsilon=eps)[0].transpose(1, 2)

    def extra_check(match):
        proj = match.kwargs["proj"].meta["val"]
        weight = match.kwargs["weight"].meta["val"]
        return proj.dim() == 3 and weight.shape[-1] == head_dim and proj.dtype in (torch.float16, torch.bfloat16)

    return qk_norm, qk_norm_replacement, extra_check


for head_dim in HEAD_DIMS:
    search, replace, check = make_qk_norm_pattern(head_dim)
    pm.register_replacement(search, replace,
                            [torch.empty(1, 4, 4 * head_dim, dtype=torch.bfloat16),
                             torch.empty(head_dim, dtype=torch.bfloat16)],
                            pm.fwd_only, qk_norm_pass, extra_check=check)
