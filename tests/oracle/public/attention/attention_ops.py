"""The fused attention kernels the attention suite's replacements call, as torch.library custom ops with a reference
implementation and a fake (meta) one, the way vLLM registers its kernels (direct_register_custom_op)."""
import math

import torch
import torch.nn.functional as F

_NS = "fxscope_attn"
_lib = torch.library.Library(_NS, "FRAGMENT")


def _define(schema, impl, fake):
    name = schema.split("(", 1)[0]
    if hasattr(getattr(torch.ops, _NS), name):  # imported again under another module name: already there
        return
    _lib.define(schema)
    _lib.impl(name, impl, "CompositeExplicitAutograd")
    torch.library.register_fake(f"{_NS}::{name}", lib=_lib)(fake)


def _gqa_attention(q, k, v, mask, scale):
    rep = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(rep, dim=1)
    v = v.repeat_interleave(rep, dim=1)
    w = torch.softmax(((q @ k.transpose(-2, -1)) * scale + mask).float(), dim=-1).to(q.dtype)
    return w @ v


def _alibi_attention(q, k, v, alibi, mask, beta, alpha):
    s = torch.baddbmm(alibi, q, k, beta=beta, alpha=alpha)
    bh, sq, sk = s.shape
    s = s.view(mask.shape[0], bh // mask.shape[0], sq, sk).masked_fill(mask, torch.finfo(s.dtype).min)
    return torch.bmm(torch.softmax(s, dim=-1, dtype=torch.float32).to(q.dtype).view(bh, sq, sk), v)


def _norm_rope(x, weight, cos, sin, eps):
    h = x.float()
    h = weight * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype)
    h = h.transpose(1, 2)
    d = h.shape[-1]
    return h * cos + torch.cat((-h[..., d // 2:], h[..., : d // 2]), dim=-1) * sin


def _cosine_attention(q, k, v, logit_scale, bias):
    s = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
    s = s * torch.clamp(logit_scale, max=math.log(1.0 / 0.01)).exp() + bias
    return torch.softmax(s, dim=-1) @ v


_define("gqa_attention(Tensor q, Tensor k, Tensor v, Tensor mask, float scale) -> Tensor", _gqa_attention,
        lambda q, k, v, mask, scale: q.new_empty(q.shape[:-1] + v.shape[-1:]))
_define("alibi_attention(Tensor q, Tensor k, Tensor v, Tensor alibi, Tensor mask, float beta, float alpha) -> Tensor",
        _alibi_attention, lambda q, k, v, alibi, mask, beta, alpha: q.new_empty(q.shape[:-1] + v.shape[-1:]))
_define("norm_rope(Tensor x, Tensor weight, Tensor cos, Tensor sin, float eps) -> Tensor", _norm_rope,
        lambda x, weight, cos, sin, eps: x.new_empty((x.shape[0], x.shape[2], x.shape[1], x.shape[3]),
                                                     dtype=torch.promote_types(x.dtype, cos.dtype)))
_define("cosine_attention(Tensor q, Tensor k, Tensor v, Tensor logit_scale, Tensor bias) -> Tensor", _cosine_attention,
        lambda q, k, v, logit_scale, bias: q.new_empty(q.shape[:-1] + v.shape[-1:]))
