"""vLLM-style GQA attention fusion for LLaMA-family eager attention (HF eager_attention_forward): repeat_kv
(expand + reshape) of k and v, scores * scaling + the causal mask, softmax in float32, @ v, replaced by a
torch.library kernel. A decorator registers the pattern builder for every n_rep and model dtype; the extra_check
reads the matched tensors' meta["val"] for the head sizes and dtypes the kernel supports."""
import torch
from torch._inductor import pattern_matcher as pm

import attention_ops  # noqa: F401  (torch.ops.fxscope_attn)

GQA_FUSION_PASS = pm.PatternMatcherPass(pass_name="gqa_attention_fusion")
SUPPORTED_HEAD_SIZES = (32, 64, 128, 256)


def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def _kernel_supports(match):
    query = match.kwargs["query"].meta["val"]
    key = match.kwargs["key"].meta["val"]
    mask = match.kwargs["attention_mask"].meta["val"]
    return (query.shape[-1] in SUPPORTED_HEAD_SIZES and query.dtype in (torch.float16, torch.bfloat16)
            and key.shape[1] * (query.shape[1] // key.shape[1]) == query.shape[1] and mask.dtype == query.dtype)


def gqa_pattern(*n_reps, dtypes=(torch.float16, torch.bfloat16)):
    def register(build):
        for n_rep in n_reps:
            for dtype in dtypes:
                search, replace = build(n_rep)
                # laid out as the model has them: [b, s, h, d] projections transposed to [b, h, s, d]
                q = torch.empty(2, 8, 4 * n_rep, 32, dtype=dtype).transpose(1, 2)
                k = torch.empty(2, 8, 4, 32, dtype=dtype).transpose(1, 2)
                v = torch.empty(2, 8, 4, 32, dtype=dtype).transpose(1, 2)
                mask = torch.empty(1, 1, 8, 8, dtype=dtype)
                pm.register_replacement(search, replace, [q, k, v, mask], pm.fwd_only,
                                        GQA_FUSION_PASS, extra_check=_kernel_supports,
                                        scalar_workaround={"scaling": 0.3})
        return build
    return register


@gqa_pattern(2, 4)
def llama_gqa_attention(n_rep):
    def pattern(query, key, value, attention_mask, scaling):
        key_states = repeat_kv(key, n_rep)
        value_states = repeat_kv(value, n_rep)
        attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        attn_weights = attn_weights + attention_mask
        attn_weights = torch.nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        return torch.matmul(attn_weights, value_states)

    def replacement(query, key, value, attention_mask, scaling):
        return torch.ops.fxscope_attn.gqa_attention(query, key, value, attention_mask, scaling)

    return pattern, replacement
