"""The attention suite: attention patterns written the way public pass code writes them (Inductor's
fx_passes/fuse_attention.py _sfdp families, HF eager attention, vLLM's class-based patterns with custom ops,
TorchAir's register_replacement), run on small BERT / GPT-2 / LLaMA (GQA) / T5 / BART / Bloom / Swin-v2 attention
blocks, static and symbolic, make_fx-traced and torch.compile-captured, f32/f16/bf16."""

import math

import torch
import torch.nn.functional as F

import models
from cases import _c

D = "tests/oracle/public/attention/"
_t = models._t


def _params(*shapes, dtype="f32"):
    return tuple(_t(s, dtype) for s in shapes)


# --------------------------------------------------------------------------------------------------------------
# model code


def _split_heads(x, heads, contiguous=False):  # [b, s, h*d] -> [b, h, s, d]
    b, s, hd = x.shape
    x = x.view(b, s, heads, hd // heads).permute(0, 2, 1, 3)
    return x.contiguous() if contiguous else x


def _merge_heads(x):  # [b, h, s, d] -> [b, s, h*d]
    b, h, s, d = x.shape
    return x.permute(0, 2, 1, 3).contiguous().view(b, s, h * d)


def _bert(symbolic=False, dtype="f32", b=2, s=8, hidden=64, heads=4, mask=False, scale_op="div", layers=1,
          output_attentions=False, mask_shape="padding", scale=None, mask_dtype=None, contiguous=True):
    """BERT self-attention blocks (HF BertSelfAttention + BertSelfOutput): linear q/k/v, scores / sqrt(d) (+ the
    extended padding mask), softmax, dropout in eval, context, output dense + residual + LayerNorm."""
    d = hidden // heads
    sc = math.sqrt(d) if scale is None else scale

    def f(x, m, *ws):
        h = x
        probs_out = []
        for i in range(layers):
            wq, bq, wk, bk, wv, bv, wo, bo, g, beta = ws[10 * i:10 * i + 10]
            q = _split_heads(F.linear(h, wq, bq), heads, contiguous)
            k = _split_heads(F.linear(h, wk, bk), heads, contiguous)
            v = _split_heads(F.linear(h, wv, bv), heads, contiguous)
            scores = torch.matmul(q, k.transpose(-1, -2))
            scores = scores / sc if scale_op == "div" else scores * (1.0 / sc)
            if mask:
                scores = scores + m
            probs = F.softmax(scores, dim=-1)
            probs = F.dropout(probs, p=0.1, training=False)
            if output_attentions:
                probs_out.append(probs)
            ctx = _merge_heads(torch.matmul(probs, v))
            h = F.layer_norm(F.linear(ctx, wo, bo) + h, (hidden,), g, beta, 1e-12)
        return (h, *probs_out)
    mshape = {"padding": (b, 1, 1, s), "full": (b, 1, s, s), "heads": (b, heads, s, s)}[mask_shape]
    ws = []
    for _ in range(layers):
        ws += _params((hidden, hidden), (hidden,), (hidden, hidden), (hidden,), (hidden, hidden), (hidden,),
                      (hidden, hidden), (hidden,), (hidden,), (hidden,), dtype=dtype)
    return models._trace(f, (_t((b, s, hidden), dtype), _t(mshape, mask_dtype or dtype), *ws), symbolic)


def _gpt2(symbolic=False, dtype="f32", b=2, s=8, hidden=64, heads=4, layers=1, mask_form="where", scale=True,
          fill="finfo"):
    """GPT-2 attention (HF GPT2Attention._attn): c_attn splits q/k/v, w / value.size(-1) ** 0.5, the causal bias
    buffer via torch.where(causal_mask, w, mask_value), softmax, @ v, merge heads, c_proj."""
    def f(x, bias, *ws):
        h = x
        for i in range(layers):
            w_attn, b_attn, w_proj, b_proj = ws[4 * i:4 * i + 4]
            q, k, v = torch.addmm(b_attn, h.view(-1, hidden), w_attn).view(b, s, 3 * hidden).split(hidden, dim=2)
            q, k, v = _split_heads(q, heads), _split_heads(k, heads), _split_heads(v, heads)
            w = torch.matmul(q, k.transpose(-1, -2))
            if scale:
                w = w / (v.size(-1) ** 0.5)
            causal_mask = bias[:, :, :s, :s]
            if mask_form == "where":
                mask_value = torch.finfo(w.dtype).min if fill == "finfo" else -10000.0
                mask_value = torch.full([], mask_value, dtype=w.dtype, device=w.device)
                w = torch.where(causal_mask, w.to(w.dtype), mask_value)
            elif mask_form == "masked_fill":
                w = w.masked_fill(~causal_mask, torch.finfo(w.dtype).min)
            w = torch.softmax(w, dim=-1).type(v.dtype)
            a = _merge_heads(torch.matmul(w, v))
            h = h + torch.addmm(b_proj, a.view(-1, hidden), w_proj).view(b, s, hidden)
        return h
    ws = []
    for _ in range(layers):
        ws += _params((hidden, 3 * hidden), (3 * hidden,), (hidden, hidden), (hidden,), dtype=dtype)
    causal = torch.tril(torch.ones(s, s, dtype=torch.bool)).view(1, 1, s, s)
    return models._trace(f, (_t((b, s, hidden), dtype), causal, *ws), symbolic)


def _llama(symbolic=False, dtype="f32", b=2, s=8, heads=4, kv_heads=2, head_dim=16, layers=1, mask=True,
           rope=True, qk_norm=False, softmax_f32=True, scaling=None, n_rep_form="expand", out_probs=False,
           cs_dtype=None, eps=1e-6):
    """LLaMA / Qwen3 attention (HF LlamaAttention + eager_attention_forward): q/k/v projections, optional per-head
    q_norm/k_norm (Qwen3), rotary embedding, repeat_kv (expand + reshape), scores * scaling + causal mask,
    softmax in float32, @ v, o_proj."""
    hidden = heads * head_dim
    rep = heads // kv_heads
    scal = head_dim ** -0.5 if scaling is None else scaling

    def repeat_kv(x, n_rep):
        bb, n, sl, hd = x.shape
        if n_rep == 1:
            return x
        if n_rep_form == "repeat_interleave":
            return torch.repeat_interleave(x, n_rep, dim=1)
        x = x[:, :, None, :, :].expand(bb, n, n_rep, sl, hd)
        return x.reshape(bb, n * n_rep, sl, hd)

    def f(x, cos, sin, m, *ws):
        h = x
        probs = []
        for i in range(layers):
            wq, wk, wv, wo, qn, kn = ws[6 * i:6 * i + 6]
            q = (h @ wq).view(b, s, heads, head_dim)
            k = (h @ wk).view(b, s, kv_heads, head_dim)
            v = (h @ wv).view(b, s, kv_heads, head_dim).transpose(1, 2)
            if qk_norm:
                q, k = models.llama_rmsnorm(q, qn, eps), models.llama_rmsnorm(k, kn, eps)
            q, k = q.transpose(1, 2), k.transpose(1, 2)
            if rope:
                q = q * cos + models.rotate_half(q) * sin
                k = k * cos + models.rotate_half(k) * sin
                if cs_dtype:  # an f32 rotary cache promotes q/k: cast back to the activation dtype
                    q, k = q.to(x.dtype), k.to(x.dtype)
            k = repeat_kv(k, rep)
            v = repeat_kv(v, rep)
            w = torch.matmul(q, k.transpose(2, 3)) * scal
            if mask:
                w = w + m[:, :, :, : k.shape[-2]]
            if softmax_f32:
                w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
            else:
                w = F.softmax(w, dim=-1)
            if out_probs:
                probs.append(w)
            a = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, hidden)
            h = h + a @ wo
        return (h, *probs)
    ws = []
    for _ in range(layers):
        ws += _params((hidden, hidden), (hidden, kv_heads * head_dim), (hidden, kv_heads * head_dim),
                      (hidden, hidden), (head_dim,), (head_dim,), dtype=dtype)
    causal = torch.triu(torch.full((s, s), -1e4), 1).view(1, 1, s, s).to(models.DT[dtype])
    return models._trace(f, (_t((b, s, hidden), dtype), _t((1, 1, s, head_dim), cs_dtype or dtype),
                             _t((1, 1, s, head_dim), cs_dtype or dtype), causal, *ws), symbolic)


def _t5(symbolic=False, dtype="f32", b=2, s=8, heads=4, d_kv=16, layers=1, bias=True, mask=False, inplace=False):
    """T5 attention (HF T5Attention): no 1/sqrt(d) scaling, scores += position_bias (+ mask), softmax in float32
    and type_as, @ v, o projection; the relative position bias is computed once and shared by the layers."""
    inner = heads * d_kv

    def f(x, pb, m, *ws):
        h = x
        position_bias = pb + m if mask else pb
        for i in range(layers):
            wq, wk, wv, wo = ws[4 * i:4 * i + 4]
            q = (h @ wq).view(b, -1, heads, d_kv).transpose(1, 2)
            k = (h @ wk).view(b, -1, heads, d_kv).transpose(1, 2)
            v = (h @ wv).view(b, -1, heads, d_kv).transpose(1, 2)
            scores = torch.matmul(q, k.transpose(3, 2))
            if bias and inplace:  # HF's own `scores += position_bias`, as make_fx records it (no functionalization)
                scores += position_bias
            elif bias:  # as the functionalized AOT graph has it
                scores = scores + position_bias
            attn = F.softmax(scores.float(), dim=-1).type_as(scores)
            a = torch.matmul(attn, v).transpose(1, 2).contiguous().view(b, -1, inner)
            h = h + a @ wo
        return h
    ws = []
    for _ in range(layers):
        ws += _params((inner, inner), (inner, inner), (inner, inner), (inner, inner), dtype=dtype)
    return models._trace(f, (_t((b, s, inner), dtype), _t((1, heads, s, s), dtype), _t((b, 1, 1, s), dtype), *ws),
                         symbolic)


def _bart(symbolic=False, dtype="f32", b=2, s=8, hidden=64, heads=4, mask=False, layers=1, shared_qk=False,
          scale_where="pre"):
    """BART / Marian attention (HF BartAttention, eager): q_proj(x) * scaling, heads folded into the batch
    (b*h, s, d), torch.bmm(q, k.transpose(1, 2)) (+ the 4-D mask through a view), softmax, bmm with v."""
    d = hidden // heads
    scaling = d ** -0.5

    def shape(t):
        return t.view(b, s, heads, d).transpose(1, 2).contiguous()

    def f(x, m, *ws):
        h = x
        for i in range(layers):
            wq, wk, wv, wo = ws[4 * i:4 * i + 4]
            q = h @ wq
            q = q * scaling if scale_where == "pre" else q
            q = shape(q).view(b * heads, s, d)
            k = q if shared_qk else shape(h @ wk).view(b * heads, s, d)  # shared QK (Reformer-like): k is q
            v = shape(h @ wv).view(b * heads, s, d)
            w = torch.bmm(q, k.transpose(1, 2))
            if scale_where == "post":
                w = w * scaling
            if mask:
                w = (w.view(b, heads, s, s) + m).view(b * heads, s, s)
            w = F.softmax(w, dim=-1)
            a = torch.bmm(w, v).view(b, heads, s, d).transpose(1, 2).reshape(b, s, hidden)
            h = h + a @ wo
        return h
    ws = []
    for _ in range(layers):
        ws += _params((hidden, hidden), (hidden, hidden), (hidden, hidden), (hidden, hidden), dtype=dtype)
    return models._trace(f, (_t((b, s, hidden), dtype), _t((b, 1, s, s), dtype), *ws), symbolic)


def _bloom(symbolic=False, dtype="f32", b=2, s=8, hidden=64, heads=4, layers=1, beta=1.0, fill="finfo"):
    """Bloom attention (HF BloomAttention): fused qkv, alibi.baddbmm(q, k, beta=1.0, alpha=inv_norm_factor),
    masked_fill of the causal mask with finfo.min, softmax in float32, bmm with v, dense."""
    d = hidden // heads
    inv_norm = 1.0 / math.sqrt(d)

    def f(x, alibi, causal, *ws):
        h = x
        for i in range(layers):
            wqkv, wo = ws[2 * i:2 * i + 2]
            fused = (h @ wqkv).view(b, s, heads, 3, d)
            q = fused[..., 0, :].transpose(1, 2).reshape(b * heads, s, d)
            k = fused[..., 1, :].permute(0, 2, 3, 1).reshape(b * heads, d, s)
            v = fused[..., 2, :].transpose(1, 2).reshape(b * heads, s, d)
            scores = alibi.baddbmm(batch1=q, batch2=k, beta=beta, alpha=inv_norm)
            scores = scores.view(b, heads, s, s)
            value = torch.finfo(scores.dtype).min if fill == "finfo" else -1e4
            probs = F.softmax(scores.masked_fill(causal, value), dim=-1, dtype=torch.float32).to(q.dtype)
            ctx = torch.bmm(probs.view(b * heads, s, s), v)
            h = h + ctx.view(b, heads, s, d).permute(0, 2, 1, 3).reshape(b, s, hidden) @ wo
        return h
    ws = []
    for _ in range(layers):
        ws += _params((hidden, 3 * hidden), (hidden, hidden), dtype=dtype)
    causal = torch.triu(torch.ones(s, s, dtype=torch.bool), 1).view(1, 1, s, s).expand(b, 1, s, s).contiguous()
    return models._trace(f, (_t((b, s, hidden), dtype), _t((b * heads, 1, s), dtype), causal, *ws), symbolic)


def _swinv2(symbolic=False, dtype="f32", windows=4, n=16, dim=32, heads=2, layers=1, tau=None,
            explicit_head_dim=False):
    """Swin-v2 window attention: cosine attention, F.normalize(q) @ F.normalize(k)^T * clamp(logit_scale,
    max=log(100)).exp() + relative position bias, softmax, @ v, proj."""
    d = dim // heads
    ls_max = math.log(1.0 / 0.01) if tau is None else tau

    def f(x, rel_bias, *ws):
        h = x
        for i in range(layers):
            wqkv, logit_scale, wo = ws[3 * i:3 * i + 3]
            qkv = (h @ wqkv).reshape(windows, n, 3, heads, d if explicit_head_dim else -1).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
            attn = attn * torch.clamp(logit_scale, max=ls_max).exp()
            attn = attn + rel_bias.unsqueeze(0)
            attn = F.softmax(attn, dim=-1)
            h = h + (attn @ v).transpose(1, 2).reshape(windows, n, dim) @ wo
        return h
    ws = []
    for _ in range(layers):
        ws += _params((dim, 3 * dim), (heads, 1, 1), (dim, dim), dtype=dtype)
    return models._trace(f, (_t((windows, n, dim), dtype), _t((heads, n, n), dtype), *ws), symbolic)


# --------------------------------------------------------------------------------------------------------------
# torch.compile captures (the inference graph aot_autograd hands the backend)


class _BertSelfAttention(torch.nn.Module):
    def __init__(self, hidden, heads, dtype, mask, contiguous):
        super().__init__()
        self.heads, self.d, self.mask, self.contiguous = heads, hidden // heads, mask, contiguous
        self.query = torch.nn.Linear(hidden, hidden, dtype=dtype)
        self.key = torch.nn.Linear(hidden, hidden, dtype=dtype)
        self.value = torch.nn.Linear(hidden, hidden, dtype=dtype)
        self.out = torch.nn.Linear(hidden, hidden, dtype=dtype)
        self.norm = torch.nn.LayerNorm(hidden, dtype=dtype)

    def forward(self, x, m):
        q = _split_heads(self.query(x), self.heads, self.contiguous)
        k = _split_heads(self.key(x), self.heads, self.contiguous)
        v = _split_heads(self.value(x), self.heads, self.contiguous)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        if self.mask:
            scores = scores + m
        ctx = _merge_heads(torch.matmul(torch.softmax(scores, dim=-1), v))
        return self.norm(self.out(ctx) + x)


class _LlamaAttention(torch.nn.Module):
    def __init__(self, heads, kv_heads, head_dim, dtype):
        super().__init__()
        self.heads, self.kv, self.hd = heads, kv_heads, head_dim
        hidden = heads * head_dim
        self.q_proj = torch.nn.Linear(hidden, hidden, bias=False, dtype=dtype)
        self.k_proj = torch.nn.Linear(hidden, kv_heads * head_dim, bias=False, dtype=dtype)
        self.v_proj = torch.nn.Linear(hidden, kv_heads * head_dim, bias=False, dtype=dtype)
        self.o_proj = torch.nn.Linear(hidden, hidden, bias=False, dtype=dtype)

    def forward(self, x, m):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv, self.hd).transpose(1, 2)
        rep = self.heads // self.kv
        k = k[:, :, None].expand(b, self.kv, rep, s, self.hd).reshape(b, self.heads, s, self.hd)
        v = v[:, :, None].expand(b, self.kv, rep, s, self.hd).reshape(b, self.heads, s, self.hd)
        w = torch.matmul(q, k.transpose(2, 3)) * self.hd ** -0.5 + m
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return self.o_proj(torch.matmul(w, v).transpose(1, 2).reshape(b, s, -1))


def _compiled(symbolic=False, model="bert", dtype="f32", b=2, s=8, hidden=64, heads=4, kv_heads=2, mask=True,
              dynamic=False, contiguous=True):
    dt = models.DT[dtype]
    torch.manual_seed(0)
    if model == "bert":
        mod = _BertSelfAttention(hidden, heads, dt, mask, contiguous)
        args = (_t((b, s, hidden), dtype), _t((b, 1, 1, s), dtype))
    else:
        mod = _LlamaAttention(heads, kv_heads, hidden // heads, dt)
        args = (_t((b, s, hidden), dtype), _t((1, 1, s, s), dtype))
    return models.capture(mod, args, dynamic)


GRAPHS = {
    "attention_bert": _bert,
    "attention_gpt2": _gpt2,
    "attention_llama": _llama,
    "attention_t5": _t5,
    "attention_bart": _bart,
    "attention_bloom": _bloom,
    "attention_swinv2": _swinv2,
    "attention_compiled": _compiled,
}


def cases():
    return (_sfdp_cases() + _bert_cases() + _gpt2_cases() + _gqa_cases() + _t5_cases() + _bart_cases()
            + _bloom_cases() + _qk_norm_cases() + _torchair_cases() + _swin_cases() + _serialized_cases()
            + _eager_cases())


def _sfdp_cases():
    f = [D + "sfdp_inductor.py"]
    return [
        _c("attention.sfdp_bert_f32", "BERT block, contiguous heads, scores / sqrt(d): _sfdp_pattern_1 fires",
           "attention_bert", {}, f),
        _c("attention.sfdp_bert_f32_readable", "the same from print_readable code",
           "attention_bert", {}, f, form="readable"),
        _c("attention.sfdp_bert_permute", "BERT heads left permuted (HF): matmul's reshape copies, no match",
           "attention_bert", {"contiguous": False}, f),
        _c("attention.sfdp_bert_mul", "BERT with scores * (1/sqrt(d)): _sfdp_pattern_2 fires",
           "attention_bert", {"scale_op": "mul"}, f),
        _c("attention.sfdp_bert_f16", "f16 BERT: the half registrations (softmax upcasts)",
           "attention_bert", {"dtype": "f16"}, f),
        _c("attention.sfdp_bert_bf16", "bf16 BERT: the half pattern's re-trace takes bf16",
           "attention_bert", {"dtype": "bf16"}, f),
        _c("attention.sfdp_bert_bf16_mul_readable", "bf16 BERT, mul scale, read from print_readable code",
           "attention_bert", {"dtype": "bf16", "scale_op": "mul"}, f, form="readable"),
        _c("attention.sfdp_bert_mask", "BERT with padding mask: the no-mask patterns do not fire",
           "attention_bert", {"mask": True}, f),
        _c("attention.sfdp_bert_3layers", "three BERT layers: three replacements",
           "attention_bert", {"layers": 3}, f),
        _c("attention.sfdp_bert_probs_out", "output_attentions=True: softmax has an outside user, no match",
           "attention_bert", {"output_attentions": True}, f),
        _c("attention.sfdp_bert_2d_heads", "BERT with 2 heads of 64, 4-D",
           "attention_bert", {"hidden": 128, "heads": 2, "s": 6}, f),
        _c("attention.sfdp_bert_symbolic", "dynamic batch/seq (make_fx symbolic): sym_size view sizes, no match",
           "attention_bert", {"symbolic": True}, f),
        _c("attention.sfdp_bert_symbolic_f16", "dynamic shapes, f16, mul scale: no match",
           "attention_bert", {"symbolic": True, "dtype": "f16", "scale_op": "mul"}, f),
        _c("attention.sfdp_gpt2_causal", "GPT-2 causal where(): no-mask sdfp patterns do not fire",
           "attention_gpt2", {}, f),
        _c("attention.sfdp_llama", "LLaMA GQA attention: repeat_kv and the mask keep sfdp_1/2 off",
           "attention_llama", {"dtype": "f16"}, f),
        _c("attention.sfdp_llama_nomask_mha", "LLaMA MHA, no mask/RoPE: transposed q/k/v add clones, no match",
           "attention_llama", {"kv_heads": 4, "mask": False, "softmax_f32": False, "rope": False}, f),
        _c("attention.sfdp_compiled_bert_nomask", "torch.compile'd BERT self-attention without mask: fires",
           "attention_compiled", {"model": "bert", "mask": False}, f),
        _c("attention.sfdp_compiled_bert_f16", "torch.compile'd f16 BERT self-attention without mask: fires",
           "attention_compiled", {"model": "bert", "mask": False, "dtype": "f16"}, f),
        _c("attention.sfdp_t5_nobias", "T5 without bias: no scale at all, sfdp_1/2 do not fire",
           "attention_t5", {"bias": False}, f),
    ]


def _bert_cases():
    f = [D + "bert_mask_math.py"]
    return [
        _c("attention.bert_mask_f32", "BERT with padding mask / math.sqrt(16): the head-16 registration fires",
           "attention_bert", {"mask": True}, f),
        _c("attention.bert_mask_f32_readable", "the same from print_readable code",
           "attention_bert", {"mask": True}, f, form="readable"),
        _c("attention.bert_mask_head32", "head size 32 (2 heads of 32): the head-32 registration fires",
           "attention_bert", {"mask": True, "heads": 2}, f),
        _c("attention.bert_mask_head64", "head size 64: the first registration fires",
           "attention_bert", {"mask": True, "hidden": 128, "heads": 2}, f),
        _c("attention.bert_mask_head8", "head size 8 (sqrt 2.83): no registration's constant, specific rejections",
           "attention_bert", {"mask": True, "heads": 8}, f),
        _c("attention.bert_mask_f16", "f16: the f32-traced pattern has no softmax upcast, generic rejection",
           "attention_bert", {"mask": True, "dtype": "f16"}, f),
        _c("attention.bert_mask_full", "a [b, 1, s, s] mask: the extra_check wants a padding mask",
           "attention_bert", {"mask": True, "mask_shape": "full"}, f),
        _c("attention.bert_mask_heads", "a per-head [b, h, s, s] mask: extra_check rejects",
           "attention_bert", {"mask": True, "mask_shape": "heads"}, f),
        _c("attention.bert_mask_bf16_mask", "a bf16 mask on an f32 graph (scores stay f32): the mask dtype check "
           "rejects", "attention_bert", {"mask": True, "mask_dtype": "bf16"}, f),
        _c("attention.bert_mask_nomask", "no mask add: generic rejection",
           "attention_bert", {}, f),
        _c("attention.bert_mask_permute", "HF's permuted heads: matmul's reshapes copy, generic rejection",
           "attention_bert", {"mask": True, "contiguous": False}, f),
        _c("attention.bert_mask_4layers", "four BERT layers with mask: four replacements",
           "attention_bert", {"mask": True, "layers": 4}, f),
        _c("attention.bert_mask_mul", "scores * 0.25 instead of / 4.0: generic rejection",
           "attention_bert", {"mask": True, "scale_op": "mul"}, f),
        _c("attention.bert_mask_symbolic", "dynamic batch/seq with mask: sym_size views, no match",
           "attention_bert", {"mask": True, "symbolic": True}, f),
        _c("attention.bert_mask_probs_out", "output_attentions with a mask: outside user, no match",
           "attention_bert", {"mask": True, "output_attentions": True, "layers": 2}, f),
        _c("attention.bert_mask_compiled", "torch.compile'd BERT self-attention with mask",
           "attention_compiled", {"model": "bert", "mask": True}, f),
        _c("attention.bert_mask_compiled_permute", "torch.compile'd HF-layout BERT (permuted heads): no match",
           "attention_compiled", {"model": "bert", "mask": True, "contiguous": False}, f),
    ]


def _gpt2_cases():
    f = [D + "gpt2_causal_where.py"]
    return [
        _c("attention.gpt2_f32", "GPT-2 causal where() with finfo.min: fires", "attention_gpt2", {}, f),
        _c("attention.gpt2_f32_readable", "the same from print_readable code", "attention_gpt2", {}, f,
           form="readable"),
        _c("attention.gpt2_f16", "f16 GPT-2: the f16 registration fires", "attention_gpt2", {"dtype": "f16"}, f),
        _c("attention.gpt2_bf16", "bf16 GPT-2: the half-shaped registration re-traced in bf16",
           "attention_gpt2", {"dtype": "bf16"}, f),
        _c("attention.gpt2_3layers", "three GPT-2 layers: three replacements", "attention_gpt2", {"layers": 3}, f),
        _c("attention.gpt2_masked_fill", "masked_fill(~mask) instead of where: generic rejection",
           "attention_gpt2", {"mask_form": "masked_fill"}, f),
        _c("attention.gpt2_fill_1e4", "where with -10000.0 instead of finfo.min: specific rejection",
           "attention_gpt2", {"fill": "1e4"}, f),
        _c("attention.gpt2_noscale", "scale_attn_weights=False (no division): generic rejection",
           "attention_gpt2", {"scale": False}, f),
        _c("attention.gpt2_nomask", "no causal mask at all (cross-attention-like): generic rejection",
           "attention_gpt2", {"mask_form": "none"}, f),
        _c("attention.gpt2_head32", "head dim 32 (scale 5.66): fires with the match's scale",
           "attention_gpt2", {"heads": 2}, f),
        _c("attention.gpt2_symbolic", "dynamic shapes", "attention_gpt2", {"symbolic": True}, f),
        _c("attention.gpt2_bert", "BERT graph (contiguous heads, no causal where): no match",
           "attention_bert", {"mask": True}, f),
        _c("attention.gpt2_f16_2layers_readable", "two f16 layers from readable code",
           "attention_gpt2", {"dtype": "f16", "layers": 2}, f, form="readable"),
    ]


def _gqa_cases():
    f = [D + "llama_repeat_kv.py"]
    big = {"head_dim": 32}
    return [
        _c("attention.gqa_f16_rep2", "LLaMA GQA n_rep=2, head 32, f16: the n_rep=2 kernel fires",
           "attention_llama", {"dtype": "f16", **big}, f),
        _c("attention.gqa_f16_rep2_readable", "the same from readable code",
           "attention_llama", {"dtype": "f16", **big}, f, form="readable"),
        _c("attention.gqa_bf16_rep2", "bf16 n_rep=2",
           "attention_llama", {"dtype": "bf16", **big}, f),
        _c("attention.gqa_bf16_rep4", "MQA (1 kv head): the size-1 head dim changes repeat_kv's trace, no match",
           "attention_llama", {"dtype": "bf16", "kv_heads": 1, **big}, f),
        _c("attention.gqa_f16_rep4_8heads", "8 heads over 2 kv heads: n_rep=4",
           "attention_llama", {"dtype": "f16", "heads": 8, "kv_heads": 2, **big}, f),
        _c("attention.gqa_f32", "f32 graph: softmax(dtype=float32) has no casts, generic rejection",
           "attention_llama", {"dtype": "f32", **big}, f),
        _c("attention.gqa_head16", "head dim 16: the kernel's head sizes, extra_check rejects",
           "attention_llama", {"dtype": "f16"}, f),
        _c("attention.gqa_mha", "n_rep=1 (MHA): repeat_kv returns early, generic rejection",
           "attention_llama", {"dtype": "f16", "kv_heads": 4, **big}, f),
        _c("attention.gqa_repeat_interleave", "repeat_interleave decomposes to the same expand+reshape: fires",
           "attention_llama", {"dtype": "f16", "n_rep_form": "repeat_interleave", **big}, f),
        _c("attention.gqa_nomask", "no causal mask: generic rejection",
           "attention_llama", {"dtype": "f16", "mask": False, **big}, f),
        _c("attention.gqa_2layers", "two layers: two replacements",
           "attention_llama", {"dtype": "bf16", "layers": 2, **big}, f),
        _c("attention.gqa_probs_out", "attention weights returned: outside user",
           "attention_llama", {"dtype": "f16", "out_probs": True, **big}, f),
        _c("attention.gqa_symbolic", "dynamic batch/seq, f16",
           "attention_llama", {"dtype": "f16", "symbolic": True, **big}, f),
        _c("attention.gqa_norope", "no RoPE (q a transposed projection): fires",
           "attention_llama", {"dtype": "f16", "rope": False, **big}, f),
        _c("attention.gqa_compiled", "torch.compile'd LLaMA attention module, f16, head 32",
           "attention_compiled", {"model": "llama", "dtype": "f16", "hidden": 128, "heads": 4, "kv_heads": 2}, f),
        _c("attention.gqa_compiled_f32", "torch.compile'd LLaMA attention module in f32: generic rejection",
           "attention_compiled", {"model": "llama", "dtype": "f32", "hidden": 128, "heads": 4, "kv_heads": 2}, f),
    ]


def _t5_cases():
    f = [D + "t5_position_bias.py"]
    return [
        _c("attention.t5_bias_f32", "T5 with position bias: the biased registration fires, the unbiased not",
           "attention_t5", {}, f),
        _c("attention.t5_bias_f32_readable", "the same from readable code", "attention_t5", {}, f, form="readable"),
        _c("attention.t5_bias_bf16", "bf16 T5 with bias: the bf16 registration", "attention_t5", {"dtype": "bf16"}, f),
        _c("attention.t5_bias_f16", "f16 T5: the bf16-traced pattern re-traced in f16",
           "attention_t5", {"dtype": "f16"}, f),
        _c("attention.t5_nobias", "T5 without bias: only the unbiased registration fires",
           "attention_t5", {"bias": False}, f),
        _c("attention.t5_nobias_bf16", "bf16 T5 without bias", "attention_t5", {"bias": False, "dtype": "bf16"}, f),
        _c("attention.t5_bias_mask", "bias + padding mask folded into position_bias: fires",
           "attention_t5", {"mask": True}, f),
        _c("attention.t5_inplace", "HF's scores += position_bias recorded as add_ (no functionalization)",
           "attention_t5", {"inplace": True}, f),
        _c("attention.t5_3layers", "three T5 layers sharing one bias: three replacements",
           "attention_t5", {"layers": 3}, f),
        _c("attention.t5_symbolic", "dynamic shapes T5", "attention_t5", {"symbolic": True}, f),
        _c("attention.t5_bert", "BERT (scaled): neither T5 registration fires",
           "attention_bert", {"mask": True, "contiguous": False}, f),
        _c("attention.t5_llama_noscale", "unscaled-looking LLaMA MHA (no rope, no mask): scale keeps it off",
           "attention_llama", {"kv_heads": 4, "mask": False, "rope": False}, f),
    ]


def _bart_cases():
    f = [D + "bart_bmm.py"]
    return [
        _c("attention.bart_f32", "BART bmm attention, pre-scaled q: the unmasked bmm pattern fires",
           "attention_bart", {}, f),
        _c("attention.bart_f32_readable", "the same from readable code", "attention_bart", {}, f, form="readable"),
        _c("attention.bart_mask", "BART with a 4-D mask through views: the masked registration fires",
           "attention_bart", {"mask": True}, f),
        _c("attention.bart_mask_readable", "masked, readable code", "attention_bart", {"mask": True}, f,
           form="readable"),
        _c("attention.bart_shared_qk", "shared QK (k is q): exclusive_arg_names rejects",
           "attention_bart", {"shared_qk": True}, f),
        _c("attention.bart_shared_qk_mask", "shared QK with mask: exclusive_arg_names rejects",
           "attention_bart", {"shared_qk": True, "mask": True}, f),
        _c("attention.bart_post_scale", "scaling after the bmm: generic rejection",
           "attention_bart", {"scale_where": "post"}, f),
        _c("attention.bart_f16", "f16: softmax upcasts, the f32 trace does not match",
           "attention_bart", {"dtype": "f16"}, f),
        _c("attention.bart_3layers", "three layers: three replacements", "attention_bart", {"layers": 3}, f),
        _c("attention.bart_mask_2layers", "two masked layers", "attention_bart", {"mask": True, "layers": 2}, f),
        _c("attention.bart_symbolic", "dynamic shapes, unmasked", "attention_bart", {"symbolic": True}, f),
        _c("attention.bart_mask_symbolic", "dynamic shapes, masked: sizes read from the inputs",
           "attention_bart", {"symbolic": True, "mask": True}, f),
        _c("attention.bart_bloom", "Bloom's baddbmm: no bmm-softmax-bmm chain without it",
           "attention_bloom", {}, f),
    ]


def _bloom_cases():
    f = [D + "bloom_baddbmm.py"]
    return [
        _c("attention.bloom_f32", "Bloom alibi baddbmm + masked_fill: fires", "attention_bloom", {}, f),
        _c("attention.bloom_f32_readable", "the same from readable code", "attention_bloom", {}, f, form="readable"),
        _c("attention.bloom_bf16", "bf16 Bloom: the bf16 registration", "attention_bloom", {"dtype": "bf16"}, f),
        _c("attention.bloom_f16", "f16 Bloom: the bf16 pattern's re-trace in f16", "attention_bloom",
           {"dtype": "f16"}, f),
        _c("attention.bloom_beta", "beta=0.5: the alibi is scaled, specific rejection",
           "attention_bloom", {"beta": 0.5}, f),
        _c("attention.bloom_fill", "masked_fill with -1e4: specific rejection", "attention_bloom",
           {"fill": "1e4"}, f),
        _c("attention.bloom_head32", "head dim 32, alpha 0.177: fires", "attention_bloom", {"heads": 2}, f),
        _c("attention.bloom_2layers", "two layers", "attention_bloom", {"layers": 2}, f),
        _c("attention.bloom_symbolic", "dynamic shapes", "attention_bloom", {"symbolic": True}, f),
        _c("attention.bloom_bart", "BART's bmm attention: no baddbmm, no match", "attention_bart", {"mask": True}, f),
    ]


def _qk_norm_cases():
    f = [D + "qk_norm_rope_vllm.py"]
    return [
        _c("attention.qknorm_bf16", "Qwen3-like q_norm/k_norm + RoPE, bf16: q and k each fused",
           "attention_llama", {"dtype": "bf16", "qk_norm": True}, f),
        _c("attention.qknorm_bf16_readable", "the same from readable code",
           "attention_llama", {"dtype": "bf16", "qk_norm": True}, f, form="readable"),
        _c("attention.qknorm_f16", "f16", "attention_llama", {"dtype": "f16", "qk_norm": True}, f),
        _c("attention.qknorm_eps1e5", "eps 1e-5: the first registration fires",
           "attention_llama", {"dtype": "bf16", "qk_norm": True, "eps": 1e-5}, f),
        _c("attention.qknorm_eps1e3", "eps 1e-3: no registration's eps, specific rejections",
           "attention_llama", {"dtype": "bf16", "qk_norm": True, "eps": 1e-3}, f),
        _c("attention.qknorm_f32", "f32: no casts in the norm, generic rejection",
           "attention_llama", {"dtype": "f32", "qk_norm": True}, f),
        _c("attention.qknorm_cos_f32", "f16 activations with an f32 cos/sin cache: extra_check rejects",
           "attention_llama", {"dtype": "f16", "qk_norm": True, "cs_dtype": "f32"}, f),
        _c("attention.qknorm_none", "LLaMA without qk-norm: generic rejection",
           "attention_llama", {"dtype": "bf16"}, f),
        _c("attention.qknorm_2layers_mha", "two MHA layers: four fusions",
           "attention_llama", {"dtype": "bf16", "qk_norm": True, "layers": 2, "kv_heads": 4}, f),
        _c("attention.qknorm_symbolic", "dynamic shapes",
           "attention_llama", {"dtype": "bf16", "qk_norm": True, "symbolic": True}, f),
        _c("attention.qknorm_norope", "qk-norm without RoPE: generic rejection",
           "attention_llama", {"dtype": "bf16", "qk_norm": True, "rope": False}, f),
    ]


def _torchair_cases():
    f = [D + "rope_scores_torchair.py"]
    mha = {"kv_heads": 4}
    return [
        _c("attention.ta_rope_f16", "MHA LLaMA f16: RoPE on q and k + scores -> npu_rotary_mul",
           "attention_llama", {"dtype": "f16", **mha}, f),
        _c("attention.ta_rope_f16_readable", "the same from readable code",
           "attention_llama", {"dtype": "f16", **mha}, f, form="readable"),
        _c("attention.ta_rope_bf16", "bf16", "attention_llama", {"dtype": "bf16", **mha}, f),
        _c("attention.ta_rope_f32", "f32: the half-types extra_check rejects",
           "attention_llama", {"dtype": "f32", **mha}, f),
        _c("attention.ta_rope_cos_f32", "f32 cos/sin cache on f16, cast back after RoPE: the casts, generic rejection",
           "attention_llama", {"dtype": "f16", "cs_dtype": "f32", **mha}, f),
        _c("attention.ta_rope_gqa", "GQA: repeat_kv between RoPE(k) and the matmul, generic rejection",
           "attention_llama", {"dtype": "f16"}, f),
        _c("attention.ta_rope_2layers", "two MHA layers", "attention_llama", {"dtype": "f16", "layers": 2, **mha}, f),
        _c("attention.ta_rope_symbolic", "dynamic shapes", "attention_llama",
           {"dtype": "f16", "symbolic": True, **mha}, f),
        _c("attention.ta_rope_norope", "no RoPE: generic rejection", "attention_llama",
           {"dtype": "f16", "rope": False, **mha}, f),
        _c("attention.ta_rope_head32", "head dim 32", "attention_llama", {"dtype": "bf16", "head_dim": 32, **mha}, f),
    ]


def _swin_cases():
    f = [D + "swinv2_cosine.py"]
    return [
        _c("attention.swin_f32", "Swin-v2 cosine window attention: fires", "attention_swinv2", {}, f),
        _c("attention.swin_f32_readable", "the same from readable code", "attention_swinv2", {}, f, form="readable"),
        _c("attention.swin_f16", "f16: softmax upcasts, generic rejection", "attention_swinv2", {"dtype": "f16"}, f),
        _c("attention.swin_tau", "clamp max log(50): specific rejection", "attention_swinv2",
           {"tau": math.log(50.0)}, f),
        _c("attention.swin_explicit_head_dim", "reshape(..., head_dim) instead of -1: specific rejection",
           "attention_swinv2", {"explicit_head_dim": True}, f),
        _c("attention.swin_4heads", "4 heads of 8", "attention_swinv2", {"heads": 4}, f),
        _c("attention.swin_2layers", "two blocks", "attention_swinv2", {"layers": 2}, f),
        _c("attention.swin_symbolic", "dynamic shapes: no match", "attention_swinv2", {"symbolic": True}, f),
        _c("attention.swin_bert", "BERT: no normalize, no match", "attention_bert", {}, f),
    ]


def _serialized_cases():
    f = [D + "sfdp_serialized.py"]
    return [
        _c("attention.ser_bert_mask", "BERT with mask (contiguous heads): the serialized _sfdp_pattern_5 fires",
           "attention_bert", {"mask": True}, f),
        _c("attention.ser_bert_mask_readable", "the same from readable code",
           "attention_bert", {"mask": True}, f, form="readable"),
        _c("attention.ser_bert_mask_f16", "f16: the half serialized pattern", "attention_bert",
           {"mask": True, "dtype": "f16"}, f),
        _c("attention.ser_bert_mask_bf16", "bf16: the half pattern re-traced in bf16", "attention_bert",
           {"mask": True, "dtype": "bf16"}, f),
        _c("attention.ser_bert_full_mask", "a [b, 1, s, s] mask: fires (any broadcastable mask)",
           "attention_bert", {"mask": True, "mask_shape": "full"}, f),
        _c("attention.ser_bert_nomask", "no mask: generic rejection", "attention_bert", {}, f),
        _c("attention.ser_bert_permute", "permuted heads: the clone nodes, generic rejection",
           "attention_bert", {"mask": True, "contiguous": False}, f),
        _c("attention.ser_bert_mul", "mul scale: generic rejection", "attention_bert",
           {"mask": True, "scale_op": "mul"}, f),
        _c("attention.ser_bert_3layers", "three masked layers", "attention_bert", {"mask": True, "layers": 3}, f),
        _c("attention.ser_bert_symbolic", "dynamic shapes", "attention_bert", {"mask": True, "symbolic": True}, f),
        _c("attention.ser_bert_probs_out", "output_attentions: outside user", "attention_bert",
           {"mask": True, "output_attentions": True}, f),
        _c("attention.ser_compiled", "torch.compile'd BERT self-attention with mask: fires",
           "attention_compiled", {"model": "bert", "mask": True}, f),
        _c("attention.ser_compiled_bf16", "torch.compile'd bf16 BERT self-attention with mask",
           "attention_compiled", {"model": "bert", "mask": True, "dtype": "bf16"}, f),
    ]


def _eager_cases():
    f = [D + "hf_eager_attention.py"]
    mha = {"kv_heads": 4}
    return [
        _c("attention.eager_mha_f32", "LLaMA MHA eager attention, f32: fires", "attention_llama", mha, f),
        _c("attention.eager_mha_f32_readable", "the same from readable code", "attention_llama", mha, f,
           form="readable"),
        _c("attention.eager_mha_f16", "f16: the f16 registration", "attention_llama", {"dtype": "f16", **mha}, f),
        _c("attention.eager_mha_bf16", "bf16: the f16 pattern re-traced in bf16", "attention_llama",
           {"dtype": "bf16", **mha}, f),
        _c("attention.eager_gqa", "GQA (n_rep=2): repeat_kv nodes, generic rejection", "attention_llama",
           {"dtype": "f16"}, f),
        _c("attention.eager_nomask", "no mask: generic rejection", "attention_llama", {"mask": False, **mha}, f),
        _c("attention.eager_norope", "no RoPE: q a transposed view, fires", "attention_llama",
           {"rope": False, **mha}, f),
        _c("attention.eager_softmax_native", "f16 softmax without dtype=float32 upcasts the same way: fires",
           "attention_llama", {"dtype": "f16", "softmax_f32": False, **mha}, f),
        _c("attention.eager_3layers", "three layers", "attention_llama", {"layers": 3, **mha}, f),
        _c("attention.eager_symbolic", "dynamic shapes", "attention_llama", {"symbolic": True, **mha}, f),
        _c("attention.eager_probs_out", "weights returned: outside user", "attention_llama",
           {"out_probs": True, **mha}, f),
        _c("attention.eager_scaling", "scaling 0.1 (a config's query_pre_attn_scalar): fires with it",
           "attention_llama", {"scaling": 0.1, **mha}, f),
    ]
