"""Activation and MLP patterns (issue 22's activations suite): GELU tanh/erf written out, quick_gelu/swish, SiLU-and-mul
(vLLM), SwiGLU with chunk/split (vLLM-Ascend, npu_swiglu), GeGLU (T5), addmm + gelu, mish/softplus, hardswish,
rotary embedding (npu_rotary_mul), residual add + activation. Graphs are small blocks of GPT-2, BERT/ViT, CLIP,
LLaMA/Qwen, T5, MobileNetV3/YOLO and a LLaMA attention prologue, traced as Inductor's post-grad graphs are."""

import importlib.util
import math
import os
import sys

import torch
import torch.nn.functional as F

import models
from cases import _c

D = "tests/oracle/public/activations/"
_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "activations")


def _ops():
    """The suite's custom ops (the module the pattern files import as `activations_ops`)."""
    if "activations_ops" in sys.modules:
        return sys.modules["activations_ops"]
    spec = importlib.util.spec_from_file_location("activations_ops", os.path.join(_HERE, "activations_ops.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["activations_ops"] = mod
    spec.loader.exec_module(mod)
    return mod


T = models._t


def _lin(x, w, b=None):
    return F.linear(x, w, b)


def _ln(x, w, b):
    return F.layer_norm(x, x.shape[-1:], w, b, 1e-5)


# ---------------------------------------------------------------------------------------------------------------
# activations as model code writes them


def new_gelu(x, c=0.044715):  # HF NewGELUActivation / GPT-2's gelu_new
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + c * torch.pow(x, 3.0))))


def fast_gelu(x):  # HF FastGELUActivation
    return 0.5 * x * (1.0 + torch.tanh(x * 0.7978845608 * (1.0 + 0.044715 * x * x)))


def bert_gelu(x):  # the original BERT gelu
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


GPT2_ACTS = {
    "new": new_gelu,
    "new0447": lambda x: new_gelu(x, 0.0447),
    "tanh_f": lambda x: F.gelu(x, approximate="tanh"),
    "none_f": lambda x: F.gelu(x),
    "fast": fast_gelu,
    "bert": bert_gelu,
}


def _gpt2_mlp(symbolic=False, dtype="f32", shape=(2, 8, 32), layers=1, act="new", outside=False):
    """outside: the first layer's torch.pow(x, 3.0) also feeds a statistics output (an intermediate with an outside
    user)."""
    """GPT-2 blocks' MLP half: ln_2, c_fc (Conv1D: addmm on a [-1, nx] view), act, c_proj, residual."""
    n = shape[-1]
    acts = [GPT2_ACTS[a] for a in (act if isinstance(act, list) else [act] * layers)]

    def conv1d(x, w, b):
        size_out = x.size()[:-1] + (w.size(-1),)
        return torch.addmm(b, x.view(-1, x.size(-1)), w).view(size_out)

    def f(x, *ps):
        h, extra = x, []
        for i, act_fn in enumerate(acts):
            lw, lb, w1, b1, w2, b2 = ps[6 * i: 6 * i + 6]
            a = conv1d(_ln(h, lw, lb), w1, b1)
            if outside and i == 0:
                cube = torch.pow(a, 3.0)
                extra.append(cube.mean())
                g = 0.5 * a * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * cube)))
            else:
                g = act_fn(a)
            h = h + conv1d(g, w2, b2)
        return (h, *extra)
    params = []
    for _ in acts:
        params += [T((n,), dtype), T((n,), dtype), T((n, 4 * n), dtype), T((4 * n,), dtype), T((4 * n, n), dtype),
                   T((n,), dtype)]
    return models._trace(f, (T(shape, dtype), *params), symbolic)


BERT_ACTS = {
    "bert": bert_gelu,
    "gelu": lambda x: F.gelu(x),
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "relu": torch.relu,
    "erf_mul": lambda x: x * 0.5 * (1.0 + torch.erf(x * 0.7071067811865476)),
}


def _bert_intermediate(symbolic=False, dtype="f32", shape=(2, 8, 32), act="bert", layers=1, bias="1d",
                       inter=None):
    """BertIntermediate + BertOutput (dense, act, dense, dropout-free residual, LayerNorm); a 2-D shape is a packed
    [tokens, hidden] batch (ViT/varlen BERT), where F.linear traces to permute + addmm."""
    n = shape[-1]
    m = inter or 4 * n
    tokens = math.prod(shape[:-1])
    b1shape = {"1d": (m,), "2d": (tokens, m)}[bias]

    def f(x, *ps):
        h = x
        for i in range(layers):
            w1, b1, w2, b2, lw, lb = ps[6 * i: 6 * i + 6]
            if bias == "2d":  # a per-token bias added by addmm (not a row)
                a = torch.addmm(b1, h, w1.t())
            else:
                a = _lin(h, w1, b1)
            a = BERT_ACTS[act](a)
            h = _ln(_lin(a, w2, b2) + h, lw, lb)
        return h
    params = []
    for _ in range(layers):
        params += [T((m, n), dtype), T(b1shape, dtype), T((n, m), dtype), T((n,), dtype), T((n,), dtype),
                   T((n,), dtype)]
    return models._trace(f, (T(shape, dtype), *params), symbolic)


CLIP_ACTS = {
    "quick": lambda x: x * torch.sigmoid(1.702 * x),
    "quick17": lambda x: x * torch.sigmoid(1.7 * x),
    "quick_rev": lambda x: torch.sigmoid(1.702 * x) * x,
    "swish1": lambda x: x * torch.sigmoid(1.0 * x),
    "silu": lambda x: F.silu(x),
    "relu": torch.relu,
}


def _clip_mlp(symbolic=False, dtype="f32", shape=(2, 8, 32), act="quick", layers=1, inter=None, beta_tensor=False):
    """CLIPMLP (fc1, activation, fc2) inside CLIPEncoderLayer's pre-norm residual."""
    n = shape[-1]
    m = inter or 4 * n

    def f(x, *ps):
        h = x
        for i in range(layers):
            lw, lb, w1, b1, w2, b2 = ps[6 * i: 6 * i + 6]
            a = _lin(_ln(h, lw, lb), w1, b1)
            if beta_tensor == "rhs":  # a learnable beta (a tensor) written after x: mul(x, beta)
                a = a * torch.sigmoid(a * ps[-1])
            elif beta_tensor:  # a learnable beta (a tensor), self.beta * x: mul(beta, x)
                a = a * torch.sigmoid(ps[-1] * a)
            else:
                a = CLIP_ACTS[act](a)
            h = h + _lin(a, w2, b2)
        return h
    params = []
    for _ in range(layers):
        params += [T((n,), dtype), T((n,), dtype), T((m, n), dtype), T((m,), dtype), T((n, m), dtype), T((n,), dtype)]
    if beta_tensor:
        params.append(T((1,), dtype))
    return models._trace(f, (T(shape, dtype), *params), symbolic)


def _llama_mlp(symbolic=False, dtype="f32", shape=(6, 32), style="merged_slice", inter=64, layers=1,
               dyn_d=False):
    """LLaMA/Qwen2 decoder MLP after the post-attention RMSNorm: separate gate/up projections (HF) or vLLM's merged
    gate_up_proj with SiluAndMul written as slices, chunk, split or narrow; then down_proj and the residual."""
    n = shape[-1]
    d = inter

    def silu_and_mul(gu):
        dd = gu.shape[-1] // 2 if dyn_d else d
        if style == "merged_slice":
            return F.silu(gu[..., :dd]) * gu[..., dd:]
        if style == "merged_chunk":
            g, u = gu.chunk(2, dim=-1)
            return F.silu(g) * u
        if style == "merged_split":
            g, u = torch.split(gu, [dd, dd], dim=-1)
            return F.silu(g) * u
        if style == "merged_narrow":
            return F.silu(gu.narrow(-1, 0, dd)) * gu.narrow(-1, dd, dd)
        if style == "merged_gelu":
            return F.gelu(gu[..., :dd]) * gu[..., dd:]
        raise KeyError(style)

    def f(x, *ps):
        h = x
        for i in range(layers):
            nw, wgu, wd = ps[3 * i: 3 * i + 3]
            a = models.llama_rmsnorm(h, nw)
            if style == "separate":
                g, u = wgu.chunk(2, dim=0)
                a = F.silu(_lin(a, g)) * _lin(a, u)
            else:
                a = silu_and_mul(_lin(a, wgu))
            h = h + _lin(a, wd)
        return h
    params = []
    for _ in range(layers):
        params += [T((n,), dtype), T((2 * d, n), dtype), T((n, d), dtype)]
    return models._trace(f, (T(shape, dtype), *params), symbolic)


T5_ACTS = {
    "new_gelu": new_gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "gelu": lambda x: F.gelu(x),
    "relu": torch.relu,
}


def _t5_ffn(symbolic=False, dtype="f32", shape=(2, 8, 32), act="gelu_tanh", inter=None, same=False,
            broadcast=False, layers=1):
    """T5LayerFF with T5DenseGatedActDense (T5 v1.1 / Flan-T5 / MT5): T5 RMSNorm, act(wi_0(h)) * wi_1(h), wo."""
    n = shape[-1]
    m = inter or 2 * n

    def f(x, *ps):
        h = x
        for i in range(layers):
            nw, w0, w1, wo = ps[4 * i: 4 * i + 4]
            a = models.t5_rmsnorm(h, nw)
            gate = _lin(a, w0)
            if same:  # gelu(gate) * gate: gate and up are one node
                up = gate
            elif broadcast:  # up is a per-channel [m] scale broadcast over tokens
                up = wo[0]
            else:
                up = _lin(a, w1)
            h = h + _lin(T5_ACTS[act](gate) * up, wo)
        return h
    params = []
    for _ in range(layers):
        params += [T((n,), dtype), T((m, n), dtype), T((m, n), dtype), T((n, m), dtype)]
    return models._trace(f, (T(shape, dtype), *params), symbolic)


CONV_ACTS = {
    "mish": lambda x: x * torch.tanh(F.softplus(x)),
    "mish_f": lambda x: F.mish(x),
    "softplus_naive": lambda x: torch.log(1.0 + torch.exp(x)),
    "softplus_log1p": lambda x: torch.log1p(torch.exp(x)),
    "hswish": lambda x: x * F.relu6(x + 3.0) / 6.0,
    "hswish_nested": lambda x: x * (F.relu6(x + 3.0) / 6.0),
    "hswish_f": lambda x: F.hardswish(x),
    "hsigmoid": lambda x: F.relu6(x + 3.0) / 6.0,
    "hswish_4": lambda x: x * F.relu6(x + 4.0) / 6.0,
    "relu": torch.relu,
}


def _conv_block(symbolic=False, dtype="f32", shape=(2, 8, 8, 8), acts=("mish",), se=False):
    """A YOLOv4 CSP / MobileNetV3 conv stack: 3x3 conv + bias, activation, repeated; se adds MobileNetV3's
    squeeze-excite gate (avg-pool, 1x1 convs, h_sigmoid) to the last block."""
    c = shape[1]

    def f(x, *ps):
        h = x
        for i, a in enumerate(acts):
            w, b = ps[2 * i: 2 * i + 2]
            h = CONV_ACTS[a](F.conv2d(h, w, b, padding=1))
        if se:
            w1, w2 = ps[-2:]
            s = F.adaptive_avg_pool2d(h, 1)
            s = F.relu6(F.conv2d(torch.relu(F.conv2d(s, w1)), w2) + 3.0) / 6.0
            h = h * s
        return h
    params = []
    for _ in acts:
        params += [T((c, c, 3, 3), dtype), T((c,), dtype)]
    if se:
        params += [T((c // 2, c, 1, 1), dtype), T((c, c // 2, 1, 1), dtype)]
    return models._trace(f, (T(shape, dtype), *params), symbolic)


def _rope_attention(symbolic=False, dtype="f16", bsz=1, seq=4, heads=2, head_dim=32, csdtype=None,
                    partial=False, k_only=False, interleave=False):
    """LlamaAttention's prologue: q/k/v projections, [b, s, h, d] -> [b, h, s, d], apply_rotary_pos_emb with
    cos/sin [b, s, d] unsqueezed at dim 1, then the scaled q @ k^T scores and softmax @ v."""
    hidden = heads * head_dim

    def rotate_half(x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def rope(x, cos, sin):
        if partial:  # GPT-NeoX rotary_pct=0.5: rotate the first half of head_dim only
            r = head_dim // 2
            xr, xp = x[..., :r], x[..., r:]
            return torch.cat((xr * cos[..., :r] + rotate_half(xr) * sin[..., :r], xp), dim=-1)
        if interleave:  # GPT-J's rotate_every_two
            x1, x2 = x[..., ::2], x[..., 1::2]
            return x * cos + torch.stack((-x2, x1), dim=-1).flatten(-2) * sin
        return (x * cos) + (rotate_half(x) * sin)

    def f(x, wq, wk, wv, cos, sin):
        b, s, _ = x.shape
        q = _lin(x, wq).view(b, s, heads, head_dim).transpose(1, 2)
        k = _lin(x, wk).view(b, s, heads, head_dim).transpose(1, 2)
        v = _lin(x, wv).view(b, s, heads, head_dim).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        if k_only:
            q_embed = q * cos
        else:
            q_embed = rope(q, cos, sin)
        k_embed = rope(k, cos, sin)
        scores = torch.matmul(q_embed, k_embed.transpose(2, 3)) / math.sqrt(head_dim)
        return torch.matmul(torch.softmax(scores.float(), dim=-1).to(q.dtype), v)
    cd = csdtype or dtype
    return models._trace(f, (T((bsz, seq, hidden), dtype), T((hidden, hidden), dtype), T((hidden, hidden), dtype),
                             T((hidden, hidden), dtype), T((bsz, seq, head_dim), cd), T((bsz, seq, head_dim), cd)),
                         symbolic)


RES_ACTS = {"relu": torch.relu, "tanh": torch.tanh, "leaky": lambda x: F.leaky_relu(x, 0.01),
            "leaky02": lambda x: F.leaky_relu(x, 0.2), "gelu": lambda x: F.gelu(x)}


def _residual_mlp(symbolic=False, dtype="f32", shape=(4, 16), acts=("relu",), shared=False, bcast=False):
    """A ResNet-style MLP stack: h = act(linear(h) + h), the residual add feeding the activation; shared keeps the
    sum as a second output (the add has an outside user); bcast adds a [hidden] bias instead of the residual."""
    n = shape[-1]

    def f(x, *ws):
        h, extra = x, []
        for a, w in zip(acts, ws):
            s = _lin(h, w) + (ws[-1] if bcast else h)
            if shared:
                extra.append(s)
            h = RES_ACTS[a](s)
        return (h, *extra)
    params = [T((n, n), dtype) for _ in acts] + ([T((n,), dtype)] if bcast else [])
    return models._trace(f, (T(shape, dtype), *params), symbolic)


# ---------------------------------------------------------------------------------------------------------------
# torch.compile captures (the inference graph aot_autograd hands the backend)


class _GPT2MLP(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.c_fc = torch.nn.Linear(n, 4 * n, dtype=dtype)
        self.c_proj = torch.nn.Linear(4 * n, n, dtype=dtype)

    def forward(self, x):
        return x + self.c_proj(new_gelu(self.c_fc(x)))


class _CLIPMLP(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.fc1 = torch.nn.Linear(n, 4 * n, dtype=dtype)
        self.fc2 = torch.nn.Linear(4 * n, n, dtype=dtype)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(h * torch.sigmoid(1.702 * h))


class _QwenMLP(torch.nn.Module):
    def __init__(self, n, dtype, inter=64):
        super().__init__()
        self.gate_up_proj = torch.nn.Linear(n, 2 * inter, bias=False, dtype=dtype)
        self.down_proj = torch.nn.Linear(inter, n, bias=False, dtype=dtype)
        self.d = inter

    def forward(self, x):
        gu = self.gate_up_proj(x)
        return self.down_proj(F.silu(gu[..., : self.d]) * gu[..., self.d:])


class _T5FF(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.wi_0 = torch.nn.Linear(n, 2 * n, bias=False, dtype=dtype)
        self.wi_1 = torch.nn.Linear(n, 2 * n, bias=False, dtype=dtype)
        self.wo = torch.nn.Linear(2 * n, n, bias=False, dtype=dtype)

    def forward(self, x):
        return x + self.wo(F.gelu(self.wi_0(x), approximate="tanh") * self.wi_1(x))


def _compiled(symbolic=False, model="gpt2", dtype="f32", shape=(2, 8, 32), dynamic=False):
    n = shape[-1]
    dt = models.DT[dtype]
    torch.manual_seed(0)
    mod = {"gpt2": _GPT2MLP, "clip": _CLIPMLP, "qwen": _QwenMLP, "t5": _T5FF}[model](n, dt)
    return models.capture(mod, (T(tuple(shape), dtype),), dynamic)


GRAPHS = {
    "activations_gpt2_mlp": _gpt2_mlp,
    "activations_bert": _bert_intermediate,
    "activations_clip_mlp": _clip_mlp,
    "activations_llama_mlp": _llama_mlp,
    "activations_t5_ffn": _t5_ffn,
    "activations_conv": _conv_block,
    "activations_rope_attn": _rope_attention,
    "activations_residual_mlp": _residual_mlp,
    "activations_compiled": _compiled,
}


# ---------------------------------------------------------------------------------------------------------------
# cases


def cases():
    out = []

    def c(cid, purpose, graph, kw, files, form="json"):
        out.append(_c("activations." + cid, purpose, "activations_" + graph, kw, [D + f for f in files], form))

    NG, GF, BE, QG, SW = "new_gelu_math.py", "gelu_fused_op.py", "bert_gelu_erf.py", "quick_gelu.py", "swish_beta.py"
    SM, SN, GG, BG = "silu_and_mul_vllm.py", "swiglu_chunk_npu.py", "geglu_t5.py", "bias_gelu_addmm.py"
    MS, HA, RN, RA = "mish_softplus.py", "hard_activations.py", "rope_npu.py", "residual_act.py"
    LM = "llama_mlp_matmul.py"
    s3, s2 = [2, 8, 32], [8, 32]

    # new_gelu_math: GPT-2's gelu_new written out
    c("ng.gpt2_f32", "GPT-2 MLP, NewGELU written out in f32: replaced by gelu(tanh)", "gpt2_mlp", {"shape": s3}, [NG])
    c("ng.gpt2_f16", "f16 GPT-2 MLP: no casts in the written-out form, the f32 pattern fires", "gpt2_mlp",
      {"dtype": "f16", "shape": s3}, [NG])
    c("ng.gpt2_bf16_readable", "bf16 GPT-2 MLP read from print_readable code", "gpt2_mlp",
      {"dtype": "bf16", "shape": s3}, [NG], "readable")
    c("ng.gpt2_two_layers", "two GPT-2 blocks: both gelu_new replaced", "gpt2_mlp", {"shape": s3, "layers": 2}, [NG])
    c("ng.gpt2_three_layers_f16_readable", "three f16 blocks from readable code", "gpt2_mlp",
      {"dtype": "f16", "shape": [1, 4, 16], "layers": 3}, [NG], "readable")
    c("ng.gpt2_2d", "packed [tokens, hidden] input", "gpt2_mlp", {"shape": s2}, [NG])
    c("ng.gpt2_symbolic", "dynamic shapes (make_fx symbolic)", "gpt2_mlp", {"shape": s3, "symbolic": True}, [NG])
    c("ng.gpt2_symbolic_f16", "dynamic shapes, f16, two layers", "gpt2_mlp",
      {"shape": [1, 4, 16], "symbolic": True, "dtype": "f16", "layers": 2}, [NG])
    c("ng.compiled_gpt2", "torch.compile capture of a GPT-2 MLP module", "compiled", {"model": "gpt2"}, [NG])
    c("ng.compiled_gpt2_dynamic", "torch.compile dynamic=True capture", "compiled",
      {"model": "gpt2", "dynamic": True}, [NG])
    c("ng.const_0447", "0.0447 instead of 0.044715: generic rejection", "gpt2_mlp",
      {"shape": s3, "act": "new0447"}, [NG])
    c("ng.f_gelu_tanh", "F.gelu(approximate='tanh') decomposes to x*x*x, not pow: no match", "gpt2_mlp",
      {"shape": s3, "act": "tanh_f"}, [NG])
    c("ng.f_gelu_none", "erf GELU against the tanh pattern: no match", "gpt2_mlp", {"shape": s3, "act": "none_f"}, [NG])
    c("ng.fast_gelu", "HF FastGELUActivation formulation: no match", "gpt2_mlp", {"shape": s3, "act": "fast"}, [NG])
    c("ng.outside_cube", "the pow(x, 3) also feeds another output: layer 1 kept, layer 2 replaced", "gpt2_mlp",
      {"shape": s3, "layers": 2, "outside": True}, [NG])
    c("ng.mixed_layers", "layer 1 gelu_new, layer 2 F.gelu tanh: one replacement", "gpt2_mlp",
      {"shape": s3, "act": ["new", "tanh_f"]}, [NG])

    # gelu_fused_op: F.gelu kept as one kernel, a functools.partial family over approximate and dtype
    c("gf.bert_f32", "BERT intermediate with F.gelu (decomposed): the f32 none pattern fires", "bert",
      {"act": "gelu", "shape": s3}, [GF])
    c("gf.bert_f16", "f16: the decomposition's casts match the f16 registration", "bert",
      {"act": "gelu", "shape": s3, "dtype": "f16"}, [GF])
    c("gf.bert_bf16", "bf16 registration", "bert", {"act": "gelu", "shape": s3, "dtype": "bf16"}, [GF])
    c("gf.bert_tanh_f32", "F.gelu tanh: the tanh member of the family", "bert",
      {"act": "gelu_tanh", "shape": s3}, [GF])
    c("gf.bert_tanh_bf16_readable", "bf16 tanh from readable code", "bert",
      {"act": "gelu_tanh", "shape": s3, "dtype": "bf16"}, [GF], "readable")
    c("gf.bert_handwritten_div", "BERT's x / math.sqrt(2.0) is a div, not the decomposition's mul: no match", "bert",
      {"act": "bert", "shape": s3}, [GF])
    c("gf.bert_erf_mul_f32", "x * 0.5 * (1 + erf(x * 0.7071...)) in f32 is the decomposition itself: fires", "bert",
      {"act": "erf_mul", "shape": s3}, [GF])
    c("gf.bert_erf_mul_f16", "the same written in f16 has no casts: the f16 registration does not match", "bert",
      {"act": "erf_mul", "shape": s3, "dtype": "f16"}, [GF])
    c("gf.gpt2_new_gelu", "gelu_new written with pow: no member matches", "gpt2_mlp", {"shape": s3}, [GF])
    c("gf.gpt2_tanh_f16_two", "two f16 GPT-2 blocks with F.gelu tanh", "gpt2_mlp",
      {"shape": s3, "dtype": "f16", "act": "tanh_f", "layers": 2}, [GF])
    c("gf.bert_symbolic", "dynamic shapes", "bert", {"act": "gelu", "shape": s3, "symbolic": True}, [GF])
    c("gf.bert_f64", "f64 graph: no casts, like the f32 registration: fires", "bert",
      {"act": "gelu", "shape": s3, "dtype": "f64"}, [GF])
    c("gf.t5_tanh_f16", "T5 gated FFN's F.gelu tanh in f16", "t5_ffn", {"dtype": "f16", "shape": s3}, [GF])
    c("gf.compiled_t5", "torch.compile capture of a T5 gated FFN", "compiled", {"model": "t5"}, [GF])
    c("gf.bert_two_layers_readable", "two BERT layers from readable code", "bert",
      {"act": "gelu", "shape": s3, "layers": 2}, [GF], "readable")

    # bert_gelu_erf: hand-written BERT gelu with an extra_check on the last dim
    c("be.bert_f32", "BERT's own gelu helper: replaced by F.gelu", "bert", {"act": "bert", "shape": s3}, [BE])
    c("be.bert_f16", "f16", "bert", {"act": "bert", "shape": s3, "dtype": "f16"}, [BE])
    c("be.bert_bf16_readable", "bf16 from readable code", "bert", {"act": "bert", "shape": s3, "dtype": "bf16"},
      [BE], "readable")
    c("be.bert_two_layers", "two layers, both replaced", "bert", {"act": "bert", "shape": s3, "layers": 2}, [BE])
    c("be.inter_36_rejected", "intermediate size 36: extra_check (last dim % 8) rejects", "bert",
      {"act": "bert", "shape": s3, "inter": 36}, [BE])
    c("be.f_gelu_no_match", "F.gelu's decomposition multiplies by 0.7071: no match", "bert",
      {"act": "gelu", "shape": s3}, [BE])
    c("be.erf_mul_no_match", "hand-written mul form: no match", "bert", {"act": "erf_mul", "shape": s3}, [BE])
    c("be.bert_symbolic", "dynamic shapes, extra_check on a symbolic size", "bert",
      {"act": "bert", "shape": s3, "symbolic": True}, [BE])
    c("be.symbolic_inter_36", "dynamic shapes, intermediate 36: extra_check rejects", "bert",
      {"act": "bert", "shape": s3, "symbolic": True, "inter": 36}, [BE])
    c("be.gpt2_f16_2d", "GPT-2 Conv1D MLP with the BERT gelu, packed f16", "gpt2_mlp",
      {"act": "bert", "shape": s2, "dtype": "f16"}, [BE])
    c("be.bert_packed", "packed [tokens, hidden] BERT", "bert", {"act": "bert", "shape": s2}, [BE])
    c("be.then_fused_op", "bert_gelu_erf then gelu_fused_op: one sweep, new nodes not re-anchored", "bert",
      {"act": "bert", "shape": s3}, [BE, GF])

    # quick_gelu: CLIP
    c("qg.clip_f32", "CLIP MLP quick_gelu in f32: replaced (extra_check passes)", "clip_mlp", {"shape": s3}, [QG])
    c("qg.clip_f16", "f16: the bf16-traced pattern has no casts, fires", "clip_mlp", {"shape": s3, "dtype": "f16"},
      [QG])
    c("qg.clip_bf16_readable", "bf16 readable", "clip_mlp", {"shape": s3, "dtype": "bf16"}, [QG], "readable")
    c("qg.clip_two_layers", "two encoder layers", "clip_mlp", {"shape": s3, "layers": 2}, [QG])
    c("qg.inter_40_rejected", "intermediate 40: extra_check (last dim % 16) rejects", "clip_mlp",
      {"shape": s3, "inter": 40}, [QG])
    c("qg.const_1_7", "sigmoid(1.7 * x): a different constant", "clip_mlp", {"shape": s3, "act": "quick17"}, [QG])
    c("qg.operands_swapped", "sigmoid(1.702 x) * x: mul's operands in the other order", "clip_mlp",
      {"shape": s3, "act": "quick_rev"}, [QG])
    c("qg.silu", "F.silu: decomposed, no match", "clip_mlp", {"shape": s3, "act": "silu"}, [QG])
    c("qg.swish_1", "x * sigmoid(1.0 * x): no match", "clip_mlp", {"shape": s3, "act": "swish1"}, [QG])
    c("qg.clip_symbolic", "dynamic shapes", "clip_mlp", {"shape": s3, "symbolic": True}, [QG])
    c("qg.compiled_clip", "torch.compile capture of CLIPMLP", "compiled", {"model": "clip"}, [QG])
    c("qg.compiled_clip_dynamic", "torch.compile dynamic=True capture of CLIPMLP", "compiled",
      {"model": "clip", "dynamic": True}, [QG])
    c("qg.clip_packed_f16_readable", "packed f16 readable", "clip_mlp", {"shape": s2, "dtype": "f16"}, [QG],
      "readable")

    # swish_beta: scalar_workaround
    c("sw.clip_quick", "beta binds 1.702", "clip_mlp", {"shape": s3}, [SW])
    c("sw.swish_1", "beta binds 1.0", "clip_mlp", {"shape": s3, "act": "swish1"}, [SW])
    c("sw.const_1_7", "beta binds 1.7", "clip_mlp", {"shape": s3, "act": "quick17"}, [SW])
    c("sw.operands_swapped", "sigmoid(b x) * x: no match", "clip_mlp", {"shape": s3, "act": "quick_rev"}, [SW])
    c("sw.beta_tensor", "self.beta * x with a tensor beta: mul's operands in the other order, no match", "clip_mlp",
      {"shape": s3, "beta_tensor": True}, [SW])
    c("sw.beta_tensor_rhs", "x * sigmoid(x * beta_tensor): beta binds a tensor node, the replacement wants a float",
      "clip_mlp", {"shape": s3, "beta_tensor": "rhs"}, [SW])
    c("sw.silu", "F.silu's decomposition: no match", "clip_mlp", {"shape": s3, "act": "silu"}, [SW])
    c("sw.clip_f16_readable", "f16 readable", "clip_mlp", {"shape": s3, "dtype": "f16"}, [SW], "readable")
    c("sw.quick_then_swish", "quick_gelu registered first: it takes the match", "clip_mlp", {"shape": s3}, [QG, SW])
    c("sw.swish_then_quick", "swish registered first: it takes the match", "clip_mlp", {"shape": s3}, [SW, QG])
    c("sw.symbolic", "dynamic shapes", "clip_mlp", {"shape": s3, "symbolic": True, "act": "swish1"}, [SW])
    c("sw.bf16_two_layers", "bf16, two layers", "clip_mlp", {"shape": s3, "dtype": "bf16", "layers": 2}, [SW])

    # silu_and_mul_vllm
    c("sm.qwen_f32", "vLLM merged gate_up with SiluAndMul slices: fires", "llama_mlp", {"shape": [6, 32]}, [SM])
    c("sm.qwen_f16", "f16 (the decomposition's casts)", "llama_mlp", {"shape": [6, 32], "dtype": "f16"}, [SM])
    c("sm.qwen_bf16_128", "bf16, intermediate 128", "llama_mlp", {"shape": [6, 32], "dtype": "bf16", "inter": 128},
      [SM])
    c("sm.inter_96", "intermediate 96: no registration has its slice bounds", "llama_mlp",
      {"shape": [6, 32], "inter": 96}, [SM])
    c("sm.three_d", "3-D input: slice dims are ints, ignored generically; the 3-D re-trace matches", "llama_mlp", {"shape": [2, 3, 32]}, [SM])
    c("sm.chunk", "chunk(2, -1) instead of slices: no match", "llama_mlp",
      {"shape": [6, 32], "style": "merged_chunk"}, [SM])
    c("sm.narrow", "narrow(-1, d, d) ends at 2d, not INT64_MAX: no match", "llama_mlp",
      {"shape": [6, 32], "style": "merged_narrow"}, [SM])
    c("sm.separate", "HF LLaMA's separate gate/up projections: no match", "llama_mlp",
      {"shape": [6, 32], "style": "separate"}, [SM])
    c("sm.gelu_and_mul", "gelu instead of silu: no match", "llama_mlp", {"shape": [6, 32], "style": "merged_gelu"},
      [SM])
    c("sm.two_layers_f16", "two f16 layers", "llama_mlp", {"shape": [6, 32], "dtype": "f16", "layers": 2}, [SM])
    c("sm.symbolic_static_d", "dynamic shapes, literal d in the model code: fires", "llama_mlp",
      {"shape": [6, 32], "symbolic": True}, [SM])
    c("sm.symbolic_dynamic_d", "dynamic shapes, d = x.shape[-1] // 2 is symbolic: no match", "llama_mlp",
      {"shape": [6, 32], "symbolic": True, "dyn_d": True}, [SM])
    c("sm.compiled_qwen", "torch.compile capture of a Qwen2 MLP on [tokens, hidden]", "compiled",
      {"model": "qwen", "shape": [6, 32]}, [SM])
    c("sm.qwen_f16_readable", "f16 from readable code", "llama_mlp", {"shape": [6, 32], "dtype": "f16"}, [SM],
      "readable")

    # swiglu_chunk_npu
    c("sn.chunk_f16", "chunk(2, -1) SwiGLU, f16: npu_swiglu", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_chunk"}, [SN])
    c("sn.split_f16", "torch.split([d, d]) SwiGLU, f16", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_split"}, [SN])
    c("sn.chunk_f16_3d", "3-D input: chunk keeps dim -1, fires", "llama_mlp",
      {"shape": [2, 3, 32], "dtype": "f16", "style": "merged_chunk"}, [SN])
    c("sn.chunk_bf16", "bf16: dtypes are ignored generically and the re-trace is in bf16: fires", "llama_mlp",
      {"shape": [6, 32], "dtype": "bf16", "style": "merged_chunk"}, [SN])
    c("sn.chunk_f32", "f32: no casts at all", "llama_mlp", {"shape": [6, 32], "style": "merged_chunk"}, [SN])
    c("sn.inter_24_rejected", "d = 24 f16: 48 bytes per half, extra_check rejects", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_chunk", "inter": 24}, [SN])
    c("sn.split_inter_24_raises", "split form, d = 24: ints are ignored generically, the d=64 re-trace splits 48 "
      "into [64, 64] and Inductor's pass raises", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_split", "inter": 24}, [SN])
    c("sn.slices", "vLLM's slices: no match", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_slice"}, [SN])
    c("sn.separate", "separate projections: no match", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate"}, [SN])
    c("sn.chunk_symbolic", "dynamic shapes: chunk's split size is symbolic", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_chunk", "symbolic": True}, [SN])
    c("sn.split_f16_readable", "split form from readable code", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_split"}, [SN], "readable")
    c("sn.chunk_two_layers", "two layers", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_chunk", "layers": 2}, [SN])
    c("sn.with_silu_mul", "vLLM's and vLLM-Ascend's passes together on slices", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_slice"}, [SM, SN])
    c("sn.chunk_inter_128", "d = 128: split sizes are ignored generically, the re-trace at 128 matches: fires", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_chunk", "inter": 128}, [SN])

    # geglu_t5
    c("gg.t5_tanh_f32", "T5 gated-gelu FFN, F.gelu tanh: gelu_and_mul", "t5_ffn", {"shape": s3}, [GG])
    c("gg.t5_tanh_f16", "f16", "t5_ffn", {"shape": s3, "dtype": "f16"}, [GG])
    c("gg.t5_none_f32", "F.gelu (erf): the none member", "t5_ffn", {"shape": s3, "act": "gelu"}, [GG])
    c("gg.t5_tanh_bf16", "bf16 (not registered): dtypes ignored, the bf16 re-trace matches", "t5_ffn", {"shape": s3, "dtype": "bf16"}, [GG])
    c("gg.t5_new_gelu", "gelu_new written with pow: no match", "t5_ffn", {"shape": s3, "act": "new_gelu"}, [GG])
    c("gg.same_node", "gelu(gate) * gate: exclusive_arg_names rejects", "t5_ffn", {"shape": s3, "same": True}, [GG])
    c("gg.broadcast_up", "up is a broadcast [m] scale: extra_check rejects", "t5_ffn",
      {"shape": s3, "broadcast": True}, [GG])
    c("gg.relu", "T5 v1.0 relu FFN: no match", "t5_ffn", {"shape": s3, "act": "relu"}, [GG])
    c("gg.symbolic", "dynamic shapes", "t5_ffn", {"shape": s3, "symbolic": True}, [GG])
    c("gg.two_layers_f16_readable", "two f16 layers from readable code", "t5_ffn",
      {"shape": s3, "dtype": "f16", "layers": 2}, [GG], "readable")
    c("gg.compiled_t5", "torch.compile capture of T5DenseGatedActDense", "compiled", {"model": "t5"}, [GG])
    c("gg.compiled_t5_dynamic", "torch.compile dynamic=True capture", "compiled", {"model": "t5", "dynamic": True},
      [GG])
    c("gg.new_gelu_then_geglu", "gelu_new replaced by new_gelu_math, geglu's anchor seen before", "t5_ffn",
      {"shape": s3, "act": "new_gelu"}, [NG, GG])
    c("gg.t5_2d", "packed 2-D T5 FFN", "t5_ffn", {"shape": s2}, [GG])

    # bias_gelu_addmm
    c("bg.vit_f32", "packed ViT/BERT intermediate: gelu(addmm) fused", "bert", {"act": "gelu", "shape": s2}, [BG])
    c("bg.vit_f16", "f16", "bert", {"act": "gelu", "shape": s2, "dtype": "f16"}, [BG])
    c("bg.vit_tanh_bf16", "bf16 tanh", "bert", {"act": "gelu_tanh", "shape": s2, "dtype": "bf16"}, [BG])
    c("bg.three_d", "3-D input: a view between addmm and gelu, no match", "bert", {"act": "gelu", "shape": s3}, [BG])
    c("bg.bias_2d_rejected", "a per-token [m, n] bias: extra_check rejects", "bert",
      {"act": "gelu", "shape": s2, "bias": "2d"}, [BG])
    c("bg.handwritten", "BERT's hand-written gelu: no match", "bert", {"act": "bert", "shape": s2}, [BG])
    c("bg.relu", "relu intermediate: no match", "bert", {"act": "relu", "shape": s2}, [BG])
    c("bg.symbolic", "dynamic shapes", "bert", {"act": "gelu", "shape": s2, "symbolic": True}, [BG])
    c("bg.two_layers_f16_readable", "two f16 layers from readable code", "bert",
      {"act": "gelu", "shape": s2, "dtype": "f16", "layers": 2}, [BG], "readable")
    c("bg.erf_mul", "hand-written mul form equals the decomposition in f32: fires", "bert",
      {"act": "erf_mul", "shape": s2}, [BG])
    c("bg.gpt2_conv1d_views", "GPT-2 Conv1D: views around addmm, no match", "gpt2_mlp",
      {"act": "none_f", "shape": s2}, [BG])
    c("bg.then_fused_op", "bias_gelu_addmm and gelu_fused_op on one anchor: registration order", "bert",
      {"act": "gelu", "shape": s2}, [BG, GF])
    c("bg.fused_op_first", "gelu_fused_op first", "bert", {"act": "gelu", "shape": s2}, [GF, BG])

    # mish_softplus
    c("ms.conv_mish", "YOLOv4 conv + mish: fused", "conv", {"acts": ["mish"]}, [MS])
    c("ms.conv_mish_f16", "f16 mish: softplus' decomposition casts, no match", "conv", {"acts": ["mish"], "dtype": "f16"}, [MS])
    c("ms.conv_f_mish", "F.mish's own decomposition", "conv", {"acts": ["mish_f"]}, [MS])
    c("ms.softplus_naive", "log(1 + exp(x)): replaced by F.softplus", "conv", {"acts": ["softplus_naive"]}, [MS])
    c("ms.softplus_log1p", "log1p(exp(x)): no match", "conv", {"acts": ["softplus_log1p"]}, [MS])
    c("ms.three_mish", "three conv + mish blocks", "conv", {"acts": ["mish", "mish", "mish"]}, [MS])
    c("ms.symbolic", "dynamic shapes", "conv", {"acts": ["mish"], "symbolic": True}, [MS])
    c("ms.bf16_readable", "bf16 from readable code", "conv", {"acts": ["mish"], "dtype": "bf16"}, [MS], "readable")
    c("ms.relu", "relu: no match", "conv", {"acts": ["relu"]}, [MS])
    c("ms.mixed", "naive softplus then mish", "conv", {"acts": ["softplus_naive", "mish"]}, [MS])
    c("ms.mixed_readable", "naive softplus, relu, mish from readable code", "conv",
      {"acts": ["softplus_naive", "relu", "mish"]}, [MS], "readable")

    # hard_activations
    c("ha.hswish", "MobileNetV3 h_swish: hardswish", "conv", {"acts": ["hswish"]}, [HA])
    c("ha.hswish_nested", "x * h_sigmoid(x): the nested registration (or h_sigmoid first)", "conv",
      {"acts": ["hswish_nested"]}, [HA])
    c("ha.hsigmoid", "h_sigmoid alone", "conv", {"acts": ["hsigmoid"]}, [HA])
    c("ha.f_hardswish", "F.hardswish's decomposition", "conv", {"acts": ["hswish_f"]}, [HA])
    c("ha.plus_4", "relu6(x + 4): no match", "conv", {"acts": ["hswish_4"]}, [HA])
    c("ha.se_block", "h_swish blocks and the squeeze-excite h_sigmoid gate", "conv",
      {"acts": ["hswish", "hswish"], "se": True}, [HA])
    c("ha.f16", "f16: relu6's decomposition casts to f32, the f32 patterns do not match", "conv", {"acts": ["hswish"], "dtype": "f16"}, [HA])
    c("ha.bf16_readable", "bf16 (casts, no match) from readable code", "conv", {"acts": ["hswish", "hsigmoid"], "dtype": "bf16"}, [HA],
      "readable")
    c("ha.symbolic", "dynamic shapes", "conv", {"acts": ["hswish"], "symbolic": True}, [HA])
    c("ha.mixed", "h_swish, h_sigmoid, nested h_swish", "conv", {"acts": ["hswish", "hsigmoid", "hswish_nested"]},
      [HA])
    c("ha.relu", "relu: no match", "conv", {"acts": ["relu"]}, [HA])

    # rope_npu
    c("rn.llama_f16_32", "LLaMA attention prologue, head_dim 32: q and k to npu_rotary_mul", "rope_attn", {}, [RN])
    c("rn.llama_f16_64", "head_dim 64", "rope_attn", {"head_dim": 64}, [RN])
    c("rn.head_dim_128", "head_dim 128 (not registered): ints ignored, the re-trace at 128 matches", "rope_attn", {"head_dim": 128}, [RN])
    c("rn.bf16", "bf16 graph: no casts in either, dtypes agree: fires", "rope_attn", {"dtype": "bf16"}, [RN])
    c("rn.f32", "f32 graph", "rope_attn", {"dtype": "f32"}, [RN])
    c("rn.cos_f32_rejected", "f32 cos/sin with f16 q/k: extra_check rejects", "rope_attn", {"csdtype": "f32"}, [RN])
    c("rn.partial_rotary", "GPT-NeoX partial rotary: the pattern matches on the rotated halves", "rope_attn", {"partial": True}, [RN])
    c("rn.k_only", "only k rotated: q and k both bind k (no exclusive_arg_names), fires once", "rope_attn", {"k_only": True}, [RN])
    c("rn.interleave", "GPT-J rotate_every_two: no match", "rope_attn", {"interleave": True}, [RN])
    c("rn.symbolic", "dynamic shapes", "rope_attn", {"symbolic": True}, [RN])
    c("rn.readable", "from readable code", "rope_attn", {}, [RN], "readable")
    c("rn.batch2_seq8", "batch 2, 8 positions, 4 heads", "rope_attn", {"bsz": 2, "seq": 8, "heads": 4}, [RN])
    c("rn.bf16_64_readable", "bf16 head_dim 64 from readable code", "rope_attn", {"dtype": "bf16", "head_dim": 64},
      [RN], "readable")

    # residual_act
    c("ra.relu", "relu(linear(h) + h): add_relu", "residual_mlp", {"acts": ["relu", "relu"]}, [RA])
    c("ra.tanh", "tanh(x + residual)", "residual_mlp", {"acts": ["tanh"]}, [RA])
    c("ra.leaky", "leaky_relu 0.01 (Ignored() slope)", "residual_mlp", {"acts": ["leaky"]}, [RA])
    c("ra.leaky_0_2", "leaky_relu 0.2: Ignored() matches and the 0.01 kernel replaces it (outputs differ, as in Inductor)", "residual_mlp",
      {"acts": ["leaky02"]}, [RA])
    c("ra.shared_sum", "the sum is also an output: _users=1 rejects", "residual_mlp",
      {"acts": ["relu"], "shared": True}, [RA])
    c("ra.bias_bcast", "a broadcast [hidden] bias as the residual", "residual_mlp", {"acts": ["relu"], "bcast": True},
      [RA])
    c("ra.f16", "f16", "residual_mlp", {"acts": ["relu", "tanh"], "dtype": "f16"}, [RA])
    c("ra.symbolic", "dynamic shapes", "residual_mlp", {"acts": ["relu", "leaky"], "symbolic": True}, [RA])
    c("ra.readable", "from readable code", "residual_mlp", {"acts": ["tanh", "relu"]}, [RA], "readable")
    c("ra.mixed", "relu, tanh, leaky, gelu", "residual_mlp", {"acts": ["relu", "tanh", "leaky", "gelu"]}, [RA])
    c("ra.bf16_leaky", "bf16 leaky_relu", "residual_mlp", {"acts": ["leaky"], "dtype": "bf16"}, [RA])
    c("ra.three_d", "3-D [b, s, h] input", "residual_mlp", {"acts": ["relu"], "shape": [2, 3, 16]}, [RA])

    # llama_mlp_matmul (TorchAir)
    c("lm.separate_f16", "HF LLaMA MLP on [tokens, hidden], f16: merged matmul + npu_swiglu", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate"}, [LM])
    c("lm.separate_f32", "f32: the f32 registration", "llama_mlp", {"shape": [6, 32], "style": "separate"}, [LM])
    c("lm.separate_bf16", "bf16 (not registered): dtypes ignored generically, the bf16 re-trace matches", "llama_mlp",
      {"shape": [6, 32], "dtype": "bf16", "style": "separate"}, [LM])
    c("lm.three_d", "3-D input: matmul becomes view/mm/view, no match", "llama_mlp",
      {"shape": [2, 3, 32], "dtype": "f16", "style": "separate"}, [LM])
    c("lm.merged_slice", "vLLM's merged gate_up: no match", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_slice"}, [LM])
    c("lm.symbolic", "dynamic shapes: rejected at the re-trace", "llama_mlp", {"shape": [6, 32], "dtype": "f16", "style": "separate",
                                                     "symbolic": True}, [LM])
    c("lm.two_layers_readable", "two f16 layers from readable code", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate", "layers": 2}, [LM], "readable")
    c("lm.two_layers", "two f16 layers", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate", "layers": 2}, [LM])
    c("lm.separate_f16_readable", "one f16 layer from readable code", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate"}, [LM], "readable")
    c("lm.merged_slice_readable", "merged gate_up from readable code: no match", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "merged_slice"}, [LM], "readable")
    c("sm.separate_readable", "separate projections (a chunked weight) from readable code: no match", "llama_mlp",
      {"shape": [6, 32], "style": "separate"}, [SM], "readable")
    c("lm.inter_96", "intermediate 96", "llama_mlp",
      {"shape": [6, 32], "dtype": "f16", "style": "separate", "inter": 96}, [LM])
    return out
