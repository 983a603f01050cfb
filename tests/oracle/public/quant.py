"""The quant suite (issue 22): quantization fusions written as public pass code is (vLLM's fusion.py,
activation_quant_fusion.py, vLLM-Ascend's norm_quant_fusion_pass.py, torchao's int8 rewrites, Inductor's
fx_passes), on small LLaMA / Qwen / BERT / GPT-2-like blocks with static and dynamic int8, fp8 and uint8
activations, int8 weights with per-channel scales, and the fused kernels as torch.library custom ops (quant/fxq_ops.py).
Graphs are built either in plain aten quant code or from the fxq custom ops themselves."""

import importlib.util
import math
import os
import sys

import torch
import torch.nn.functional as F

import models
from cases import _c

D = "tests/oracle/public/quant/"
_HERE = os.path.dirname(os.path.abspath(__file__))


def _ops():
    """quant/fxq_ops.py under the name the pattern files import it by (one definition of torch.ops.fxq)."""
    mod = sys.modules.get("fxq_ops")
    if mod is None:
        spec = importlib.util.spec_from_file_location("fxq_ops", os.path.join(_HERE, "quant", "fxq_ops.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules["fxq_ops"] = mod
        spec.loader.exec_module(mod)
    return mod


_t = models._t
FP8 = torch.float8_e4m3fn
FP8_MAX = torch.finfo(FP8).max


def _i8(shape):
    return torch.randint(-127, 128, shape, dtype=torch.int8)


def _scale(*shape):
    return torch.rand(shape) * 0.05 + 0.01


# --------------------------------------------------------------------------------------------------------------
# model pieces: the quant code as models / serving engines write it


def rms_norm(h, w, eps, form):
    if form == "op":
        return torch.ops.fxq.rms_norm(h, w, eps)
    return models.llama_rmsnorm(h, w, eps)


def static_quant(x, scale, form, outs=None):
    if form == "op":
        return torch.ops.fxq.static_quant(x, scale)
    if form == "div":
        r = torch.round(x / scale)
        if outs is not None:  # the rounded values also feed another output: an intermediate with an outside user
            outs.append(r.abs().sum())
        return torch.clamp(r, -128, 127).to(torch.int8)
    if form == "f32div":  # vLLM's reference: upcast first
        return torch.clamp(torch.round(x.to(torch.float32) / scale), -128, 127).to(torch.int8)
    if form == "mul_inv":  # a different scale form: multiply by the reciprocal
        return torch.clamp(torch.round(x * (1.0 / scale)), -128, 127).to(torch.int8)
    if form == "no_clamp":
        return torch.round(x / scale).to(torch.int8)
    if form == "no_round":
        return torch.clamp(x / scale, -128, 127).to(torch.int8)
    if form == "floor":  # a different rounding
        return torch.clamp(torch.floor(x / scale), -128, 127).to(torch.int8)
    if form == "sym127":  # symmetric range: a different constant
        return torch.clamp(torch.round(x / scale), -127, 127).to(torch.int8)
    raise KeyError(form)


def dynamic_quant(x, form, outs=None):
    """(int8, per-token f32 scale [.., 1])"""
    if form == "op":
        return torch.ops.fxq.dynamic_quant(x)
    xf = x.to(torch.float32)
    if form == "max_dim":  # max(dim) instead of amax
        amax = xf.abs().max(dim=-1, keepdim=True)[0]
    else:
        amax = xf.abs().amax(dim=-1, keepdim=True)
    if outs is not None:  # the absmax also feeds another output
        outs.append(amax.mean())
    if form == "clamp_min":  # an epsilon on the scale (as some kernels guard zero rows)
        scale = amax.clamp(min=1e-6) / 127.0
    elif form == "mul":
        scale = amax * (1.0 / 127.0)
    elif form == "div126":
        scale = amax / 126.0
    else:
        scale = amax / 127.0
    return torch.clamp(torch.round(xf / scale), -128, 127).to(torch.int8), scale


def int8_linear(q, a_scale, w_q, w_scale, out_dtype, form):
    """q [T, K] int8 with a_scale ([T, 1] or [1]); w_q [N, K] int8 with per-channel w_scale [N, 1]."""
    if form == "op":
        return torch.ops.fxq.scaled_mm(q, w_q, a_scale, w_scale.view(1, -1), out_dtype)
    if form == "mm_after":  # the rescale after the matmul: another formulation
        y = (q.to(torch.float32) @ w_q.to(torch.float32).t()) * a_scale * w_scale.view(1, -1)
        return y.to(out_dtype)
    a = q.to(torch.float32) * a_scale
    w = w_q.to(torch.float32) * w_scale
    if form == "mm3d":  # no flattening: a 3-D matmul
        return (a.view(1, *a.shape) @ w.t()).view(a.shape[0], -1).to(out_dtype)
    return (a @ w.t()).to(out_dtype)


def silu_mul(gu, form):
    if form == "op":
        return torch.ops.fxq.silu_and_mul(gu)
    d = gu.shape[-1] // 2
    if form == "gelu":
        return F.gelu(gu[..., :d]) * gu[..., d:]
    return F.silu(gu[..., :d]) * gu[..., d:]


# --------------------------------------------------------------------------------------------------------------
# graphs


def _llama_mlp(symbolic=False, dtype="f32", shape=(2, 8, 64), layers=1, norm="aten", eps=1e-6, quant="div",
               act_quant=None, mode="static", linear="matmul", act="aten", split_gate_up=False, outside=False,
               ffn=None, residual=True, flat=True):
    """LLaMA decoder MLP half with int8 linears: residual add, RMSNorm, activation quant (static per-tensor scale or
    dynamic per-token), int8 gate_up linear, SwiGLU, quant, int8 down linear, residual; `layers` of it."""
    _ops()
    dt = models.DT[dtype]
    b, s, hdim = shape
    ffn = ffn or 2 * hdim
    act_quant = act_quant or quant

    def quantize(x, form, scale, outs=None):
        if mode == "static":
            return static_quant(x, scale, form, outs), scale
        return dynamic_quant(x, form, outs)

    def f(x, res, *params):
        if flat:  # tokens flattened first, as serving engines run the decoder: [T, H]
            x, res = x.reshape(-1, hdim), res.reshape(-1, hdim)
        h = x + res if residual else x
        outs = []
        for i in range(layers):
            w_norm, s_in, wgu, wgu_s, s_act, wd, wd_s = params[7 * i:7 * i + 7]
            n = rms_norm(h, w_norm, eps, norm)
            n = n if flat else n.reshape(-1, hdim)
            q, qs = quantize(n, quant, s_in, outs if outside and i == 0 else None)
            if split_gate_up:
                g = int8_linear(q, qs, wgu[:ffn], wgu_s[:ffn], dt, linear)
                u = int8_linear(q, qs, wgu[ffn:], wgu_s[ffn:], dt, linear)
                a = F.gelu(g) * u if act == "gelu" else F.silu(g) * u
            else:
                gu = int8_linear(q, qs, wgu, wgu_s, dt, linear)
                a = silu_mul(gu, act)
            q2, qs2 = quantize(a, act_quant, s_act)
            out = int8_linear(q2, qs2, wd, wd_s, dt, linear)
            h = h + out.view(h.shape)
        return (h, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim,), dtype), _scale(1), _i8((2 * ffn, hdim)), _scale(2 * ffn, 1), _scale(1),
                   _i8((hdim, ffn)), _scale(hdim, 1)]
    return models._trace(f, (_t((b, s, hdim), dtype), _t((b, s, hdim), dtype), *params), symbolic)


def _norm_quant(symbolic=False, dtype="bf16", shape=(2, 8, 64), layers=1, norm="aten", eps=1e-6, quant="div",
                mode="static", wdtype=None, outside=False, flat=True):
    """Qwen-like attention input: (residual add,) RMSNorm, activation quant, int8 QKV projection per layer."""
    _ops()
    dt = models.DT[dtype]
    b, s, hdim = shape

    def f(x, res, *params):
        if flat:
            x, res = x.reshape(-1, hdim), res.reshape(-1, hdim)
        h = x
        outs = []
        for i in range(layers):
            w_norm, scale, wqkv, wqkv_s = params[4 * i:4 * i + 4]
            h = h + res
            n = rms_norm(h, w_norm, eps, norm)
            if outside and i == 0:
                outs.append(n.to(torch.float32).mean())
            n = n if flat else n.reshape(-1, hdim)
            if mode == "static":
                q, qs = static_quant(n, scale, quant), scale
            else:
                q, qs = dynamic_quant(n, quant)
            qkv = int8_linear(q, qs, wqkv, wqkv_s, dt, "mm_after")
            res = qkv[:, :hdim].reshape(h.shape)  # (the next layer's residual)
            outs.append(qkv[:, hdim:])
        return (h, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim,), wdtype or dtype), _scale(1), _i8((3 * hdim, hdim)), _scale(3 * hdim, 1)]
    return models._trace(f, (_t((b, s, hdim), dtype), _t((b, s, hdim), dtype), *params), symbolic)


def _ascend_block(symbolic=False, dtype="f16", shape=(4, 64), layers=1, eps=1e-6, mode="static", div_mode=False,
                  zero_offset=True, qdtype="int8", outside=False):
    """A vLLM-Ascend decoder as its NPU graph has it: npu_add_rms_norm, then npu_quantize (static) or
    npu_dynamic_quant (per token), then an int8 matmul dequantized back; the residual chains to the next layer."""
    _ops()
    t, hdim = shape

    def f(x, res, *params):
        outs = []
        for i in range(layers):
            w, scale, offset, wq, ws = params[5 * i:5 * i + 5]
            y, _, h = torch.ops.npu.npu_add_rms_norm(x, res, w, eps)
            if mode == "static":
                q = torch.ops.npu.npu_quantize(y, scale, offset if zero_offset else None,
                                               models.DT.get(qdtype, torch.int8) if qdtype != "int8" else torch.int8,
                                               -1, div_mode)
                qs = 1.0 / scale
            else:
                q, qs = torch.ops.npu.npu_dynamic_quant(y)
                qs = qs.view(-1, 1)
            if outside and i == 0:
                outs.append(y.to(torch.float32).sum())
            out = (q.to(torch.float32) @ wq.to(torch.float32).t()) * qs * ws.view(1, -1)
            x, res = out.to(x.dtype), h
        return (x, res, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim,), dtype), _scale(1), torch.zeros(1), _i8((hdim, hdim)), _scale(hdim)]
    return models._trace(f, (_t((t, hdim), dtype), _t((t, hdim), dtype), *params), symbolic)


def _bert_attn(symbolic=False, dtype="f32", shape=(2, 8, 128), heads=2, layers=1, scale_form="div_sqrt",
               probs="F", quant="u8", outside=False):
    """BERT self-attention with uint8 attention probabilities (int8 BERT / SmoothQuant): q/k/v projections, heads,
    scores scaled by sqrt(head_dim), softmax, probs quantized to uint8 and dequantized for the PV matmul."""
    b, s, hdim = shape
    hd = hdim // heads

    def f(x, *params):
        h = x
        outs = []
        for i in range(layers):
            wq, wk, wv = params[3 * i:3 * i + 3]

            def heads_of(t):
                return t.view(b, s, heads, hd).transpose(1, 2)
            q, k, v = heads_of(F.linear(h, wq)), heads_of(F.linear(h, wk)), heads_of(F.linear(h, wv))
            scores = torch.matmul(q, k.transpose(-2, -1))
            if scale_form == "div_sqrt":
                scores = scores / math.sqrt(hd)
            elif scale_form == "mul_inv":
                scores = scores * (1.0 / math.sqrt(hd))
            elif scale_form == "div_const":
                scores = scores / 8.0
            if outside and i == 0:
                outs.append(scores.amax())
            p = F.softmax(scores, dim=-1) if probs == "F" else torch.exp(scores) / torch.exp(scores).sum(-1, True)
            if quant == "u8":
                pq = torch.clamp(torch.round(p * 255.0), 0, 255).to(torch.uint8)
            elif quant == "no_clamp":
                pq = torch.round(p * 255.0).to(torch.uint8)
            else:  # int8 symmetric probs: another constant
                pq = torch.clamp(torch.round(p * 127.0), 0, 127).to(torch.int8)
            ctx = torch.matmul(pq.to(x.dtype) / 255.0, v)
            h = h + ctx.transpose(1, 2).reshape(b, s, hdim)
        return (h, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim, hdim), dtype) for _ in range(3)]
    return models._trace(f, (_t(shape, dtype), *params), symbolic)


def _fp8_mlp(symbolic=False, dtype="bf16", shape=(2, 8, 64), layers=1, mode="static", form="aten", outside=False):
    """GPT-2-like MLP with fp8 activations: static or dynamic per-tensor scaled cast to float8_e4m3fn, dequantized
    fp8 weights, GELU."""
    _ops()
    b, s, hdim = shape

    def fp8(x, scale, outs=None):
        if mode == "static" and form == "aten" and outs is not None:  # the scaled values feed another output
            y = x.to(torch.float32) / scale
            outs.append(y.sum())
            return y.clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8), scale
        if mode == "static":
            if form == "op":
                return torch.ops.fxq.fp8_quant(x, scale), scale
            if form == "no_clamp":
                return (x.to(torch.float32) / scale).to(FP8), scale
            if form == "clamp_448":  # the constant written by hand, one it does not equal
                return (x.to(torch.float32) / scale).clamp(min=-440.0, max=440.0).to(FP8), scale
            if form == "mul_inv":
                return (x.to(torch.float32) * (1.0 / scale)).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8), scale
            return (x.to(torch.float32) / scale).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8), scale
        amax = x.abs().amax() if form != "max" else x.abs().max()
        sc = amax.to(torch.float32) / FP8_MAX
        return (x.to(torch.float32) / sc).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8), sc

    def f(x, *params):
        h = x
        outs = []
        for i in range(layers):
            w1, w1s, s1, w2, w2s, s2 = params[6 * i:6 * i + 6]
            q, qs = fp8(h.reshape(-1, hdim), s1, outs if outside and i == 0 else None)
            a = F.gelu((q.to(torch.float32) @ w1.to(torch.float32).t()) * qs * w1s).to(h.dtype)
            q2, qs2 = fp8(a, s2)
            out = ((q2.to(torch.float32) @ w2.to(torch.float32).t()) * qs2 * w2s).to(h.dtype)
            h = h + out.view(h.shape)
        return (h, *outs)

    params = []
    for _ in range(layers):
        params += [_t((4 * hdim, hdim)).to(FP8), _scale(4 * hdim), _scale(1), _t((hdim, 4 * hdim)).to(FP8),
                   _scale(hdim), _scale(1)]
    return models._trace(f, (_t((b, s, hdim), dtype), *params), symbolic)


def _smooth_linear(symbolic=False, dtype="f32", shape=(2, 8, 32), inv_scales=(20.0,), form="mul", outside=False):
    """SmoothQuant W8A8 linears (one per inv_scale, chained): x * smooth, static quant with the scale folded into
    the graph as a float, int8 matmul, rescale."""
    b, s, hdim = shape

    def f(x, *params):
        h = x
        outs = []
        for i, inv in enumerate(inv_scales):
            smooth, wq, ws = params[3 * i:3 * i + 3]
            xs = h.reshape(-1, hdim) * smooth
            if form == "mul":
                q = torch.clamp(torch.round(xs * inv), -128.0, 127.0).to(torch.int8)
            elif form == "div":  # dividing by the scale instead of multiplying by its inverse
                q = torch.clamp(torch.round(xs / (1.0 / inv)), -128.0, 127.0).to(torch.int8)
            elif form == "no_smooth":
                q = torch.clamp(torch.round(h.reshape(-1, hdim) * inv), -128.0, 127.0).to(torch.int8)
            elif form == "uint8":
                q = torch.clamp(torch.round(xs * inv), 0.0, 255.0).to(torch.uint8)
            if outside and i == 0:
                outs.append(xs.sum())
            y = (q.to(torch.float32) @ wq.to(torch.float32).t()) * (ws / inv)
            h = h + torch.relu(y.to(h.dtype)).view(h.shape)
        return (h, *outs)

    params = []
    for _ in inv_scales:
        params += [_t((hdim,), dtype).abs() + 0.5, _i8((hdim, hdim)), _scale(hdim)]
    return models._trace(f, (_t(shape, dtype), *params), symbolic)


def _ascend_mlp(symbolic=False, dtype="bf16", shape=(8, 64), layers=1, act="chunk", outside=False, eps=1e-6):
    """A vLLM-Ascend MLP: npu_add_rms_norm, gate_up projection, SwiGLU (torch chunk + F.silu, slices, or gelu),
    per-token npu_dynamic_quant, int8 down projection dequantized with the per-token and per-channel scales."""
    t, hdim = shape

    def f(x, res, *params):
        outs = []
        for i in range(layers):
            w, w_gu, wd, wd_s = params[4 * i:4 * i + 4]
            y, _, h = torch.ops.npu.npu_add_rms_norm(x, res, w, eps)
            gu = y @ w_gu.t()
            if act == "chunk":
                gate, up = gu.chunk(2, dim=-1)
                a = F.silu(gate) * up
            elif act == "slice":
                d = gu.shape[-1] // 2
                a = F.silu(gu[..., :d]) * gu[..., d:]
            elif act == "swapped":  # up * silu(gate): mul's operands the other way round
                gate, up = gu.chunk(2, dim=-1)
                a = up * F.silu(gate)
            elif act == "gelu":
                gate, up = gu.chunk(2, dim=-1)
                a = F.gelu(gate) * up
            elif act == "npu":
                a = torch.ops.npu.npu_swiglu(gu, -1)
            if outside and i == 0:
                outs.append(a.to(torch.float32).sum())
            q, s = torch.ops.npu.npu_dynamic_quant(a)
            out = (q.to(torch.float32) @ wd.to(torch.float32).t()) * s.view(-1, 1) * wd_s
            x, res = out.to(x.dtype), h
        return (x, res, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim,), dtype), _t((4 * hdim, hdim), dtype), _i8((hdim, 2 * hdim)), _scale(hdim)]
    return models._trace(f, (_t((t, hdim), dtype), _t((t, hdim), dtype), *params), symbolic)


def _w8a8_gpt2(symbolic=False, dtype="bf16", shape=(2, 8, 64), layers=1, shared_scale=False, bias=True,
               quant="f32div", rescale="combined", outside=False):
    """GPT-2 MLP blocks with W8A8 static linears (SmoothQuant checkpoints): LayerNorm, static activation quant,
    int8 matmul carried in float, x_scale * w_scale rescale, bias, GELU."""
    _ops()
    dt = models.DT[dtype]
    b, s, hdim = shape

    def w8a8(x, x_scale, w_q, w_scale, bias_t, outs=None):
        q = static_quant(x, x_scale, quant)
        y = torch.mm(q.to(torch.float32), w_q.to(torch.float32).t())
        if rescale == "combined":
            y = y * (x_scale * w_scale)
        else:  # two multiplies: another association
            y = y * x_scale * w_scale
        if outs is not None:
            outs.append(y.sum())
        y = y.to(dt)
        return y + bias_t if bias else y

    def f(x, *params):
        h = x.reshape(-1, hdim)
        outs = []
        for i in range(layers):
            ln_w, ln_b, s1, w1, w1s, b1, s2, w2, w2s, b2 = params[10 * i:10 * i + 10]
            n = F.layer_norm(h, (hdim,), ln_w, ln_b)
            a = F.gelu(w8a8(n, s1, w1, s1 if shared_scale else w1s, b1, outs if outside and i == 0 else None))
            h = h + w8a8(a, s2, w2, s2 if shared_scale else w2s, b2)
        return (h, *outs)

    params = []
    for _ in range(layers):
        params += [_t((hdim,), dtype), _t((hdim,), dtype), _scale(1), _i8((4 * hdim, hdim)), _scale(4 * hdim),
                   _t((4 * hdim,), dtype), _scale(1), _i8((hdim, 4 * hdim)), _scale(hdim), _t((hdim,), dtype)]
    return models._trace(f, (_t(shape, dtype), *params), symbolic)


class _QuantMlp(torch.nn.Module):
    """LLaMA MLP with int8 buffers, as a W8A8 checkpoint loads it (for the torch.compile captures)."""

    def __init__(self, hidden, dtype, mode, ops):
        super().__init__()
        self.dtype, self.mode, self.ops = dtype, mode, ops
        self.norm_w = torch.nn.Parameter(torch.randn(hidden).to(dtype))
        self.register_buffer("s_in", _scale(1))
        self.register_buffer("w_gu", _i8((4 * hidden, hidden)))
        self.register_buffer("w_gu_s", _scale(4 * hidden, 1))
        self.register_buffer("s_act", _scale(1))
        self.register_buffer("w_d", _i8((hidden, 2 * hidden)))
        self.register_buffer("w_d_s", _scale(hidden, 1))

    def forward(self, x, r):
        h = x.reshape(-1, x.shape[-1]) + r.reshape(-1, r.shape[-1])  # tokens flattened: [T, H]
        n = rms_norm(h, self.norm_w, 1e-6, "op" if self.ops else "aten")
        form = "op" if self.ops else "f32div"
        if self.mode == "static":
            q, qs = static_quant(n, self.s_in, form), self.s_in
        else:
            q, qs = dynamic_quant(n, "op" if self.ops else "aten")
        gu = int8_linear(q, qs, self.w_gu, self.w_gu_s, self.dtype, "op" if self.ops else "matmul")
        a = silu_mul(gu, "op" if self.ops else "aten")
        q2 = static_quant(a, self.s_act, "op" if self.ops else "f32div")
        out = int8_linear(q2, self.s_act, self.w_d, self.w_d_s, self.dtype, "op" if self.ops else "matmul")
        return h + out


def _compiled_mlp(symbolic=False, dtype="bf16", hidden=32, tokens=(2, 8), mode="static", ops=False, dynamic=False):
    _ops()
    torch.manual_seed(0)
    model = _QuantMlp(hidden, models.DT[dtype], mode, ops)
    args = (_t((*tokens, hidden), dtype), _t((*tokens, hidden), dtype))
    return models.capture(model, args, dynamic)


GRAPHS = {"quant_llama_mlp": _llama_mlp, "quant_norm_quant": _norm_quant, "quant_ascend_block": _ascend_block,
          "quant_bert_attn": _bert_attn, "quant_fp8_mlp": _fp8_mlp, "quant_smooth_linear": _smooth_linear,
          "quant_compiled_mlp": _compiled_mlp, "quant_ascend_mlp": _ascend_mlp, "quant_w8a8_gpt2": _w8a8_gpt2}


# --------------------------------------------------------------------------------------------------------------
# cases


def _cases_for(prefix, file, rows):
    """rows: (id suffix, purpose, graph, kwargs[, form])"""
    out = []
    for row in rows:
        sid, purpose, graph, kw = row[:4]
        form = row[4] if len(row) > 4 else "json"
        out.append(_c(f"quant.{prefix}.{sid}", purpose, graph, kw, [D + file], form=form))
    return out


def cases():
    L, N, A = "quant_llama_mlp", "quant_norm_quant", "quant_ascend_block"
    out = []
    out += _cases_for("static", "static_quant.py", [
        ("f32", "static int8 quant in aten on a f32 LLaMA MLP: both quants replaced", L, {"dtype": "f32"}),
        ("f16", "f16 activations divided by an f32 scale: replaced", L, {"dtype": "f16", "shape": [1, 4, 32]}),
        ("bf16_f32div", "vLLM's upcast-first form: x binds the convert node", L, {"dtype": "bf16", "quant": "f32div"}),
        ("two_layers", "two decoder layers: four quants replaced", L, {"layers": 2, "shape": [2, 4, 32]}),
        ("symbolic", "dynamic shapes (make_fx symbolic)", L, {"symbolic": True, "dtype": "f16"}),
        ("readable", "print_readable form of the f32 MLP", L, {"dtype": "f32", "shape": [2, 4, 32]}, "readable"),
        ("mul_inv", "x * (1 / scale): a different op, no match", L, {"quant": "mul_inv"}),
        ("no_clamp", "a missing clamp: no match", L, {"quant": "no_clamp", "act_quant": "div"}),
        ("floor", "floor instead of round: no match", L, {"quant": "floor", "act_quant": "floor"}),
        ("sym127", "clamp(-127, 127): the generic pattern matches, the re-trace rejects the constant", L,
         {"quant": "sym127", "act_quant": "sym127"}),
        ("outside_user", "the rounded values also feed another output: only the activation quant is replaced", L,
         {"outside": True}),
        ("dynamic_graph", "per-token dynamic quant graph: the scale is computed, the quant part still fires", L,
         {"mode": "dynamic"}),
        ("ops_graph", "a graph of fxq custom ops: nothing in aten to match", L,
         {"quant": "op", "norm": "op", "act": "op", "linear": "op"}),
        ("qwen_bf16", "Qwen attention input, bf16, two layers", N, {"dtype": "bf16", "layers": 2}),
        ("qwen_readable", "Qwen attention input in readable form", N, {"dtype": "f16"}, "readable"),
        ("compiled", "torch.compile capture of a W8A8 LLaMA MLP", "quant_compiled_mlp", {"dtype": "bf16"}),
    ])
    out += _cases_for("dynamic", "dynamic_token_quant.py", [
        ("f32", "per-token dynamic quant, f32 MLP (no upcast node): f32 registration fires", L,
         {"mode": "dynamic", "dtype": "f32"}),
        ("f16", "f16 MLP: upcast + per-token quant fires", L, {"mode": "dynamic", "dtype": "f16"}),
        ("bf16_2layers", "bf16, two layers: four quants", L, {"mode": "dynamic", "dtype": "bf16", "layers": 2,
                                                               "shape": [1, 4, 32]}),
        ("symbolic", "dynamic shapes", L, {"mode": "dynamic", "dtype": "bf16", "symbolic": True}),
        ("readable", "readable form", L, {"mode": "dynamic", "dtype": "f16", "shape": [2, 4, 32]}, "readable"),
        ("clamp_min", "an eps clamp on the scale: no match", L, {"mode": "dynamic", "quant": "clamp_min",
                                                                 "act_quant": "clamp_min"}),
        ("mul_scale", "amax * (1/127): a different scale form", L, {"mode": "dynamic", "quant": "mul",
                                                                   "act_quant": "mul"}),
        ("max_dim", "max(dim) instead of amax: no match", L, {"mode": "dynamic", "quant": "max_dim",
                                                              "act_quant": "max_dim", "dtype": "f16"}),
        ("div126", "a different divisor: generic match, re-trace rejects", L,
         {"mode": "dynamic", "quant": "div126", "act_quant": "div126"}),
        ("mixed", "norm quant dynamic with an eps clamp, activation quant plain: one replaced", L,
         {"mode": "dynamic", "quant": "clamp_min", "act_quant": "aten", "dtype": "bf16"}),
        ("outside_user", "the absmax also feeds another output (bf16): only the activation quant", L, {"mode": "dynamic", "dtype": "bf16",
                                                                       "outside": True}),
        ("static_graph", "static quant graph: no per-token scale to match", L, {"mode": "static"}),
        ("qwen_f16", "Qwen attention input with dynamic quant", N, {"mode": "dynamic", "dtype": "f16",
                                                                    "quant": "aten", "layers": 2}),
        ("qwen_symbolic", "Qwen attention input, dynamic shapes", N,
         {"mode": "dynamic", "dtype": "bf16", "quant": "aten", "symbolic": True}),
        ("compiled", "torch.compile capture, dynamic per-token MLP", "quant_compiled_mlp",
         {"dtype": "f16", "mode": "dynamic"}),
    ])
    out += _cases_for("scaled_mm", "int8_scaled_mm.py", [
        ("f16", "dequant + `@` int8 linears, f16 out: replaced", L, {"dtype": "f16", "mode": "dynamic"}),
        ("bf16", "bf16 out", L, {"dtype": "bf16", "mode": "dynamic"}),
        ("static_scale", "per-tensor [1] activation scale (static): the generic pattern broadcasts the same", L,
         {"dtype": "bf16", "mode": "static"}),
        ("f32_out", "f32 out has no final cast: no registration for it", L, {"dtype": "f32", "mode": "dynamic"}),
        ("k_not_16", "K = 40: extra_check rejects the first linear", L, {"dtype": "f16", "mode": "dynamic",
                                                                          "shape": [2, 4, 40], "ffn": 64}),
        ("two_layers", "two layers, bf16", L, {"dtype": "bf16", "layers": 2, "shape": [1, 4, 32]}),
        ("symbolic", "dynamic shapes", L, {"dtype": "f16", "mode": "dynamic", "symbolic": True}),
        ("readable", "readable form", L, {"dtype": "bf16", "mode": "dynamic", "shape": [2, 4, 32]}, "readable"),
        ("mm_after", "rescale after the matmul: a different formulation, no match", L,
         {"dtype": "f16", "linear": "mm_after"}),
        ("mm3d", "an unflattened 3-D matmul: no match", L, {"dtype": "f16", "linear": "mm3d"}),
        ("ops_graph", "already the scaled_mm custom op", L, {"dtype": "bf16", "linear": "op"}),
        ("split_gate_up", "separate gate/up linears: three per layer", L,
         {"dtype": "bf16", "split_gate_up": True, "mode": "dynamic"}),
        ("compiled", "torch.compile capture (aten form)", "quant_compiled_mlp", {"dtype": "bf16"}),
        ("compiled_f16_dyn", "torch.compile capture, dynamic quant, f16", "quant_compiled_mlp",
         {"dtype": "f16", "mode": "dynamic"}),
    ])
    ops_all = {"norm": "op", "quant": "op", "act": "op", "linear": "op"}
    out += _cases_for("rms_ops", "rms_norm_quant_ops.py", [
        ("static_bf16", "rms_norm op + static_quant op, bf16: fused", N, {"norm": "op", "quant": "op"}),
        ("static_f16_eps5", "eps 1e-5 registration", N, {"norm": "op", "quant": "op", "dtype": "f16", "eps": 1e-5}),
        ("static_f32_2layers", "f32, two layers", N, {"norm": "op", "quant": "op", "dtype": "f32", "layers": 2}),
        ("dynamic_bf16", "rms_norm op + dynamic_quant op (multi-output)", N,
         {"norm": "op", "quant": "op", "mode": "dynamic"}),
        ("dynamic_symbolic", "dynamic quant, dynamic shapes", N,
         {"norm": "op", "quant": "op", "mode": "dynamic", "symbolic": True}),
        ("static_symbolic", "static, dynamic shapes, f16", N,
         {"norm": "op", "quant": "op", "dtype": "f16", "symbolic": True}),
        ("readable", "readable form of the custom-op graph", N, {"norm": "op", "quant": "op", "layers": 2},
         "readable"),
        ("readable_dynamic", "readable form, dynamic quant", N, {"norm": "op", "quant": "op", "mode": "dynamic"},
         "readable"),
        ("eps_other", "eps 1e-4: no registration for it", N, {"norm": "op", "quant": "op", "eps": 1e-4}),
        ("aten_norm", "LLaMA RMSNorm in aten + quant op: no rms_norm op", N, {"norm": "aten", "quant": "op"}),
        ("aten_quant", "rms_norm op + quant in aten", N, {"norm": "op", "quant": "div"}),
        ("outside_user", "the norm output also feeds another output: not fused", N,
         {"norm": "op", "quant": "op", "outside": True, "layers": 2}),
        ("mlp_ops", "LLaMA MLP of custom ops: the norm + quant pair fused", L, ops_all),
        ("mlp_ops_dynamic", "LLaMA MLP of custom ops, dynamic quant", L, dict(ops_all, mode="dynamic",
                                                                             dtype="bf16")),
        ("compiled", "torch.compile capture of the custom-op MLP", "quant_compiled_mlp", {"ops": True}),
    ])
    up = {"act_quant": "f32div"}  # the activation quant upcasts first, as vLLM's reference does
    out += _cases_for("silu", "silu_mul_quant.py", [
        ("split_f16", "F.silu(gate) * up + upcast static quant, separate gate/up linears, f16", L,
         dict(up, dtype="f16", split_gate_up=True)),
        ("chunk_bf16", "gate/up as slices of one linear, bf16", L, dict(up, dtype="bf16")),
        ("f32", "f32: the upcast traces to nothing, the f16/bf16 registrations do not fire", L,
         dict(up, dtype="f32", split_gate_up=True)),
        ("two_layers", "two layers, bf16", L, dict(up, dtype="bf16", layers=2, shape=[1, 4, 32])),
        ("symbolic", "dynamic shapes", L, dict(up, dtype="f16", symbolic=True)),
        ("readable", "readable form", L, dict(up, dtype="bf16", shape=[2, 4, 32]), "readable"),
        ("gelu", "GELU gate: no match", L, dict(up, dtype="f16", act="gelu")),
        ("no_upcast", "activation quant without the upcast: no match", L, {"dtype": "f16", "act_quant": "div"}),
        ("act_sym127", "activation quant with clamp(-127, 127): no match", L,
         {"dtype": "bf16", "act_quant": "sym127"}),
        ("dynamic", "dynamic per-token activation quant: the scale is not an input", L,
         {"dtype": "bf16", "mode": "dynamic"}),
        ("silu_op", "silu_and_mul custom op: nothing to match in aten", L, dict(up, dtype="bf16", act="op")),
        ("outside_norm", "an outside user on the norm side does not affect the activation quant", L,
         dict(up, dtype="f16", outside=True)),
        ("unflat_3d", "a 3-D [B, S, H] decoder (no token flattening)", L, dict(up, dtype="bf16", flat=False)),
        ("compiled", "torch.compile capture, static", "quant_compiled_mlp",
         {"dtype": "f16"}),
        ("compiled_dynamic", "torch.compile capture, dynamic shapes", "quant_compiled_mlp",
         {"dtype": "bf16", "dynamic": True}),
    ])
    F8 = "quant_fp8_mlp"
    out += _cases_for("fp8", "fp8_quant.py", [
        ("static_bf16", "static per-tensor fp8 scaled cast, bf16: both casts", F8, {"dtype": "bf16"}),
        ("static_f16", "f16 activations", F8, {"dtype": "f16"}),
        ("static_2layers", "two layers", F8, {"dtype": "bf16", "layers": 2, "shape": [1, 4, 32]}),
        ("static_f32", "f32 activations: no upcast node, the bf16-traced pattern does not fire", F8,
         {"dtype": "f32"}),
        ("dynamic_bf16", "dynamic per-tensor fp8 (absmax): multi-output", F8, {"dtype": "bf16", "mode": "dynamic"}),
        ("dynamic_f16_2layers", "dynamic, f16, two layers", F8, {"dtype": "f16", "mode": "dynamic", "layers": 2,
                                                                 "shape": [1, 4, 32]}),
        ("dynamic_max", "max() decomposes to amax: the same graph, replaced", F8,
         {"dtype": "bf16", "mode": "dynamic", "form": "max"}),
        ("symbolic", "static, dynamic shapes", F8, {"dtype": "bf16", "symbolic": True}),
        ("dynamic_symbolic", "dynamic quant, dynamic shapes", F8, {"dtype": "bf16", "mode": "dynamic",
                                                                   "symbolic": True}),
        ("readable", "readable form", F8, {"dtype": "bf16"}, "readable"),
        ("no_clamp", "a cast without the clamp: no match", F8, {"dtype": "bf16", "form": "no_clamp"}),
        ("clamp_440", "clamp to 440: the re-trace rejects the constant", F8, {"dtype": "bf16", "form": "clamp_448"}),
        ("mul_inv", "x * (1/scale): no match", F8, {"dtype": "f16", "form": "mul_inv"}),
        ("op_graph", "already the fp8_quant op", F8, {"dtype": "bf16", "form": "op"}),
        ("outside_user", "the scaled first input has another user: only the second cast", F8, {"dtype": "bf16", "outside": True}),
    ])
    S = "quant_smooth_linear"
    out += _cases_for("smooth", "smooth_quant_scalar.py", [
        ("f32", "SmoothQuant linear, inv_scale 20.0 in the graph: replaced (scalar_workaround)", S, {}),
        ("three_scales", "three linears with three different constants: each replaced with its own", S,
         {"inv_scales": [20.0, 0.25, 7.5]}),
        ("workaround_value", "the constant equals the workaround value 0.25", S, {"inv_scales": [0.25]}),
        ("f16", "f16: the quant has no casts to differ", S, {"dtype": "f16", "inv_scales": [12.0, 3.0]}),
        ("bf16", "bf16", S, {"dtype": "bf16"}),
        ("symbolic", "dynamic shapes", S, {"symbolic": True, "inv_scales": [20.0, 4.0]}),
        ("readable", "readable form keeps the float constants", S, {"inv_scales": [20.0, 0.125]}, "readable"),
        ("div", "division by the scale: no match", S, {"form": "div"}),
        ("no_smooth", "no smoothing multiply: the pattern's x * smooth is missing", S, {"form": "no_smooth"}),
        ("uint8", "uint8 range: generic match, re-trace rejects", S, {"form": "uint8"}),
        ("outside_user", "the smoothed activation also feeds another output", S,
         {"outside": True, "inv_scales": [20.0, 5.0]}),
        ("3d", "a 4-token [1, 4, 32] input", S, {"shape": [1, 4, 32], "inv_scales": [9.0]}),
        ("readable_f16", "readable form, f16", S, {"dtype": "f16", "inv_scales": [6.0]}, "readable"),
    ])
    B = "quant_bert_attn"
    out += _cases_for("attn", "attn_probs_quant.py", [
        ("hd64_f32", "BERT attention, head_dim 64, uint8 probs: replaced", B, {}),
        ("hd32_f32", "head_dim 32 (second registration)", B, {"shape": [2, 8, 128], "heads": 4}),
        ("hd64_2layers", "two layers, batch 1: the matmul needs no copy, the batch-2 pattern has a clone", B,
         {"layers": 2, "shape": [1, 4, 128]}),
        ("hd64_2layers_b2", "two layers, batch 2", B, {"layers": 2, "shape": [2, 4, 128]}),
        ("hd64_f16", "f16 (softmax decomposition with casts): the f16 registration", B, {"dtype": "f16"}),
        ("hd64_bf16", "bf16: the f16 registration's casts re-traced with bf16", B, {"dtype": "bf16", "shape": [2, 4, 128]}),
        ("hd16", "head_dim 16: no registration for the constant", B, {"shape": [2, 8, 64], "heads": 4}),
        ("div_const", "scores / 8.0 on head_dim 64 (= sqrt(64)): same constant", B, {"scale_form": "div_const"}),
        ("div_const_hd32", "scores / 8.0 on head_dim 32: the head_dim-64 registration (8.0) fires", B,
         {"scale_form": "div_const", "heads": 4}),
        ("mul_inv", "scores * (1/sqrt(d)): no match", B, {"scale_form": "mul_inv"}),
        ("manual_softmax", "a softmax written by hand without max subtraction: no match", B, {"probs": "manual"}),
        ("no_clamp", "probs rounded without the clamp: no match", B, {"quant": "no_clamp"}),
        ("int8_probs", "int8 probs in 1/127 steps: generic match, the re-trace rejects", B, {"quant": "int8"}),
        ("outside_user", "the scores feed another output", B, {"outside": True}),
        ("symbolic", "dynamic shapes", B, {"symbolic": True, "shape": [2, 8, 128]}),
        ("readable", "readable form", B, {"shape": [2, 8, 128], "heads": 4}, "readable"),
        ("readable_b1", "readable form, batch 1: no match", B, {"shape": [1, 8, 128]}, "readable"),
    ])
    out += _cases_for("vllm_rms", "vllm_rms_quant_pass.py", [
        ("static_bf16", "class-based pass: LLaMA RMSNorm + static quant, bf16", N, {"dtype": "bf16", "quant": "f32div"}),
        ("static_f16", "f16, eps 1e-5", N, {"dtype": "f16", "quant": "f32div", "eps": 1e-5}),
        ("static_2layers", "two layers, bf16", N, {"dtype": "bf16", "quant": "f32div", "layers": 2}),
        ("dynamic_bf16", "RMSNorm + dynamic per-token quant", N, {"dtype": "bf16", "mode": "dynamic",
                                                                  "quant": "aten"}),
        ("dynamic_f16", "dynamic, f16, two layers", N, {"dtype": "f16", "mode": "dynamic", "quant": "aten",
                                                        "layers": 2}),
        ("f32", "f32 activations: no registration (act_dtypes f16/bf16)", N, {"dtype": "f32", "quant": "f32div"}),
        ("hidden_40", "hidden 40: extra_check rejects (multiple of 16)", N, {"dtype": "bf16", "quant": "f32div", "shape": [2, 4, 40]}),
        ("eps_other", "eps 1e-4: re-trace rejects", N, {"dtype": "bf16", "quant": "f32div", "eps": 1e-4}),
        ("f32_weight", "f32 norm weight in a bf16 graph: promoted multiply, a different graph", N,
         {"dtype": "bf16", "quant": "f32div", "wdtype": "f32"}),
        ("mul_inv", "quant by reciprocal: no match", N, {"dtype": "bf16", "quant": "mul_inv"}),
        ("outside_user", "the norm output feeds another output", N, {"dtype": "f16", "quant": "f32div", "outside": True}),
        ("symbolic", "dynamic shapes", N, {"dtype": "bf16", "quant": "f32div", "symbolic": True}),
        ("dynamic_symbolic", "dynamic quant, dynamic shapes", N, {"dtype": "f16", "mode": "dynamic",
                                                                  "quant": "aten", "symbolic": True}),
        ("readable", "readable form", N, {"dtype": "bf16", "quant": "f32div"}, "readable"),
        ("mlp", "LLaMA MLP: the norm + quant pair", L, {"dtype": "bf16", "quant": "f32div", "act_quant": "div"}),
        ("compiled", "torch.compile capture (aten form)", "quant_compiled_mlp", {"dtype": "bf16"}),
    ])
    out += _cases_for("ascend", "ascend_norm_quant_pass.py", [
        ("static_f16", "npu_add_rms_norm + npu_quantize (multiply mode): fused", A, {}),
        ("static_bf16_eps5", "bf16, eps 1e-5", A, {"dtype": "bf16", "eps": 1e-5}),
        ("static_3layers", "three layers chained through the residual", A, {"layers": 3}),
        ("dynamic_f16", "npu_add_rms_norm + npu_dynamic_quant", A, {"mode": "dynamic"}),
        ("dynamic_2layers", "dynamic, bf16, two layers", A, {"mode": "dynamic", "dtype": "bf16", "layers": 2}),
        ("static_symbolic", "dynamic shapes", A, {"symbolic": True}),
        ("dynamic_symbolic", "dynamic quant, dynamic shapes", A, {"mode": "dynamic", "symbolic": True}),
        ("readable", "readable form", A, {"layers": 2}, "readable"),
        ("readable_dynamic", "readable form, dynamic quant", A, {"mode": "dynamic"}, "readable"),
        ("div_mode", "npu_quantize in divide mode: re-trace rejects", A, {"div_mode": True}),
        ("no_offset", "offset None: the pattern's offset input is missing", A, {"zero_offset": False}),
        ("eps_other", "eps 1e-4", A, {"eps": 1e-4}),
        ("outside_user", "the normed output has another user", A, {"outside": True, "layers": 2}),
        ("3d", "[2, 4, 64] tokens", A, {"shape": [8, 32], "dtype": "bf16"}),
    ])
    out += _cases_for("vllm_ops", "vllm_customop_quant_pass.py", [
        ("mlp_static", "silu_and_mul op + static_quant op in a custom-op MLP: fused", L,
         dict(ops_all, dtype="bf16")),
        ("mlp_f16_2layers", "two layers, f16", L, dict(ops_all, dtype="f16", layers=2, shape=[1, 4, 32])),
        ("mlp_symbolic", "dynamic shapes", L, dict(ops_all, dtype="bf16", symbolic=True)),
        ("mlp_readable", "readable form", L, dict(ops_all, dtype="bf16"), "readable"),
        ("mlp_dynamic", "dynamic per-token quant ops: no static quant op after silu", L,
         dict(ops_all, dtype="bf16", mode="dynamic")),
        ("mlp_aten_act", "SwiGLU in aten: no silu_and_mul op", L, dict(ops_all, act="aten")),
        ("add_rms_static", "residual add + rms_norm op + static_quant op: fused with the residual output", N,
         {"norm": "op", "quant": "op"}),
        ("add_rms_2layers", "two layers (the residual feeds the next add)", N,
         {"norm": "op", "quant": "op", "layers": 2, "dtype": "f16"}),
        ("add_rms_eps5", "eps 1e-5", N, {"norm": "op", "quant": "op", "eps": 1e-5, "dtype": "f32"}),
        ("add_rms_eps4", "eps 1e-4: no registration", N, {"norm": "op", "quant": "op", "eps": 1e-4}),
        ("add_rms_dynamic", "dynamic quant op: no static pattern", N, {"norm": "op", "quant": "op",
                                                                       "mode": "dynamic"}),
        ("add_rms_outside", "the norm output feeds another output", N,
         {"norm": "op", "quant": "op", "outside": True}),
        ("add_rms_symbolic", "dynamic shapes", N, {"norm": "op", "quant": "op", "symbolic": True}),
        ("add_rms_readable", "readable form", N, {"norm": "op", "quant": "op", "layers": 2}, "readable"),
        ("compiled", "torch.compile capture of the custom-op MLP", "quant_compiled_mlp",
         {"ops": True, "dtype": "f16"}),
    ])
    out += _cases_for("torchao", "torchao_dynamic_linear_pass.py", [
        ("qwen_bf16", "per-token quant + int8 mm + rescales, bf16: fused", N,
         {"dtype": "bf16", "mode": "dynamic", "quant": "aten"}),
        ("qwen_f16_2layers", "f16, two layers", N, {"dtype": "f16", "mode": "dynamic", "quant": "aten",
                                                    "layers": 2}),
        ("qwen_symbolic", "dynamic shapes", N, {"dtype": "bf16", "mode": "dynamic", "quant": "aten",
                                                "symbolic": True}),
        ("qwen_readable", "readable form", N, {"dtype": "bf16", "mode": "dynamic", "quant": "aten"}, "readable"),
        ("qwen_k16", "hidden 16 < min_k: extra_check rejects", N,
         {"dtype": "bf16", "mode": "dynamic", "quant": "aten", "shape": [2, 4, 16]}),
        ("qwen_f32", "f32 out: no final cast, no match", N, {"dtype": "f32", "mode": "dynamic", "quant": "aten"}),
        ("qwen_clamp_min", "scale with an eps clamp: no match", N,
         {"dtype": "bf16", "mode": "dynamic", "quant": "clamp_min"}),
        ("qwen_div126", "divisor 126: the re-trace rejects", N,
         {"dtype": "bf16", "mode": "dynamic", "quant": "div126"}),
        ("qwen_static", "static quant: no per-token scale", N, {"dtype": "bf16"}),
        ("qwen_outside", "the norm output has another user (the quant input, outside the pattern)", N,
         {"dtype": "f16", "mode": "dynamic", "quant": "aten", "outside": True}),
        ("mlp_mm_after", "LLaMA MLP with the mm-then-rescale linears", L,
         {"dtype": "bf16", "mode": "dynamic", "linear": "mm_after"}),
        ("mlp_matmul", "the dequant-then-matmul formulation: no match", L, {"dtype": "bf16", "mode": "dynamic"}),
        ("mlp_symbolic", "LLaMA MLP, dynamic shapes", L, {"dtype": "f16", "mode": "dynamic", "linear": "mm_after",
                                                          "symbolic": True}),
        ("mlp_readable", "LLaMA MLP, readable form", L,
         {"dtype": "bf16", "mode": "dynamic", "linear": "mm_after", "shape": [1, 4, 32]}, "readable"),
    ])
    M = "quant_ascend_mlp"
    out += _cases_for("ascend_swiglu", "ascend_swiglu_quant_pass.py", [
        ("chunk_bf16", "chunk + F.silu * up + npu_dynamic_quant: npu_swiglu", M, {}),
        ("chunk_f16", "f16", M, {"dtype": "f16"}),
        ("two_layers", "two layers", M, {"layers": 2, "shape": [4, 32]}),
        ("three_layers_f16", "three layers, f16", M, {"layers": 3, "dtype": "f16", "shape": [4, 32]}),
        ("symbolic", "dynamic shapes: the generic pattern matches, the specific (re-traced) one rejects", M,
         {"symbolic": True}),
        ("symbolic_f16", "dynamic shapes, f16, two layers: specific rejections", M, {"symbolic": True, "dtype": "f16", "layers": 2}),
        ("readable", "readable form", M, {"layers": 2}, "readable"),
        ("f32", "f32: extra_check rejects (half dtypes only)", M, {"dtype": "f32"}),
        ("slice", "gate/up as slices instead of chunk: a different graph", M, {"act": "slice"}),
        ("swapped", "up * silu(gate): mul's operands the other way round", M, {"act": "swapped"}),
        ("gelu", "GELU gate: no match", M, {"act": "gelu"}),
        ("already_npu", "npu_swiglu already: nothing to fuse", M, {"act": "npu"}),
        ("outside_user", "the activation feeds another output", M, {"outside": True, "layers": 2}),
        ("readable_f16", "readable form, f16", M, {"dtype": "f16"}, "readable"),
    ])
    W = "quant_w8a8_gpt2"
    out += _cases_for("w8a8", "w8a8_linear_pass.py", [
        ("bf16", "GPT-2 MLP, W8A8 static linears, bf16: both linears fused", W, {}),
        ("f16", "f16", W, {"dtype": "f16"}),
        ("two_layers", "two layers", W, {"layers": 2, "shape": [1, 4, 32]}),
        ("symbolic", "dynamic shapes", W, {"symbolic": True}),
        ("symbolic_f16", "dynamic shapes, f16", W, {"symbolic": True, "dtype": "f16", "shape": [2, 4, 32]}),
        ("readable", "readable form", W, {"shape": [2, 4, 32]}, "readable"),
        ("f32", "f32: no upcast nodes, no registration", W, {"dtype": "f32"}),
        ("shared_scale", "one scale node for activation and weight: exclusive_arg_names rejects", W,
         {"shared_scale": True}),
        ("no_bias", "no bias add: the anchor is missing", W, {"bias": False}),
        ("two_muls", "y * x_scale * w_scale: another association, no match", W, {"rescale": "separate"}),
        ("no_upcast", "quant without the upcast: the pattern's upcast binds LayerNorm's own downcast (dtype "
         "ignored), Inductor replaces and the outputs change", W, {"quant": "div"}),
        ("sym127", "clamp(-127, 127): the re-trace rejects", W, {"quant": "sym127"}),
        ("outside_user", "the rescaled product feeds another output: only the second linear", W,
         {"outside": True}),
        ("readable_f16", "readable form, f16, two layers", W, {"dtype": "f16", "layers": 2, "shape": [1, 4, 32]},
         "readable"),
    ])
    return out
