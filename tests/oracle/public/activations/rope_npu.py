"""LLaMA's apply_rotary_pos_emb (rotate_half with slices, neg and cat; q * cos + rotate_half(q) * sin for q and k)
-> two torch_npu.npu_rotary_mul, one multi-output pattern per head_dim. In the style of vLLM-Ascend's rope fusion
pass (import torch_npu, nested rotate_half, extra_check that cos/sin match q's dtype and head_dim)."""
import torch
import torch_npu
from torch._inductor import pattern_matcher as pm

rope_pass = pm.PatternMatcherPass(pass_name="npu_rope_fusion")


def _rope_check(match: pm.Match) -> bool:
    q, cos, sin = (match.kwargs[k].meta["val"] for k in ("q", "cos", "sin"))
    return cos.dtype == q.dtype and sin.dtype == q.dtype and cos.shape[-1] == q.shape[-1] and q.dim() == 4


def register_rope(head_dim, dtype):
    def rotate_half(x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def apply_rotary_pos_emb(q, k, cos, sin):
        q_embed = (q * cos) + (rotate_half(q) * sin)
        k_embed = (k * cos) + (rotate_half(k) * sin)
        return q_embed, k_embed

    def npu_rope(q, k, cos, sin):
        return torch_npu.npu_rotary_mul(q, cos, sin), torch_npu.npu_rotary_mul(k, cos, sin)

    qk = torch.empty(1, 2, 4, head_dim, dtype=dtype)
    cs = torch.empty(1, 1, 4, head_dim, dtype=dtype)
    pm.register_replacement(apply_rotary_pos_emb, npu_rope, [qk, qk.clone(), cs, cs.clone()], pm.fwd_only,
                            rope_pass, extra_check=_rope_check)


for head_dim in (32, 64):
    register_rope(head_dim, torch.float16)
