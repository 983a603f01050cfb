"""The fused kernels of the quant suite, as a serving engine's csrc ops look from Python (vLLM's torch.ops._C,
torchao's custom ops): some defined with torch.library.custom_op, some with torch.library.Library + impl +
register_fake. Importing it twice (the pattern files and the graph builders both do) defines nothing twice."""
import torch

NS = "fxq"
I8_MIN, I8_MAX = -128, 127
FP8 = torch.float8_e4m3fn
FP8_MAX = torch.finfo(FP8).max


def _defined(name):
    try:
        getattr(getattr(torch.ops, NS), name).default
        return True
    except (AttributeError, RuntimeError):
        return False


# reference math (the "kernels")

def _q(x, scale):
    return torch.clamp(torch.round(x.to(torch.float32) / scale), I8_MIN, I8_MAX).to(torch.int8)


def _rms(x, weight, epsilon):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + epsilon)
    return weight * h.to(x.dtype)


def _dyn(x):
    xf = x.to(torch.float32)
    scale = xf.abs().amax(dim=-1, keepdim=True) / 127.0
    return torch.clamp(torch.round(xf / scale), I8_MIN, I8_MAX).to(torch.int8), scale


def _define_custom_ops():
    @torch.library.custom_op("fxq::static_quant", mutates_args=())
    def static_quant(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return _q(x, scale)

    @static_quant.register_fake
    def _(x, scale):
        return torch.empty_like(x, dtype=torch.int8)

    @torch.library.custom_op("fxq::dynamic_quant", mutates_args=())
    def dynamic_quant(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return _dyn(x)

    @dynamic_quant.register_fake
    def _(x):
        return (torch.empty_like(x, dtype=torch.int8),
                x.new_empty(list(x.shape[:-1]) + [1], dtype=torch.float32))

    @torch.library.custom_op("fxq::rms_norm", mutates_args=())
    def rms_norm(x: torch.Tensor, weight: torch.Tensor, epsilon: float) -> torch.Tensor:
        return _rms(x, weight, epsilon)

    @rms_norm.register_fake
    def _(x, weight, epsilon):
        return torch.empty_like(x)

    @torch.library.custom_op("fxq::silu_and_mul", mutates_args=())
    def silu_and_mul(x: torch.Tensor) -> torch.Tensor:
        d = x.shape[-1] // 2
        return torch.nn.functional.silu(x[..., :d]) * x[..., d:]

    @silu_and_mul.register_fake
    def _(x):
        return x.new_empty(list(x.shape[:-1]) + [x.shape[-1] // 2])

    @torch.library.custom_op("fxq::fp8_quant", mutates_args=())
    def fp8_quant(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return (x.to(torch.float32) / scale).clamp(min=-FP8_MAX, max=FP8_MAX).to(FP8)

    @fp8_quant.register_fake
    def _(x, scale):
        return torch.empty_like(x, dtype=FP8)

    @torch.library.custom_op("fxq::scaled_mm", mutates_args=())
    def scaled_mm(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor,
                  out_dtype: torch.dtype) -> torch.Tensor:
        y = torch.mm(a.to(torch.float32), b.to(torch.float32).t()) * scale_a * scale_b
        return y.to(out_dtype)

    @scaled_mm.register_fake
    def _(a, b, scale_a, scale_b, out_dtype):
        return a.new_empty((a.shape[0], b.shape[0]), dtype=out_dtype)


_LIB = None


def _define_library_ops():
    global _LIB
    _LIB = torch.library.Library(NS, "FRAGMENT")
    defs = {
        "rms_norm_static_quant(Tensor x, Tensor weight, Tensor scale, float epsilon) -> Tensor":
            (lambda x, weight, scale, epsilon: _q(_rms(x, weight, epsilon), scale),
             lambda x, weight, scale, epsilon: torch.empty_like(x, dtype=torch.int8)),
        "rms_norm_dynamic_quant(Tensor x, Tensor weight, float epsilon) -> (Tensor, Tensor)":
            (lambda x, weight, epsilon: _dyn(_rms(x, weight, epsilon)),
             lambda x, weight, epsilon: (torch.empty_like(x, dtype=torch.int8),
                                         x.new_empty(list(x.shape[:-1]) + [1], dtype=torch.float32))),
        "silu_mul_quant(Tensor gate, Tensor up, Tensor scale) -> Tensor":
            (lambda gate, up, scale: _q(torch.nn.functional.silu(gate) * up, scale),
             lambda gate, up, scale: torch.empty_like(up, dtype=torch.int8)),
        "silu_and_mul_quant(Tensor x, Tensor scale) -> Tensor":
            (lambda x, scale: _q(torch.nn.functional.silu(x[..., :x.shape[-1] // 2]) * x[..., x.shape[-1] // 2:],
                                 scale),
             lambda x, scale: x.new_empty(list(x.shape[:-1]) + [x.shape[-1] // 2], dtype=torch.int8)),
        "quant_scalar(Tensor x, float inv_scale) -> Tensor":
            (lambda x, inv_scale: torch.clamp(torch.round(x * inv_scale), I8_MIN, I8_MAX).to(torch.int8),
             lambda x, inv_scale: torch.empty_like(x, dtype=torch.int8)),
        "softmax_quant_u8(Tensor scores, float scale) -> Tensor":
            (lambda scores, scale: torch.clamp(torch.round(torch.softmax(scores * scale, -1) * 255.0), 0, 255)
             .to(torch.uint8),
             lambda scores, scale: torch.empty_like(scores, dtype=torch.uint8)),
        "int8_dynamic_linear(Tensor x, Tensor w_q, Tensor w_scale, ScalarType out_dtype) -> Tensor":
            (lambda x, w_q, w_scale, out_dtype: _int8_dynamic_linear(x, w_q, w_scale, out_dtype),
             lambda x, w_q, w_scale, out_dtype: x.new_empty((x.shape[0], w_q.shape[0]), dtype=out_dtype)),
        "add_rms_norm_quant(Tensor x, Tensor residual, Tensor weight, Tensor scale, float epsilon) -> (Tensor, Tensor)":
            (lambda x, residual, weight, scale, epsilon: _add_rms_quant(x, residual, weight, scale, epsilon),
             lambda x, residual, weight, scale, epsilon: (torch.empty_like(x, dtype=torch.int8),
                                                          torch.empty_like(x))),
    }
    for schema, (impl, fake) in defs.items():
        name = schema.split("(", 1)[0]
        _LIB.define(schema)
        _LIB.impl(name, impl, "CompositeExplicitAutograd")
        torch.library.register_fake(f"{NS}::{name}", lib=_LIB)(fake)


def _int8_dynamic_linear(x, w_q, w_scale, out_dtype):
    q, s = _dyn(x)
    y = torch.mm(q.to(torch.float32), w_q.to(torch.float32).t()) * s * w_scale
    return y.to(out_dtype)


def _add_rms_quant(x, residual, weight, scale, epsilon):
    h = x + residual
    return _q(_rms(h, weight, epsilon), scale), h


if not _defined("static_quant"):
    _define_custom_ops()
if not _defined("rms_norm_static_quant"):
    _define_library_ops()
