"""The norms suite (issue 22): normalization patterns written the way public pass code writes them (vLLM's
fusion.py RMSNorm / fused_add_rms_norm patterns, vLLM-Ascend's NPU norm passes, Inductor's fx_passes, TorchAir's
register_replacement files) run on small real model graphs: LLaMA/Qwen decoders, T5 encoders, Gemma, BERT/ViT,
CLIP heads, x-transformers, diffusers' ResNet blocks, dynamic shapes and torch.compile captures."""

import math

import torch
import torch.nn.functional as F

import models
from cases import _c
from models import _t, _trace

D = "tests/oracle/public/norms/"
F_VLLM = D + "vllm_rms_norm.py"
F_ADD = D + "fused_add_rms_norm.py"
F_ASCEND = D + "ascend_add_rms_norm.py"
F_LN = D + "layer_norm_manual.py"
F_BERT = D + "bert_output_layer_norm.py"
F_T5 = D + "t5_layer_norm.py"
F_GEMMA = D + "gemma_rms_norm.py"
F_QK = D + "qk_norm.py"
F_L2 = D + "l2_normalize.py"
F_XT = D + "scaled_l2_rms_norm.py"
F_GN = D + "group_norm_silu.py"
F_CORE = D + "rms_scale_graph_pattern.py"


# --------------------------------------------------------------------------------------------------------------
# model code: the norms as the models write them


def hf_rms(h, w, eps=1e-6, keep=None, dim=-1):
    """LlamaRMSNorm / Qwen2RMSNorm: weight * hidden.to(input_dtype)."""
    dtype = h.dtype
    hf = h.to(torch.float32)
    if keep is not None:
        keep.append(hf)
    var = hf.pow(2).mean(dim, keepdim=True)
    hf = hf * torch.rsqrt(var + eps)
    return w * hf.to(dtype)


def vllm_rms(x, w, eps=1e-6, keep=None, dim=-1):
    """vLLM's RMSNorm.forward_static: x.to(orig_dtype) * weight."""
    orig = x.dtype
    x = x.to(torch.float32)
    if keep is not None:
        keep.append(x)
    var = x.pow(2).mean(dim=dim, keepdim=True)
    x = x * torch.rsqrt(var + eps)
    return x.to(orig) * w


def npu_rms(x, w, eps=1e-6, eps_arg="kw"):
    if eps_arg == "kw":
        return torch.ops.npu.npu_rms_norm(x, w, epsilon=eps)[0]
    if eps_arg == "pos":
        return torch.ops.npu.npu_rms_norm(x, w, eps)[0]
    return torch.ops.npu.npu_rms_norm(x, w)[0]


def t5_rms(h, w, eps=1e-6):
    return models.t5_rmsnorm(h, w, eps)


def gemma_rms(x, w, eps=1e-6, plus_one=True):
    def _norm(v):
        return v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + eps)
    out = _norm(x.float())
    out = out * ((1.0 + w.float()) if plus_one else w.float())
    return out.type_as(x)


def manual_ln(x, w, b, eps=1e-5, form="centered", dim=-1):
    mean = x.mean(dim, keepdim=True)
    if form == "centered":
        c = x - mean
        var = (c * c).mean(dim, keepdim=True)
    elif form == "pow":
        var = (x - mean).pow(2).mean(dim, keepdim=True)
    else:  # "var"
        var = x.var(dim, keepdim=True, unbiased=False)
    if form == "sqrt":
        return (x - mean) / torch.sqrt(var + eps) * w + b
    return (x - mean) * torch.rsqrt(var + eps) * w + b


def _attention(n, wqkv, wo, heads):
    B, S, H = n.shape
    q, k, v = (n @ wqkv).split(H, dim=-1)
    q, k, v = (t.reshape(B, S, heads, H // heads).transpose(1, 2) for t in (q, k, v))
    a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // heads), dim=-1) @ v
    return a.transpose(1, 2).reshape(B, S, H) @ wo


def _mlp(n, wgu, wd):
    g, u = (n @ wgu).chunk(2, dim=-1)
    return (F.silu(g) * u) @ wd


# --------------------------------------------------------------------------------------------------------------
# graphs


def _decoder(symbolic=False, dtype="f16", shape=(1, 4, 32), layers=1, eps=1e-6, style="vllm", heads=2,
             outside=False, mean_dim=-1, final=True, double_first=False):
    """A LLaMA/Qwen decoder (vLLM's residual form: residual = h + residual; normed = norm(residual))."""
    shape = tuple(shape)
    H = shape[-1]
    norm = {"vllm": vllm_rms, "hf": hf_rms}[style]

    def f(x, res, *ws):
        keep = [] if outside else None
        residual, h = res, x
        for i in range(layers):
            w1, wqkv, wo, w2, wgu, wd = ws[6 * i:6 * i + 6]
            residual = (h + h) if (double_first and i == 0) else h + residual
            h = _attention(norm(residual, w1, eps, keep, mean_dim), wqkv, wo, heads)
            residual = h + residual
            h = _mlp(norm(residual, w2, eps, keep), wgu, wd)
        residual = h + residual
        out = [norm(residual, ws[-1], eps), residual] if final else [h, residual]
        if outside:
            out.append(keep[0].sum(-1))
        return tuple(out)
    ws = []
    for _ in range(layers):
        ws += [_t((H,), dtype), _t((H, 3 * H), dtype) * 0.1, _t((H, H), dtype) * 0.1, _t((H,), dtype),
               _t((H, 4 * H), dtype) * 0.1, _t((2 * H, H), dtype) * 0.1]
    ws.append(_t((H,), dtype))
    return _trace(f, (_t(shape, dtype), _t(shape, dtype), *ws), symbolic)


def _npu_decoder(symbolic=False, dtype="f16", shape=(1, 4, 64), layers=2, eps=1e-6, eps_arg="kw", bias_add=False):
    """vLLM-Ascend's model graphs: the residual add then torch.ops.npu.npu_rms_norm (what RMSNorm.forward_oot calls)."""
    shape = tuple(shape)
    H = shape[-1]

    def f(x, res, b, *ws):
        residual, h = res, x
        for i in range(layers):
            w1, wa, w2, wm = ws[4 * i:4 * i + 4]
            residual = (h + b) if (bias_add and i == 0) else h + residual
            h = npu_rms(residual, w1, eps, eps_arg) @ wa
            residual = h + residual
            h = F.silu(npu_rms(residual, w2, eps, eps_arg) @ wm)
        return h, residual
    ws = []
    for _ in range(layers):
        ws += [_t((H,), dtype), _t((H, H), dtype) * 0.1, _t((H,), dtype), _t((H, H), dtype) * 0.1]
    return _trace(f, (_t(shape, dtype), _t(shape, dtype), _t((H,), dtype), *ws), symbolic)


def _t5_encoder(symbolic=False, dtype="f16", shape=(1, 4, 32), layers=1, eps=1e-6, wdtype=None):
    """HF T5Stack encoder: pre-norm T5LayerNorm (no mean, no bias), unscaled attention, ReLU FF, final norm."""
    shape = tuple(shape)
    H = shape[-1]
    wd = wdtype or dtype

    def f(x, *ws):
        h = x
        for i in range(layers):
            ln1, wqkv, wo, ln2, wi, wo2 = ws[6 * i:6 * i + 6]
            n = t5_rms(h, ln1, eps)
            q, k, v = (n @ wqkv).split(H, dim=-1)
            scores = torch.softmax((q @ k.transpose(-1, -2)).float(), dim=-1).type_as(q)
            h = h + (scores @ v) @ wo
            n = t5_rms(h, ln2, eps)
            h = h + F.relu(n @ wi) @ wo2
        return t5_rms(h, ws[-1], eps)
    ws = []
    for _ in range(layers):
        ws += [_t((H,), wd), _t((H, 3 * H), dtype) * 0.1, _t((H, H), dtype) * 0.1, _t((H,), wd),
               _t((H, 2 * H), dtype) * 0.1, _t((2 * H, H), dtype) * 0.1]
    ws.append(_t((H,), wd))
    return _trace(f, (_t(shape, dtype), *ws), symbolic)


def _gemma(symbolic=False, dtype="bf16", shape=(1, 4, 64), layers=1, eps=1e-6, plus_one=True):
    """Gemma decoder: embeddings scaled by sqrt(hidden), GemmaRMSNorm (1 + weight), GeGLU (tanh gelu) MLP."""
    shape = tuple(shape)
    H = shape[-1]

    def f(emb, *ws):
        h = emb * math.sqrt(H)
        for i in range(layers):
            w1, wqkv, wo, w2, wgu, wd = ws[6 * i:6 * i + 6]
            h = h + _attention(gemma_rms(h, w1, eps, plus_one), wqkv, wo, 2)
            g, u = (gemma_rms(h, w2, eps, plus_one) @ wgu).chunk(2, dim=-1)
            h = h + (F.gelu(g, approximate="tanh") * u) @ wd
        return gemma_rms(h, ws[-1], eps, plus_one)
    ws = []
    for _ in range(layers):
        ws += [_t((H,), dtype) * 0.1, _t((H, 3 * H), dtype) * 0.1, _t((H, H), dtype) * 0.1, _t((H,), dtype) * 0.1,
               _t((H, 4 * H), dtype) * 0.1, _t((2 * H, H), dtype) * 0.1]
    ws.append(_t((H,), dtype) * 0.1)
    return _trace(f, (_t(shape, dtype), *ws), symbolic)


def _qwen3_attention(symbolic=False, dtype="bf16", shape=(1, 4, 64), heads=4, head_dim=16, eps=1e-6, qk="head"):
    """Qwen3Attention: q/k projections viewed as heads, per-head RMSNorm, transpose; qk='full' is OLMo2's norm over
    the whole projection before the view, qk='none' Qwen2's attention without it."""
    shape = tuple(shape)
    H = shape[-1]
    nw = heads * head_dim if qk == "full" else head_dim

    def f(x, wq, wk, wv, wo, qn, kn):
        B, S = x.shape[0], x.shape[1]
        q, k, v = x @ wq, x @ wk, x @ wv
        if qk == "head":
            q = hf_rms(q.view(B, S, -1, head_dim), qn, eps).transpose(1, 2)
            k = hf_rms(k.view(B, S, -1, head_dim), kn, eps).transpose(1, 2)
        else:
            if qk == "full":
                q, k = hf_rms(q, qn, eps), hf_rms(k, kn, eps)
            q = q.view(B, S, -1, head_dim).transpose(1, 2)
            k = k.view(B, S, -1, head_dim).transpose(1, 2)
        v = v.view(B, S, -1, head_dim).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) * (1.0 / math.sqrt(head_dim)), dim=-1) @ v
        return a.transpose(1, 2).reshape(B, S, -1) @ wo
    hd_all = heads * head_dim
    args = (_t(shape, dtype), _t((H, hd_all), dtype) * 0.1, _t((H, hd_all), dtype) * 0.1,
            _t((H, hd_all), dtype) * 0.1, _t((hd_all, H), dtype) * 0.1, _t((nw,), dtype), _t((nw,), dtype))
    return _trace(f, args, symbolic)


def _bert(symbolic=False, dtype="f32", shape=(1, 4, 32), layers=1, eps=1e-12, norm="post", heads=2, final=True):
    """HF BertLayer (post-norm: LayerNorm(dropout(dense(x)) + input)); norm='pre' is ViT's pre-norm block."""
    shape = tuple(shape)
    H = shape[-1]

    def ln(x, w, b):
        return F.layer_norm(x, (H,), w, b, eps)

    def attn(h, wqkv, bqkv, wo, bo):
        B, S, _ = h.shape
        q, k, v = F.linear(h, wqkv, bqkv).split(H, dim=-1)
        q, k, v = (t.view(B, S, heads, H // heads).transpose(1, 2) for t in (q, k, v))
        ctx = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // heads), dim=-1) @ v
        return F.dropout(F.linear(ctx.transpose(1, 2).reshape(B, S, H), wo, bo), p=0.1, training=False)

    def f(x, *ws):
        h = x
        for i in range(layers):
            wqkv, bqkv, wo, bo, l1w, l1b, wi, bi, wo2, bo2, l2w, l2b = ws[12 * i:12 * i + 12]
            if norm == "post":
                h1 = ln(attn(h, wqkv, bqkv, wo, bo) + h, l1w, l1b)
                i1 = F.gelu(F.linear(h1, wi, bi))
                h = ln(F.dropout(F.linear(i1, wo2, bo2), p=0.1, training=False) + h1, l2w, l2b)
            else:
                h = h + attn(ln(h, l1w, l1b), wqkv, bqkv, wo, bo)
                h = h + F.linear(F.gelu(F.linear(ln(h, l2w, l2b), wi, bi)), wo2, bo2)
        if norm == "pre" and final:
            return ln(h, ws[-2], ws[-1])
        return h
    ws = []
    for _ in range(layers):
        ws += [_t((3 * H, H), dtype) * 0.1, _t((3 * H,), dtype), _t((H, H), dtype) * 0.1, _t((H,), dtype),
               _t((H,), dtype), _t((H,), dtype), _t((2 * H, H), dtype) * 0.1, _t((2 * H,), dtype),
               _t((H, 2 * H), dtype) * 0.1, _t((H,), dtype), _t((H,), dtype), _t((H,), dtype)]
    if norm == "pre":
        ws += [_t((H,), dtype), _t((H,), dtype)]
    return _trace(f, (_t(shape, dtype), *ws), symbolic)


def _bert_embeddings(symbolic=False, dtype="f32", batch=2, seq=8, hidden=32, vocab=50, eps=1e-12):
    """HF BertEmbeddings: word + token-type embeddings, plus position embeddings, LayerNorm, dropout."""
    def f(ids, types, word, pos, tok, w, b):
        e = F.embedding(ids, word) + F.embedding(types, tok)
        e = e + pos[: ids.shape[1]]
        return F.dropout(F.layer_norm(e, (hidden,), w, b, eps), p=0.1, training=False)
    args = (torch.randint(0, vocab, (batch, seq)), torch.randint(0, 2, (batch, seq)), _t((vocab, hidden), dtype),
            _t((seq, hidden), dtype), _t((2, hidden), dtype), _t((hidden,), dtype), _t((hidden,), dtype))
    return _trace(f, args, symbolic)


def _gpt_manual_ln(symbolic=False, dtype="f32", shape=(1, 4, 32), layers=1, eps=1e-5, form="centered", heads=2):
    """A minGPT-style pre-norm block with LayerNorm written from scratch (as in many research repos)."""
    shape = tuple(shape)
    H = shape[-1]

    def f(x, *ws):
        h = x
        for i in range(layers):
            l1w, l1b, wqkv, wo, l2w, l2b, wfc, wproj = ws[8 * i:8 * i + 8]
            h = h + _attention(manual_ln(h, l1w, l1b, eps, form), wqkv, wo, heads)
            h = h + F.gelu(manual_ln(h, l2w, l2b, eps, form) @ wfc) @ wproj
        return manual_ln(h, ws[-2], ws[-1], eps, form)
    ws = []
    for _ in range(layers):
        ws += [_t((H,), dtype), _t((H,), dtype), _t((H, 3 * H), dtype) * 0.1, _t((H, H), dtype) * 0.1,
               _t((H,), dtype), _t((H,), dtype), _t((H, 4 * H), dtype) * 0.1, _t((4 * H, H), dtype) * 0.1]
    ws += [_t((H,), dtype), _t((H,), dtype)]
    return _trace(f, (_t(shape, dtype), *ws), symbolic)


def _convnext_block(symbolic=False, dtype="f32", channels=16, hw=4, eps=1e-6, form="centered"):
    """ConvNeXt's channels_first LayerNorm (mean over dim 1, weight[:, None, None]) around a depthwise conv."""
    def f(x, wdw, bdw, w, b, w1, w2):
        h = F.conv2d(x, wdw, bdw, padding=1, groups=channels)
        h = manual_ln(h, w[:, None, None], b[:, None, None], eps, form, dim=1)
        h = h.permute(0, 2, 3, 1)
        h = F.gelu(h @ w1) @ w2
        return x + h.permute(0, 3, 1, 2)
    args = (_t((1, channels, hw, hw), dtype), _t((channels, 1, 3, 3), dtype) * 0.3, _t((channels,), dtype),
            _t((channels,), dtype), _t((channels,), dtype), _t((channels, 2 * channels), dtype) * 0.1,
            _t((2 * channels, channels), dtype) * 0.1)
    return _trace(f, args, symbolic)


def _clip_head(symbolic=False, dtype="f32", batch=4, width=32, embed=64, form="clip", dim=-1, tokens=0):
    """CLIP's projection heads: image/text features projected, L2-normalized, cosine logits (form='normalize' is
    sentence-transformers' F.normalize; tokens>0 normalizes per token, [batch, tokens, embed])."""
    def norm(e):
        if form == "normalize":
            return F.normalize(e, p=2.0, dim=dim)
        if form == "clip":
            return e / e.norm(p=2, dim=dim, keepdim=True)
        return e / e.norm(p=2, dim=dim, keepdim=True).clamp_min(1e-6)  # "clamp": a different epsilon form

    def f(img, txt, wi, wt):
        ie, te = norm(img @ wi), norm(txt @ wt)
        if tokens:
            return (ie * te).sum(-1) * 14.285714285714286
        return (ie @ te.t()) * 14.285714285714286
    lead = (batch, tokens) if tokens else (batch,)
    args = (_t(lead + (width,), dtype), _t(lead + (width,), dtype), _t((width, embed), dtype) * 0.2,
            _t((width, embed), dtype) * 0.2)
    return _trace(f, args, symbolic)


def _xtransformer(symbolic=False, dtype="f32", shape=(1, 4, 32), layers=1, scale="sqrt", g="1d"):
    """x-transformers' pre-norm blocks with lucidrains' RMSNorm: F.normalize(x, dim=-1) * dim ** 0.5 * g."""
    shape = tuple(shape)
    H = shape[-1]
    s = {"sqrt": math.sqrt(H), "pow": H ** 0.5, "inv": H ** -0.5}[scale]
    gshape = (H,) if g == "1d" else (1, 1, H)

    def norm(x, gw):
        return F.normalize(x, dim=-1) * s * gw

    def f(x, *ws):
        h = x
        for i in range(layers):
            g1, wqkv, wo, g2, w1, w2 = ws[6 * i:6 * i + 6]
            h = h + _attention(norm(h, g1), wqkv, wo, 2)
            h = h + F.gelu(norm(h, g2) @ w1) @ w2
        return norm(h, ws[-1])
    ws = []
    for _ in range(layers):
        ws += [_t(gshape, dtype), _t((H, 3 * H), dtype) * 0.1, _t((H, H), dtype) * 0.1, _t(gshape, dtype),
               _t((H, 2 * H), dtype) * 0.1, _t((2 * H, H), dtype) * 0.1]
    ws.append(_t(gshape, dtype))
    return _trace(f, (_t(shape, dtype), *ws), symbolic)


def _unet_resblock(symbolic=False, dtype="f32", channels=16, hw=4, groups=4, eps=1e-6, act="silu", ndim=4):
    """diffusers' ResnetBlock2D: GroupNorm -> SiLU -> conv, twice, plus the skip (ndim=3: a 1-D UNet's block)."""
    conv = F.conv2d if ndim == 4 else F.conv1d
    ks = (3, 3) if ndim == 4 else (3,)
    nl = {"silu": F.silu, "gelu": F.gelu, "mish": F.mish}[act]

    def f(x, g1, b1, w1, c1, g2, b2, w2, c2):
        h = conv(nl(F.group_norm(x, groups, g1, b1, eps)), w1, c1, padding=1)
        h = conv(nl(F.group_norm(h, groups, g2, b2, eps)), w2, c2, padding=1)
        return x + h
    sp = (hw, hw) if ndim == 4 else (hw,)
    args = (_t((1, channels) + sp, dtype), _t((channels,), dtype), _t((channels,), dtype),
            _t((channels, channels) + ks, dtype) * 0.1, _t((channels,), dtype), _t((channels,), dtype),
            _t((channels,), dtype), _t((channels, channels) + ks, dtype) * 0.1, _t((channels,), dtype))
    return _trace(f, args, symbolic)


# torch.compile captures (the inference graph aot_autograd hands a backend, as models._compiled takes it)

class _VllmRMSNorm(torch.nn.Module):
    def __init__(self, n, dtype, eps=1e-6):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n).to(dtype))
        self.eps = eps

    def forward(self, x, residual=None):
        if residual is not None:
            residual = x + residual
            x = residual
        y = vllm_rms(x, self.weight, self.eps)
        return y if residual is None else (y, residual)


class _VllmDecoderLite(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.input_layernorm = _VllmRMSNorm(n, dtype)
        self.post_attention_layernorm = _VllmRMSNorm(n, dtype)
        self.o_proj = torch.nn.Linear(n, n, bias=False, dtype=dtype)
        self.down_proj = torch.nn.Linear(n, n, bias=False, dtype=dtype)

    def forward(self, x, residual):
        h, residual = self.input_layernorm(x, residual)
        h = self.o_proj(h)
        h, residual = self.post_attention_layernorm(h, residual)
        return self.down_proj(F.silu(h)), residual


class _BertOutput(torch.nn.Module):
    def __init__(self, n, dtype, eps=1e-12):
        super().__init__()
        self.dense = torch.nn.Linear(2 * n, n, dtype=dtype)
        self.dropout = torch.nn.Dropout(0.1)
        self.LayerNorm = torch.nn.LayerNorm(n, eps=eps, dtype=dtype)

    def forward(self, intermediate, input_tensor):
        return self.LayerNorm(self.dropout(self.dense(intermediate)) + input_tensor)


class _T5LayerFF(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n).to(dtype))
        self.wi = torch.nn.Linear(n, 2 * n, bias=False, dtype=dtype)
        self.wo = torch.nn.Linear(2 * n, n, bias=False, dtype=dtype)

    def forward(self, x):
        return x + self.wo(F.relu(self.wi(t5_rms(x, self.weight))))


class _GemmaNorm(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(n).to(dtype))

    def forward(self, x):
        return gemma_rms(x, self.weight)


class _Qwen3QNorm(torch.nn.Module):
    def __init__(self, n, dtype, head_dim=16):
        super().__init__()
        self.head_dim = head_dim
        self.q_proj = torch.nn.Linear(n, n, bias=False, dtype=dtype)
        self.q_norm = _VllmRMSNorm(head_dim, dtype)
        self.q_norm_weight = torch.nn.Parameter(torch.randn(head_dim).to(dtype))

    def forward(self, x):
        shape = (*x.shape[:-1], -1, self.head_dim)
        return hf_rms(self.q_proj(x).view(shape), self.q_norm_weight).transpose(1, 2)


def _compiled(symbolic=False, what="vllm_decoder", dtype="f16", hidden=32, shape=None, dynamic=False):
    dt = models.DT[dtype]
    shape = tuple(shape or (2, 4, hidden))
    if what == "vllm_decoder":
        model, args = _VllmDecoderLite(hidden, dt), (_t(shape, dtype), _t(shape, dtype))
    elif what == "bert_output":
        model, args = _BertOutput(hidden, dt), (_t(shape[:-1] + (2 * hidden,), dtype), _t(shape, dtype))
    elif what == "t5_ff":
        model, args = _T5LayerFF(hidden, dt), (_t(shape, dtype),)
    elif what == "gemma_norm":
        model, args = _GemmaNorm(hidden, dt), (_t(shape, dtype),)
    elif what == "qwen3_q_norm":
        model, args = _Qwen3QNorm(hidden, dt), (_t(shape, dtype),)
    else:
        raise KeyError(what)
    model.eval()
    return models.capture(model, args, dynamic)


GRAPHS = {
    "norms_decoder": _decoder,
    "norms_npu_decoder": _npu_decoder,
    "norms_t5_encoder": _t5_encoder,
    "norms_gemma": _gemma,
    "norms_qwen3_attention": _qwen3_attention,
    "norms_bert": _bert,
    "norms_bert_embeddings": _bert_embeddings,
    "norms_gpt_manual_ln": _gpt_manual_ln,
    "norms_convnext_block": _convnext_block,
    "norms_clip_head": _clip_head,
    "norms_xtransformer": _xtransformer,
    "norms_unet_resblock": _unet_resblock,
    "norms_compiled": _compiled,
}


# --------------------------------------------------------------------------------------------------------------
# cases


def _vllm_cases():
    g = "norms_decoder"
    return [
        _c("norms.vllm_decoder_f16", "vLLM RMSNorm pattern on a vLLM-style f16 decoder layer: all 3 norms replaced",
           g, {"dtype": "f16"}, [F_VLLM]),
        _c("norms.vllm_decoder_bf16_2layers", "two bf16 layers: 5 norms, the bf16 registration after the f16 one",
           g, {"dtype": "bf16", "layers": 2}, [F_VLLM]),
        _c("norms.vllm_eps_1e5", "eps 1e-5 in the model: the 1e-5 registration fires after the 1e-6 retrace fails",
           g, {"dtype": "f16", "eps": 1e-5}, [F_VLLM]),
        _c("norms.vllm_eps_1e7", "eps 1e-7: no registration has that literal, every retrace differs",
           g, {"dtype": "f16", "eps": 1e-7}, [F_VLLM]),
        _c("norms.vllm_f32_no_casts", "f32 decoder: the upcast traces to nothing, the f16/bf16 patterns do not fit",
           g, {"dtype": "f32"}, [F_VLLM]),
        _c("norms.vllm_hf_operand_order", "HF LLaMA order (weight * x): the vLLM pattern (x * weight) does not match",
           g, {"dtype": "f16", "style": "hf"}, [F_VLLM]),
        _c("norms.vllm_outside_user", "the first norm's f32 upcast also feeds an output: that norm stays",
           g, {"dtype": "bf16", "outside": True}, [F_VLLM]),
        _c("norms.vllm_mean_over_seq", "input norms reduce over dim -2: rejected at the retrace, post norms fire",
           g, {"dtype": "f16", "mean_dim": -2}, [F_VLLM]),
        _c("norms.vllm_hidden_24", "hidden 24 (not a multiple of 16): the kernel check rejects every norm",
           g, {"dtype": "f16", "shape": [1, 4, 24]}, [F_VLLM]),
        _c("norms.vllm_hidden_48_3heads", "hidden 48, batch 2: replaced", g,
           {"dtype": "bf16", "shape": [2, 3, 48], "heads": 3}, [F_VLLM]),
        _c("norms.vllm_symbolic", "dynamic batch/seq/hidden (make_fx symbolic): the retrace binds symbols",
           g, {"dtype": "f16", "symbolic": True}, [F_VLLM]),
        _c("norms.vllm_readable", "the same decoder read from print_readable code", g, {"dtype": "bf16"}, [F_VLLM],
           form="readable"),
        _c("norms.vllm_compiled", "torch.compile capture of a vLLM decoder-lite module (RMSNorm with residual)",
           "norms_compiled", {"what": "vllm_decoder", "dtype": "f16"}, [F_VLLM]),
        _c("norms.vllm_compiled_dynamic", "dynamic=True capture: eps is an unspecialized float input, not the pattern's literal: "
           "nothing replaced", "norms_compiled", {"what": "vllm_decoder", "dtype": "bf16", "dynamic": True}, [F_VLLM]),
        _c("norms.vllm_compiled_readable", "the compiled capture read as print_readable code", "norms_compiled",
           {"what": "vllm_decoder", "dtype": "f16"}, [F_VLLM], form="readable"),
    ]


def _add_cases():
    g = "norms_decoder"
    return [
        _c("norms.add_decoder_f16", "fused_add_rms_norm on every residual add + norm of an f16 layer (3)",
           g, {"dtype": "f16"}, [F_ADD]),
        _c("norms.add_decoder_bf16_2layers", "two bf16 layers: 5 multi-output replacements", g,
           {"dtype": "bf16", "layers": 2}, [F_ADD]),
        _c("norms.add_eps_1e5", "eps 1e-5: the partial-built 1e-5 family member fires", g,
           {"dtype": "f16", "eps": 1e-5}, [F_ADD]),
        _c("norms.add_eps_1e4", "eps 1e-4: no member of the family fits", g, {"dtype": "bf16", "eps": 1e-4}, [F_ADD]),
        _c("norms.add_f32", "f32 decoder: no casts, the f16/bf16 search graphs do not match", g, {"dtype": "f32"},
           [F_ADD]),
        _c("norms.add_hf_order", "HF operand order: the vLLM-ordered pattern does not match", g,
           {"dtype": "f16", "style": "hf"}, [F_ADD]),
        _c("norms.add_x_plus_x", "first residual is h + h: exclusive_arg_names rejects it, the others fire", g,
           {"dtype": "f16", "double_first": True}, [F_ADD]),
        _c("norms.add_outside_user", "the first upcast has an outside user: only that add+norm stays", g,
           {"dtype": "f16", "outside": True}, [F_ADD]),
        _c("norms.add_hidden_24", "no kernel check in this file: hidden 24 is replaced", g,
           {"dtype": "bf16", "shape": [1, 4, 24]}, [F_ADD]),
        _c("norms.add_symbolic", "dynamic shapes: residual add + norm replaced with symbolic sizes", g,
           {"dtype": "f16", "symbolic": True}, [F_ADD]),
        _c("norms.add_readable", "two bf16 layers read from print_readable code", g, {"dtype": "bf16", "layers": 2},
           [F_ADD], form="readable"),
        _c("norms.add_compiled", "torch.compile capture of the vLLM decoder-lite module", "norms_compiled",
           {"what": "vllm_decoder", "dtype": "f16"}, [F_ADD]),
        _c("norms.add_compiled_dynamic", "dynamic=True capture, bf16: eps is a graph input, the retrace differs", "norms_compiled",
           {"what": "vllm_decoder", "dtype": "bf16", "dynamic": True}, [F_ADD]),
        _c("norms.add_then_rms", "fused_add_rms_norm registered before plain RMSNorm: which claims each norm", g,
           {"dtype": "f16"}, [F_ADD, F_VLLM]),
        _c("norms.rms_then_add", "plain RMSNorm registered first: same anchors, the other order", g,
           {"dtype": "f16"}, [F_VLLM, F_ADD]),
    ]


def _ascend_cases():
    g = "norms_npu_decoder"
    return [
        _c("norms.ascend_f16", "add + npu_rms_norm(epsilon=) -> npu_add_rms_norm on a 2-layer f16 graph (4)",
           g, {"dtype": "f16"}, [F_ASCEND]),
        _c("norms.ascend_bf16", "bf16 graph: fires (the search graph has no dtype)", g, {"dtype": "bf16"}, [F_ASCEND]),
        _c("norms.ascend_f32", "f32 one-layer graph: no dtype check, fires", g, {"dtype": "f32", "layers": 1}, [F_ASCEND]),
        _c("norms.ascend_eps_1e5", "epsilon 1e-5: the second instance's literal", g, {"dtype": "f16", "eps": 1e-5},
           [F_ASCEND]),
        _c("norms.ascend_eps_1e7", "epsilon 1e-7: no instance has it, the retrace differs", g,
           {"dtype": "f16", "eps": 1e-7}, [F_ASCEND]),
        _c("norms.ascend_eps_default", "npu_rms_norm called without epsilon: make_fx records the node epsilon=1e-6 gives",
           g, {"dtype": "f16", "eps_arg": "none"}, [F_ASCEND]),
        _c("norms.ascend_eps_positional", "epsilon passed positionally: the same node as the keyword form", g,
           {"dtype": "f16", "eps_arg": "pos"}, [F_ASCEND]),
        _c("norms.ascend_bias_add", "first add broadcasts a [H] bias: the shape check rejects it, others fire", g,
           {"dtype": "f16", "bias_add": True}, [F_ASCEND]),
        _c("norms.ascend_2d", "2-D tokens x hidden graph, as vLLM flattens batch and sequence", g,
           {"dtype": "bf16", "shape": [8, 64]}, [F_ASCEND]),
        _c("norms.ascend_3layers", "three layers, batch 2: six replacements", g,
           {"dtype": "f16", "shape": [2, 3, 128], "layers": 3}, [F_ASCEND]),
        _c("norms.ascend_symbolic", "dynamic shapes", g, {"dtype": "f16", "symbolic": True}, [F_ASCEND]),
        _c("norms.ascend_readable", "print_readable code of the npu graph", g, {"dtype": "bf16"}, [F_ASCEND],
           form="readable"),
        _c("norms.ascend_with_decomposed", "the decomposed-norm family on an npu graph finds nothing; Ascend fires",
           g, {"dtype": "f16"}, [F_ADD, F_ASCEND]),
    ]


def _ln_cases():
    g = "norms_gpt_manual_ln"
    return [
        _c("norms.ln_gpt_f32", "hand-written LayerNorm in a minGPT block -> F.layer_norm (3 norms)", g,
           {"dtype": "f32"}, [F_LN]),
        _c("norms.ln_gpt_f16", "the f32 trace has no casts: f16 code written the same way matches", g,
           {"dtype": "f16"}, [F_LN]),
        _c("norms.ln_gpt_bf16_2layers", "two bf16 layers: 5 norms", g, {"dtype": "bf16", "layers": 2}, [F_LN]),
        _c("norms.ln_eps_1e6", "eps 1e-6: scalar_workaround binds the model's own epsilon", g,
           {"dtype": "f32", "eps": 1e-6}, [F_LN]),
        _c("norms.ln_form_pow", "variance as (x - mean).pow(2): pow instead of mul, generic rejection", g,
           {"dtype": "f32", "form": "pow"}, [F_LN]),
        _c("norms.ln_form_var", "variance via x.var(unbiased=False): another decomposition", g,
           {"dtype": "f32", "form": "var"}, [F_LN]),
        _c("norms.ln_form_sqrt", "ConvNeXt's (x - mean) / sqrt(var + eps): div/sqrt, no rsqrt", g,
           {"dtype": "f32", "form": "sqrt"}, [F_LN]),
        _c("norms.ln_wide", "batch 2, hidden 48", g, {"dtype": "f32", "shape": [2, 8, 48]}, [F_LN]),
        _c("norms.ln_symbolic", "dynamic shapes", g, {"dtype": "f32", "symbolic": True}, [F_LN]),
        _c("norms.ln_readable", "print_readable code, f16", g, {"dtype": "f16"}, [F_LN], form="readable"),
        _c("norms.ln_convnext_channels_first", "ConvNeXt channels_first LN (mean over dim 1): dims differ at the "
           "retrace", "norms_convnext_block", {"dtype": "f32"}, [F_LN]),
        _c("norms.ln_convnext_sqrt", "ConvNeXt's own sqrt form over dim 1", "norms_convnext_block",
           {"dtype": "f32", "form": "sqrt"}, [F_LN]),
        _c("norms.ln_on_bert", "F.layer_norm graphs (var_mean decomposition) are not the hand-written form",
           "norms_bert", {"dtype": "f32"}, [F_LN]),
    ]


def _bert_cases():
    g = "norms_bert"
    return [
        _c("norms.bert_post_f32", "BertSelfOutput/BertOutput LayerNorm(dropout(x) + input) -> add_layer_norm (2)",
           g, {"dtype": "f32"}, [F_BERT]),
        _c("norms.bert_post_f16", "f16: the f16 registration (upcast in the decomposition) fires", g,
           {"dtype": "f16"}, [F_BERT]),
        _c("norms.bert_post_bf16", "bf16: the f16 trace retraced with bf16 inputs fits", g, {"dtype": "bf16"},
           [F_BERT]),
        _c("norms.bert_deberta_eps", "DeBERTa's 1e-7: its registration fires", g, {"dtype": "f32", "eps": 1e-7},
           [F_BERT]),
        _c("norms.bert_eps_1e5", "eps 1e-5 (RoBERTa-like): no registration", g, {"dtype": "f32", "eps": 1e-5},
           [F_BERT]),
        _c("norms.bert_2layers", "two layers: 4 replacements", g, {"dtype": "f32", "layers": 2}, [F_BERT]),
        _c("norms.bert_hidden_36", "hidden 36 (not a multiple of 8): the check rejects", g,
           {"dtype": "f32", "shape": [1, 4, 36]}, [F_BERT]),
        _c("norms.bert_vit_prenorm", "ViT pre-norm: residual adds have outside users, only the final norm fires", g,
           {"dtype": "f32", "norm": "pre"}, [F_BERT]),
        _c("norms.bert_vit_prenorm_f16", "ViT pre-norm f16, two layers, no final norm: nothing replaced", g,
           {"dtype": "f16", "norm": "pre", "layers": 2, "final": False}, [F_BERT]),
        _c("norms.bert_symbolic", "dynamic shapes", g, {"dtype": "f32", "symbolic": True}, [F_BERT]),
        _c("norms.bert_readable", "print_readable code, f16", g, {"dtype": "f16"}, [F_BERT], form="readable"),
        _c("norms.bert_embeddings", "BertEmbeddings: the position table [S, H] broadcasts: the shape check rejects",
           "norms_bert_embeddings", {"dtype": "f32"}, [F_BERT]),
        _c("norms.bert_compiled_output", "torch.compile capture of BertOutput (nn.LayerNorm, eval dropout)",
           "norms_compiled", {"what": "bert_output", "dtype": "f32"}, [F_BERT]),
        _c("norms.bert_compiled_output_f16", "BertOutput f16 through torch.compile", "norms_compiled",
           {"what": "bert_output", "dtype": "f16"}, [F_BERT]),
        _c("norms.bert_with_manual_ln", "add_layer_norm and the hand-written LN together on BERT", g,
           {"dtype": "f32"}, [F_BERT, F_LN]),
    ]


def _t5_cases():
    g = "norms_t5_encoder"
    return [
        _c("norms.t5_encoder_f16", "TorchAir T5LayerNorm -> npu_rms_norm on an f16 T5 encoder layer (3)", g,
           {"dtype": "f16"}, [F_T5]),
        _c("norms.t5_encoder_bf16_2layers", "two bf16 layers (5)", g, {"dtype": "bf16", "layers": 2}, [F_T5]),
        _c("norms.t5_f32", "f32: no casts in the model, the half-precision patterns do not fit", g, {"dtype": "f32"},
           [F_T5]),
        _c("norms.t5_hidden_8", "hidden 8 in f16 is 16 bytes: the alignment check rejects", g,
           {"dtype": "f16", "shape": [1, 4, 8]}, [F_T5]),
        _c("norms.t5_f32_weight", "f16 activations with an f32 weight: no cast back, generic rejection", g,
           {"dtype": "f16", "wdtype": "f32"}, [F_T5]),
        _c("norms.t5_eps_1e5", "eps 1e-5: the scalar_workaround epsilon binds it", g, {"dtype": "f16", "eps": 1e-5},
           [F_T5]),
        _c("norms.t5_2d", "2-D [tokens, hidden] graph", g, {"dtype": "f16", "shape": [8, 64]}, [F_T5]),
        _c("norms.t5_hidden_48", "hidden 48 f16 (96 bytes): aligned, fires", g, {"dtype": "f16", "shape": [1, 4, 48]},
           [F_T5]),
        _c("norms.t5_symbolic", "dynamic shapes", g, {"dtype": "f16", "symbolic": True}, [F_T5]),
        _c("norms.t5_readable", "print_readable code, bf16", g, {"dtype": "bf16"}, [F_T5], form="readable"),
        _c("norms.t5_compiled_ff", "torch.compile capture of T5LayerFF, f16", "norms_compiled",
           {"what": "t5_ff", "dtype": "f16"}, [F_T5]),
        _c("norms.t5_compiled_ff_dynamic", "T5LayerFF bf16, dynamic=True: the epsilon is a scalar-tensor input the "
           "workaround binds, so Inductor's replacement raises (an error on both sides)", "norms_compiled",
           {"what": "t5_ff", "dtype": "bf16", "dynamic": True}, [F_T5]),
        _c("norms.t5_on_llama", "LLaMA's norm multiplies the upcast, T5's the input: no match", "norms_decoder",
           {"dtype": "f16", "style": "hf"}, [F_T5]),
    ]


def _gemma_cases():
    g = "norms_gemma"
    return [
        _c("norms.gemma_bf16", "GemmaRMSNorm (1 + weight) -> gemma_rms_norm on a bf16 Gemma layer (3)", g,
           {"dtype": "bf16"}, [F_GEMMA]),
        _c("norms.gemma_f16", "f16: the bf16 trace retraced with f16 inputs fits", g, {"dtype": "f16"}, [F_GEMMA]),
        _c("norms.gemma_f32", "f32: the f32 registration (no casts) fires", g, {"dtype": "f32"}, [F_GEMMA]),
        _c("norms.gemma_eps_1e5", "eps 1e-5: the second epsilon's registration", g, {"dtype": "bf16", "eps": 1e-5},
           [F_GEMMA]),
        _c("norms.gemma_eps_1e7", "eps 1e-7: no registration", g, {"dtype": "bf16", "eps": 1e-7}, [F_GEMMA]),
        _c("norms.gemma_plain_weight", "weight without the + 1: generic rejection", g,
           {"dtype": "bf16", "plus_one": False}, [F_GEMMA]),
        _c("norms.gemma_2layers", "two bf16 layers (5)", g, {"dtype": "bf16", "layers": 2}, [F_GEMMA]),
        _c("norms.gemma_symbolic", "dynamic shapes", g, {"dtype": "bf16", "symbolic": True}, [F_GEMMA]),
        _c("norms.gemma_readable", "print_readable code, f32", g, {"dtype": "f32"}, [F_GEMMA], form="readable"),
        _c("norms.gemma_compiled", "torch.compile capture of GemmaRMSNorm, bf16", "norms_compiled",
           {"what": "gemma_norm", "dtype": "bf16"}, [F_GEMMA]),
        _c("norms.gemma_compiled_dynamic", "GemmaRMSNorm f32, dynamic=True: eps is a graph input, no match",
           "norms_compiled",
           {"what": "gemma_norm", "dtype": "f32", "dynamic": True}, [F_GEMMA]),
        _c("norms.gemma_on_llama", "LLaMA's norms have no (1 + weight): nothing", "norms_decoder",
           {"dtype": "bf16", "style": "hf"}, [F_GEMMA]),
        _c("norms.gemma_with_core", "Gemma's pattern and the rms_scale core on one f32 graph: the outer wins", g,
           {"dtype": "f32"}, [F_GEMMA, F_CORE]),
    ]


def _qk_cases():
    g = "norms_qwen3_attention"
    return [
        _c("norms.qk_qwen3_bf16", "Qwen3 per-head q/k RMSNorm -> npu_rms_norm on the head view (2)", g,
           {"dtype": "bf16"}, [F_QK]),
        _c("norms.qk_head_dim_32", "head_dim 32: the second registration (the first's retrace cannot broadcast)", g,
           {"dtype": "f16", "heads": 2, "head_dim": 32}, [F_QK]),
        _c("norms.qk_f32", "f32: no casts, generic rejection", g, {"dtype": "f32"}, [F_QK]),
        _c("norms.qk_head_dim_64", "head_dim 64: no registration fits", g,
           {"dtype": "bf16", "shape": [1, 4, 128], "heads": 2, "head_dim": 64}, [F_QK]),
        _c("norms.qk_olmo2_full", "OLMo2 normalizes the whole projection before the view: no match", g,
           {"dtype": "bf16", "qk": "full"}, [F_QK]),
        _c("norms.qk_qwen2_none", "Qwen2 attention without qk-norm", g, {"dtype": "bf16", "qk": "none"}, [F_QK]),
        _c("norms.qk_eps_1e5", "eps 1e-5: the patterns' 1e-6 literal differs at the retrace", g,
           {"dtype": "bf16", "eps": 1e-5}, [F_QK]),
        _c("norms.qk_batch2", "batch 2, seq 6, f16", g, {"dtype": "f16", "shape": [2, 6, 64]}, [F_QK]),
        _c("norms.qk_readable", "print_readable code", g, {"dtype": "bf16"}, [F_QK], form="readable"),
        _c("norms.qk_compiled", "torch.compile capture of a Qwen3 q_proj + q_norm", "norms_compiled",
           {"what": "qwen3_q_norm", "dtype": "bf16"}, [F_QK]),
        _c("norms.qk_compiled_dynamic", "the same, f16, dynamic=True: eps is a graph input, no match", "norms_compiled",
           {"what": "qwen3_q_norm", "dtype": "f16", "dynamic": True}, [F_QK]),
        _c("norms.qk_with_core", "qk-norm and the rms_scale core: the transpose anchor is visited first", g,
           {"dtype": "bf16"}, [F_QK, F_CORE]),
    ]


def _l2_cases():
    g = "norms_clip_head"
    return [
        _c("norms.l2_clip_f32", "CLIP x / x.norm(dim=-1) on image and text embeddings (2)", g, {"dtype": "f32"},
           [F_L2]),
        _c("norms.l2_normalize_f32", "F.normalize(p=2, dim=-1) embeddings (2)", g,
           {"dtype": "f32", "form": "normalize"}, [F_L2]),
        _c("norms.l2_clip_f16", "CLIP heads in f16", g, {"dtype": "f16"}, [F_L2]),
        _c("norms.l2_normalize_bf16", "F.normalize in bf16", g, {"dtype": "bf16", "form": "normalize"}, [F_L2]),
        _c("norms.l2_embed_16", "16-wide embeddings: the width check rejects", g, {"dtype": "f32", "embed": 16},
           [F_L2]),
        _c("norms.l2_clamp_form", "x / x.norm().clamp_min(1e-6): neither variant", g, {"dtype": "f32", "form": "clamp"},
           [F_L2]),
        _c("norms.l2_dim1_2d", "F.normalize(dim=1) on 2-D: the same values, a different dim literal", g,
           {"dtype": "f32", "form": "normalize", "dim": 1}, [F_L2]),
        _c("norms.l2_tokens", "per-token normalization of [B, T, E] embeddings", g,
           {"dtype": "f32", "form": "normalize", "tokens": 3}, [F_L2]),
        _c("norms.l2_tokens_dim1", "normalized over the token dim of a 3-D tensor: no match", g,
           {"dtype": "f32", "form": "clip", "tokens": 3, "dim": 1}, [F_L2]),
        _c("norms.l2_symbolic", "dynamic shapes", g, {"dtype": "f32", "symbolic": True}, [F_L2]),
        _c("norms.l2_readable", "print_readable code", g, {"dtype": "f32", "form": "normalize"}, [F_L2],
           form="readable"),
        _c("norms.l2_on_xtransformer", "F.normalize inside lucidrains' RMSNorm: the L2 part fires", "norms_xtransformer",
           {"dtype": "f32"}, [F_L2]),
        _c("norms.l2_after_scaled", "scaled RMSNorm registered first: it claims the norms before the L2 part",
           "norms_xtransformer", {"dtype": "f32"}, [F_XT, F_L2]),
    ]


def _xt_cases():
    g = "norms_xtransformer"
    return [
        _c("norms.xt_f32", "F.normalize * math.sqrt(32) * g -> one rsqrt reduction (3)", g, {"dtype": "f32"}, [F_XT]),
        _c("norms.xt_width_64_2layers", "width 64, two layers: the 64 registration (5)", g,
           {"dtype": "f32", "shape": [1, 4, 64], "layers": 2}, [F_XT]),
        _c("norms.xt_f16", "f16", g, {"dtype": "f16"}, [F_XT]),
        _c("norms.xt_bf16", "bf16, batch 2", g, {"dtype": "bf16", "shape": [2, 3, 64]}, [F_XT]),
        _c("norms.xt_scale_pow", "dim ** 0.5 is the same float as math.sqrt(dim): fires", g,
           {"dtype": "f32", "scale": "pow"}, [F_XT]),
        _c("norms.xt_scale_inverse", "dim ** -0.5: a different constant, the retrace differs", g,
           {"dtype": "f32", "scale": "inv"}, [F_XT]),
        _c("norms.xt_width_48", "width 48: no registration for that scale", g, {"dtype": "f32", "shape": [1, 4, 48]},
           [F_XT]),
        _c("norms.xt_g_3d", "g stored as [1, 1, dim]: the retrace with its shape still fits", g,
           {"dtype": "f32", "g": "3d"}, [F_XT]),
        _c("norms.xt_symbolic", "dynamic shapes: F.normalize's symbolic expand fails the retrace", g, {"dtype": "f32", "symbolic": True}, [F_XT]),
        _c("norms.xt_readable", "print_readable code", g, {"dtype": "f16"}, [F_XT], form="readable"),
        _c("norms.xt_on_clip", "plain F.normalize embeddings have no scale * g: nothing", "norms_clip_head",
           {"dtype": "f32", "form": "normalize"}, [F_XT]),
        _c("norms.xt_on_clip_readable", "the same, from print_readable code", "norms_clip_head",
           {"dtype": "f32", "form": "normalize"}, [F_XT], form="readable"),
    ]


def _gn_cases():
    g = "norms_unet_resblock"
    return [
        _c("norms.gn_unet_f32", "diffusers ResnetBlock2D GroupNorm + SiLU -> group_norm_silu (2)", g, {"dtype": "f32"},
           [F_GN]),
        _c("norms.gn_unet_f16", "f16: the f16 registration (upcast decomposition)", g, {"dtype": "f16"}, [F_GN]),
        _c("norms.gn_unet_bf16", "bf16: the f16 trace retraced with bf16 inputs", g, {"dtype": "bf16"}, [F_GN]),
        _c("norms.gn_groups_8", "8 groups: the 4-group retrace differs, the 8-group registration fires", g,
           {"dtype": "f32", "groups": 8}, [F_GN]),
        _c("norms.gn_groups_2", "2 groups: no registration", g, {"dtype": "f32", "groups": 2}, [F_GN]),
        _c("norms.gn_gelu", "GroupNorm + GELU: not SiLU", g, {"dtype": "f32", "act": "gelu"}, [F_GN]),
        _c("norms.gn_mish", "GroupNorm + Mish: not SiLU", g, {"dtype": "f16", "act": "mish"}, [F_GN]),
        _c("norms.gn_eps_1e5", "torch's default eps 1e-5: the patterns' 1e-6 literal differs", g,
           {"dtype": "f32", "eps": 1e-5}, [F_GN]),
        _c("norms.gn_1d_unet", "a 1-D UNet block ([N, C, L]): group_norm decomposes otherwise, no match", g, {"dtype": "f32", "ndim": 3}, [F_GN]),
        _c("norms.gn_channels_32", "32 channels, 8 groups, 8x8", g,
           {"dtype": "f32", "channels": 32, "groups": 8, "hw": 8}, [F_GN]),
        _c("norms.gn_symbolic", "dynamic shapes: the symbolic group views fail Inductor's retrace", g, {"dtype": "f32", "symbolic": True}, [F_GN]),
        _c("norms.gn_readable", "print_readable code", g, {"dtype": "f32"}, [F_GN], form="readable"),
    ]


def _core_cases():
    return [
        _c("norms.core_decoder_f16", "hand-built search_fn_pattern on the f32 core of vLLM-order norms (3)",
           "norms_decoder", {"dtype": "f16"}, [F_CORE]),
        _c("norms.core_decoder_hf_bf16", "the core is operand-order free: HF-order bf16 norms fire too",
           "norms_decoder", {"dtype": "bf16", "style": "hf", "layers": 2}, [F_CORE]),
        _c("norms.core_t5_f32", "T5 f32 (the .to(f32) vanished): the core fires", "norms_t5_encoder",
           {"dtype": "f32"}, [F_CORE]),
        _c("norms.core_t5_f16", "T5 f16 multiplies the f16 input by the f32 rsqrt: x binds two nodes, no match",
           "norms_t5_encoder", {"dtype": "f16"}, [F_CORE]),
        _c("norms.core_eps_1e5", "eps 1e-5: the pattern ignores it, the extra_check rejects", "norms_decoder",
           {"dtype": "f16", "eps": 1e-5}, [F_CORE]),
        _c("norms.core_mean_over_seq", "mean over dim -2: the extra_check reads the dim and rejects",
           "norms_decoder", {"dtype": "f16", "mean_dim": -2}, [F_CORE]),
        _c("norms.core_gemma", "Gemma's norms share the core", "norms_gemma", {"dtype": "bf16"}, [F_CORE]),
        _c("norms.core_outside_user", "an outside user of the upcast (a KeywordArg input) does not block it",
           "norms_decoder", {"dtype": "f16", "outside": True}, [F_CORE]),
        _c("norms.core_symbolic", "dynamic shapes", "norms_decoder", {"dtype": "f16", "symbolic": True}, [F_CORE]),
        _c("norms.core_readable", "print_readable code", "norms_decoder", {"dtype": "bf16"}, [F_CORE],
           form="readable"),
        _c("norms.core_compiled", "torch.compile capture of the vLLM decoder-lite module", "norms_compiled",
           {"what": "vllm_decoder", "dtype": "f16"}, [F_CORE]),
        _c("norms.core_xtransformer", "F.normalize-based norms have no pow/mean: nothing", "norms_xtransformer",
           {"dtype": "f32"}, [F_CORE]),
        _c("norms.core_before_vllm", "the core registered before the full RMSNorm: the outer anchor still first",
           "norms_decoder", {"dtype": "f16"}, [F_CORE, F_VLLM]),
    ]


def cases():
    return (_vllm_cases() + _add_cases() + _ascend_cases() + _ln_cases() + _bert_cases() + _t5_cases()
            + _gemma_cases() + _qk_cases() + _l2_cases() + _xt_cases() + _gn_cases() + _core_cases())
