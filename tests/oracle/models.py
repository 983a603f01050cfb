"""Graphs for the oracle: small real models traced as users' dumps are made (make_fx with Inductor's decompositions,
as the post-grad/TorchAir graphs are; torch.compile with fxscope_capture's backend, dynamic=True for symbolic
shapes). build(name, **kw) returns a GraphModule with meta["val"]; torch.ops.npu.* are the npu_ops stand-ins."""

import os
import tempfile

import torch
import torch.nn.functional as F
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

from fxscope_capture import _torch_graph, npu_ops

INT64_MAX = 9223372036854775807
DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
      "c64": torch.complex64}


def _t(shape, dtype="f32", device="cpu"):
    return torch.randn(shape, dtype=torch.float32).to(DT[dtype]).to(device) if dtype != "c64" else torch.randn(
        shape, dtype=torch.complex64, device=device)


def _trace(fn, args, symbolic=False):
    mode = "symbolic" if symbolic else "fake"
    gm = make_fx(fn, select_decomp_table(), tracing_mode=mode)(*args)
    # Graphs users dump went through AOT autograd, which leaves no dead code (unused getitems of multi-output ops).
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


# --------------------------------------------------------------------------------------------------------------
# model functions


def llama_rmsnorm(h, w, eps=1e-6):
    dtype = h.dtype
    hf = h.to(torch.float32)
    var = hf.pow(2).mean(-1, keepdim=True)
    hf = hf * torch.rsqrt(var + eps)
    return w * hf.to(dtype)


def t5_rmsnorm(h, w, eps=1e-6):
    var = h.to(torch.float32).pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(var + eps)
    if w.dtype in (torch.float16, torch.bfloat16):
        h = h.to(w.dtype)
    return w * h


def rotate_half(x):
    d = x.shape[-1]
    return torch.cat((-x[..., d // 2:], x[..., : d // 2]), dim=-1)


def build(name, symbolic=False, **kw):
    dtype = kw.get("dtype", "f32")
    shape = tuple(kw.get("shape", (2, 4, 16)))
    npu_ops.define_known_ops()
    _torch_graph.define_stand_in_ops()

    if name == "llama_rmsnorm":
        eps = kw.get("eps", 1e-6)
        outside = kw.get("outside_user", False)

        def f(x, w):
            y = llama_rmsnorm(x, w, eps)
            if outside:  # the f32 upcast also feeds another output: an intermediate with an outside user
                return y, x.to(torch.float32).sum(-1)
            return y
        return _trace(f, (_t(shape, dtype), _t(shape[-1:], dtype)), symbolic)

    if name == "residual_rmsnorm":
        def f(x, r, w):
            h = x + r
            return llama_rmsnorm(h, w), h
        return _trace(f, (_t(shape, dtype), _t(shape, dtype), _t(shape[-1:], dtype)), symbolic)

    if name == "t5_rmsnorm":
        return _trace(lambda x, w: t5_rmsnorm(x, w, kw.get("eps", 1e-6)),
                      (_t(shape, dtype), _t(shape[-1:], kw.get("wdtype", dtype))), symbolic)

    if name == "t5_stack":  # MT5-like: several T5 norms and residual adds
        n = kw.get("layers", 3)

        def f(x, *ws):
            h = x
            for w in ws:
                h = h + torch.relu(t5_rmsnorm(h, w))
            return h
        return _trace(f, (_t(shape, dtype),) + tuple(_t(shape[-1:], dtype) for _ in range(n)), symbolic)

    if name == "add_npu_rmsnorm":
        def f(a, b, g):
            x = a + b
            y, _ = torch.ops.npu.npu_rms_norm(x, g)
            if kw.get("interleave"):  # an unrelated node between the two outputs
                z = torch.relu(a)
                return y, x, z
            return y, x
        return _trace(f, (_t(shape, dtype), _t(shape, dtype), _t(shape[-1:], dtype)), symbolic)

    if name == "npu_add_rms_norm_cast":
        def f(a, b, g):
            y, _, x = torch.ops.npu.npu_add_rms_norm(a, b, g)
            return y.to(torch.float32).view(-1, y.size(-1)), x
        return _trace(f, (_t(shape, dtype), _t(shape, dtype), _t(shape[-1:], dtype)), symbolic)

    if name == "swiglu":
        def f(g, u):
            return F.silu(g) * u
        ushape = (shape[-1],) if kw.get("broadcast") else shape
        return _trace(f, (_t(shape, dtype), _t(ushape, dtype)), symbolic)

    if name == "gelu_tanh":
        def f(x):
            return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * torch.pow(x, 3.0))))
        return _trace(f, (_t(shape, dtype),), symbolic)

    if name == "gelu_erf":
        def f(x):
            return 0.5 * x * (1.0 + torch.erf(x * 0.7071067811865476))
        return _trace(f, (_t(shape, dtype),), symbolic)

    if name == "rotary":
        hd = kw.get("head_dim", 64)
        b, n, s = kw.get("bns", (1, 2, 4))

        def f(q, k, cos, sin):
            return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        qs, cs = (b, n, s, hd), (1, 1, s, hd)
        return _trace(f, (_t(qs, dtype), _t(qs, dtype), _t(cs, kw.get("csdtype", dtype)),
                          _t(cs, kw.get("csdtype", dtype))), symbolic)

    if name == "linear_bias":
        m, k, n = kw.get("mkn", (8, 16, 32))
        bshape = {"1d": (n,), "2d": (m, n), "row": (1, n), "col": (m, 1)}[kw.get("bias", "1d")]

        def f(a, w, bias):
            return torch.mm(a, w) + bias
        return _trace(f, (_t((m, k), dtype), _t((k, n), dtype), _t(bshape, kw.get("bdtype", dtype))), symbolic)

    if name == "add_scalar":
        vals = kw.get("values", [0.5])

        def f(x):
            for v in vals:
                x = torch.relu(x + v)
            return x
        return _trace(f, (_t(shape, dtype),), symbolic)

    if name == "cumsum_scale":
        def f(x):
            return torch.cumsum(x, -1, dtype=DT[kw.get("to", "f32")]) * 2.0
        return _trace(f, (_t(shape, dtype),), symbolic)

    if name == "mul_add":
        dev = kw.get("device", "cpu")

        def f(x, y, z):
            if kw.get("same"):
                return x * x + z
            if kw.get("scalar"):  # y binds the literal (HRNet's momentum updates: running * 0.9 + batch * 0.1)
                return x * kw["scalar"] + z
            return x * y + z
        return _trace(f, (_t(shape, dtype, dev), _t(shape, dtype, dev), _t(shape, dtype, dev)), symbolic)

    if name == "mul_add_mutation":
        def f(x, y, z):
            p = x * y
            z.add_(1.0)  # an in-place op between the two pattern nodes: a new mutation region
            return p + z
        return make_fx(f, tracing_mode="fake")(_t(shape), _t(shape), _t(shape))

    if name == "torchair_add_rms_norm_cast":  # as TorchAir's AOT graphs have it: no Inductor decompositions
        eps = kw.get("epsilon")

        def f(a, b, g):
            y, _, x = torch.ops.npu.npu_add_rms_norm(a, b, g) if eps is None else \
                torch.ops.npu.npu_add_rms_norm(a, b, g, eps)
            c = y.view(-1, y.size(-1)) if kw.get("view", True) else y
            c = torch.ops.npu._npu_dtype_cast(c, torch.float32) if kw.get("npu_cast") else c.to(torch.float32)
            if kw.get("y_output", True):  # y's second user, as TorchAir's pattern wants (_users=2)
                return c, x, torch.relu(y)
            return c, x
        args = (_t(shape, dtype), _t(shape, dtype), _t(shape[-1:], dtype))
        gm = make_fx(f, tracing_mode="symbolic" if symbolic else "fake")(*args)
        gm.graph.eliminate_dead_code()
        gm.recompile()
        return gm

    if name == "torchair_add_rms_norm_dynamic_quant":  # add_rms_norm + per-token int8 quant, as DeepSeek has it
        def f(a, b, g, s):
            y, _, x = torch.ops.npu.npu_add_rms_norm(a, b, g)
            if kw.get("flatten"):  # TorchAir's second form: quantized as rows of a [-1, h] view
                q, scale = torch.ops.npu.npu_dynamic_quant(y.view(y.size(0) * y.size(1), y.size(-1)))
                return q, scale.view(-1, 1), x
            q, scale = torch.ops.npu.npu_dynamic_quant(y, smooth_scales=s)
            return q, x, scale
        args = (_t(shape, dtype), _t(shape, dtype), _t(shape[-1:], dtype), _t(shape[-1:], dtype))
        gm = make_fx(f, tracing_mode="fake")(*args)
        gm.graph.eliminate_dead_code()
        gm.recompile()
        return gm

    if name == "noop_slice_mul_add":  # a full slice between the pattern nodes: TorchAir's remove_noop_ops drops it
        def f(x, y, z):
            return torch.ops.aten.slice.Tensor(x * y, 0, 0, 9223372036854775807) + z
        return make_fx(f, tracing_mode="fake")(_t(shape), _t(shape), _t(shape))

    if name == "scatter_view_copy":  # an in-place npu scatter into an input view, as functionalization leaves it
        def f(cache, idx, upd, z):
            s = torch.ops.npu.scatter_update(cache.view(2, 4, 8), idx, upd, 1)
            w = s.view(8, 8)
            cache.copy_(w)
            return w * w + z
        return make_fx(f, tracing_mode="fake")(_t((8, 8)), torch.tensor([0, 2]), _t((2, 2, 8)), _t((8, 8)))

    if name == "mul_add_scopes":
        keys = kw.get("keys", ["_user_stream_label"])

        def f(x, y, z):
            p = x * y
            torch.ops.air.scope_enter(keys, ["stream1"] * len(keys))
            r = p + z
            torch.ops.air.scope_exit()
            return r
        return make_fx(f, tracing_mode="fake")(_t(shape), _t(shape), _t(shape))

    if name == "sin_cos_chain":
        def f(x):
            a = torch.sin(x)
            return torch.cos(a), a * 0.0
        return _trace(f, (_t(shape, dtype),), symbolic)

    if name == "tanh_mul":
        return _trace(lambda x, y: torch.tanh(x) * y, (_t(shape, dtype), _t(shape, dtype)), symbolic)

    if name == "square_sum":
        return _trace(lambda x: torch.square(x).reshape(-1).sum(), (_t(shape, dtype),), symbolic)

    if name == "softmax_ln":
        def f(x, w, b):
            return torch.softmax(x * 0.125, -1), torch.relu(F.layer_norm(x, [x.shape[-1]], w, b, 1e-5))
        return _trace(f, (_t(shape, dtype), _t(shape[-1:], dtype), _t(shape[-1:], dtype)), symbolic)

    if name == "llama_block":
        hidden, heads = kw.get("hidden", 32), kw.get("heads", 2)
        hd = hidden // heads
        seq = kw.get("seq", 4)

        def f(x, res, w_norm, wq, wk, wg, wu, wd, w_norm2, cos, sin):
            h = x + res
            n = llama_rmsnorm(h, w_norm)
            q = (n @ wq).view(1, seq, heads, hd).transpose(1, 2)
            k = (n @ wk).view(1, seq, heads, hd).transpose(1, 2)
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
            a = (q @ k.transpose(-1, -2)).softmax(-1) @ q
            h2 = h + a.transpose(1, 2).reshape(1, seq, hidden)
            n2 = llama_rmsnorm(h2, w_norm2)
            mlp = (F.silu(n2 @ wg) * (n2 @ wu)) @ wd
            return h2 + mlp
        ff = hidden * 2
        args = (_t((1, seq, hidden), dtype), _t((1, seq, hidden), dtype), _t((hidden,), dtype),
                _t((hidden, hidden), dtype), _t((hidden, hidden), dtype), _t((hidden, ff), dtype),
                _t((hidden, ff), dtype), _t((ff, hidden), dtype), _t((hidden,), dtype),
                _t((1, 1, seq, hd), dtype), _t((1, 1, seq, hd), dtype))
        return _trace(f, args, symbolic)

    if name == "corpus":  # a corpus dump as fxscope-cli reads it (the oracle checks torch rebuilds it)
        import subprocess
        from cases import CORPUS
        src = os.path.join(CORPUS, kw["file"])
        out = os.path.join(tempfile.mkdtemp(prefix="fxscope_oracle_corpus_"), "graph.json")
        subprocess.run([os.environ["FXSCOPE_ORACLE_CLI"], "convert", src, "-o", out], check=True,
                       capture_output=True, timeout=120)
        return out

    if name.startswith("compiled_"):
        return _compiled(name[len("compiled_"):], kw)

    import public  # the public-style suites' graphs (public/__init__.py)
    builder, _ = public.graph_builder(name)
    if builder is not None:
        return builder(symbolic=symbolic, **kw)
    raise KeyError(f"unknown oracle model {name}")


class _Norm(torch.nn.Module):
    def __init__(self, n, dtype, t5=False):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n).to(dtype))
        self.t5 = t5

    def forward(self, x):
        return t5_rmsnorm(x, self.weight) if self.t5 else llama_rmsnorm(x, self.weight)


class _Mlp(torch.nn.Module):
    def __init__(self, n, dtype):
        super().__init__()
        self.norm = _Norm(n, dtype)
        self.gate = torch.nn.Linear(n, 2 * n, bias=False, dtype=dtype)
        self.up = torch.nn.Linear(n, 2 * n, bias=False, dtype=dtype)
        self.down = torch.nn.Linear(2 * n, n, bias=True, dtype=dtype)

    def forward(self, x, r):
        h = x + r
        n = self.norm(h)
        return h + self.down(F.silu(self.gate(n)) * self.up(n))


def _compiled(what, kw):
    """The inference graph aot_autograd hands the compiler (what TorchAir's pattern pass sees), as
    fxscope_capture.backend writes it; returns the fxscope JSON document path's graph loaded back."""
    dtype = DT[kw.get("dtype", "f32")]
    n = kw.get("hidden", 16)
    shape = tuple(kw.get("shape", (2, 4, n)))
    if what == "mlp":
        model = _Mlp(n, dtype)
        args = (_t(shape, kw.get("dtype", "f32")), _t(shape, kw.get("dtype", "f32")))
    elif what in ("norm", "t5norm"):
        model = _Norm(n, dtype, t5=what == "t5norm")
        args = (_t(shape, kw.get("dtype", "f32")),)
    else:
        raise KeyError(what)
    return capture(model, args, kw.get("dynamic", False))


def capture(module, args, dynamic=False):
    """`module(*args)` through torch.compile with fxscope_capture's backend (Inductor's decompositions): the path of
    the fxscope JSON document of the graph aot_autograd hands the compiler (every suite's captures come here)."""
    import fxscope_capture
    out = tempfile.mkdtemp(prefix="fxscope_oracle_compile_")
    torch._dynamo.reset()
    with torch.no_grad():
        compiled = torch.compile(module, backend=fxscope_capture.backend(out, decompositions=select_decomp_table(),
                                                                         save_tensors=False), dynamic=dynamic)
        compiled(*args)
    docs = sorted(f for f in os.listdir(out) if f.endswith(".json"))
    return os.path.join(out, docs[0])
