"""TorchAir-style (torchair.register_replacement, torch_npu kernels in the replacement): LLaMA's rotate_half RoPE on
q and k followed by the q @ k^T score matmul, rewritten to use torch_npu.npu_rotary_mul for both embeddings; the
extra_check keeps it to the half types the NPU kernel takes."""
import torch
import torch_npu
import torchair


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope_qk_scores(query, key, cos, sin):
    q_embed = (query * cos) + (rotate_half(query) * sin)
    k_embed = (key * cos) + (rotate_half(key) * sin)
    return torch.matmul(q_embed, k_embed.transpose(2, 3))


def rope_qk_scores_npu(query, key, cos, sin):
    q_embed = torch_npu.npu_rotary_mul(query, cos, sin)
    k_embed = torch_npu.npu_rotary_mul(key, cos, sin)
    return torch.matmul(q_embed, k_embed.transpose(2, 3))


def half_types_only(match):
    query = match.kwargs["query"].meta["val"]
    cos = match.kwargs["cos"].meta["val"]
    return query.dtype in (torch.float16, torch.bfloat16) and cos.dtype == query.dtype


def _heads(dtype):  # (batch, seq, heads, head_dim) projections transposed, as the model has them
    return torch.empty(2, 8, 4, 16, dtype=dtype).transpose(1, 2)


torchair.register_replacement(
    search_fn=rope_qk_scores,
    replace_fn=rope_qk_scores_npu,
    example_inputs=(_heads(torch.float16), _heads(torch.float16), torch.empty(1, 1, 8, 16, dtype=torch.float16),
                    torch.empty(1, 1, 8, 16, dtype=torch.float16)),
    extra_check=half_types_only,
)
