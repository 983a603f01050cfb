"""torch.ops.npu.* for machines without torch_npu, so that pattern files written for TorchAir trace anywhere.

Each op is defined with torch_npu's schema (the `NB: npu::...` lines of TorchAir's GE converters) and a reference
implementation in aten ops, registered under CompositeExplicitAutograd: make_fx records the npu op itself as one
opaque call_function node with its qualified name (torch.ops.npu.npu_rms_norm.default), exactly as in a graph
traced with torch_npu, and the implementation only supplies output shapes, dtypes and plausible values.

Ops are defined once per process, and only when torch_npu is not importable (export_patterns checks). More ops:
register_npu_op("npu_foo(Tensor self) -> Tensor", impl).
"""

import torch

_LIBRARY = None
_DEFINED = {}

# ScalarType numbers as TorchAir patterns pass them (scalar_workaround={"dtype": 1}).
_SCALAR_TYPES = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64, 5: torch.float16,
                 6: torch.float32, 7: torch.float64, 11: torch.bool, 12: torch.int8, 15: torch.bfloat16}


def _dtype(d):
    return d if isinstance(d, torch.dtype) else _SCALAR_TYPES.get(int(d), torch.int8)


def _rms(x, gamma, epsilon):
    dims = tuple(range(x.dim() - gamma.dim(), x.dim()))
    xf = x.float()
    rstd = torch.rsqrt(xf.pow(2).mean(dims, keepdim=True) + epsilon)
    return (xf * rstd * gamma.float()).to(x.dtype), rstd


def _rms_norm(self, gamma, epsilon=1e-6):
    return _rms(self, gamma, epsilon)


def _add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    x = x1 + x2
    y, rstd = _rms(x, gamma, epsilon)
    return y, rstd, x


def _add_rms_norm_cast(x1, x2, gamma, epsilon=1e-6):
    x = x1 + x2
    y, rstd = _rms(x, gamma, epsilon)
    return y.float(), y, rstd, x


def _quant(y, scales, zero_points, dtype, div_mode=True):
    q = y.float() / scales.float() if div_mode else y.float() * scales.float()
    if zero_points is not None:
        q = q + zero_points.float()
    info = torch.iinfo(dtype) if not dtype.is_floating_point else None
    q = torch.round(q)
    if info is not None:
        q = q.clamp(info.min, info.max)
    return q.to(dtype)


def _quantize(self, scales, zero_points, dtype, axis=1, div_mode=True):
    return _quant(self, scales, zero_points, _dtype(dtype), div_mode)


def _add_rms_norm_quant(x1, x2, gamma, scales1, zero_points1=None, scales2=None, zero_points2=None, axis=-1,
                        epsilon=1e-6, div_mode=True):
    y, _, x = _add_rms_norm(x1, x2, gamma, epsilon)
    y1 = _quant(y, scales1, zero_points1, torch.int8, div_mode)
    y2 = _quant(y, scales2, zero_points2, torch.int8, div_mode) if scales2 is not None else torch.empty(
        [1], dtype=torch.int8, device=x.device)
    return y1, y2, x


def _swiglu(self, dim=-1):
    a, b = self.chunk(2, dim=dim)
    return torch.nn.functional.silu(a) * b


def _rotary_mul(self, r1, r2, rotary_mode="half"):
    if rotary_mode == "interleave":
        x1, x2 = self[..., ::2], self[..., 1::2]
        rotated = torch.stack((-x2, x1), dim=-1).flatten(-2)
    else:
        x1, x2 = self.chunk(2, dim=-1)
        rotated = torch.cat((-x2, x1), dim=-1)
    return self * r1 + rotated * r2


def _mm_all_reduce_base(x1, x2, hcom, *, reduce_op="sum", bias=None, antiquant_scale=None, antiquant_offset=None,
                        x3=None, dequant_scale=None, pertoken_scale=None, comm_quant_scale_1=None,
                        comm_quant_scale_2=None, antiquant_group_size=0, comm_turn=0):
    # (x1 @ x2 + bias) all-reduced over the group named hcom (a torch.distributed group name here, an HCCL
    # communicator's on an NPU), then + x3: a real collective under torch.distributed, shapes only under fake tensors.
    if any(t is not None for t in (antiquant_scale, antiquant_offset, dequant_scale, pertoken_scale,
                                   comm_quant_scale_1, comm_quant_scale_2)):
        raise NotImplementedError("npu_mm_all_reduce_base stand-in: no quantised variant")
    y = torch.matmul(x1, x2)
    if bias is not None:
        y = y + bias
    y = torch.ops._c10d_functional.wait_tensor(torch.ops._c10d_functional.all_reduce(y, reduce_op, hcom))
    return y if x3 is None else y + x3


def _scatter_update(data, indices, updates, axis):
    return data.index_copy(axis, indices, updates.to(data.dtype))


def _scatter_update_(data, indices, updates, axis):
    return data.index_copy_(axis, indices, updates.to(data.dtype))


def _per_row_int8(x):
    scale = (x.float().abs().amax(-1) / 127.0).clamp_min(1e-12)
    return torch.round(x.float() / scale.unsqueeze(-1)).clamp(-128, 127).to(torch.int8), scale


def _dynamic_quant(input, *, smooth_scales=None, group_index=None, dst_type=None):
    return _per_row_int8(input if smooth_scales is None else input * smooth_scales)


def _add_rms_norm_dynamic_quant(x1, x2, gamma, *, smooth_scale1=None, smooth_scale2=None, beta=None, epsilon=1e-6,
                                output_mask=None):
    # shapes as torch_npu's meta function: an output the mask leaves out has size 0
    x = x1 + x2
    y, _ = _rms(x, gamma, epsilon)
    if beta is not None:
        y = y + beta
    y1_on, y2_on = (output_mask if output_mask else
                    [True, smooth_scale1 is not None and smooth_scale2 is not None])
    empty_q, empty_s = x1.new_empty((0,), dtype=torch.int8), x1.new_empty((0,), dtype=torch.float32)
    q1, s1 = _per_row_int8(y if smooth_scale1 is None else y * smooth_scale1) if y1_on else (empty_q, empty_s)
    q2, s2 = _per_row_int8(y * smooth_scale2) if y2_on and smooth_scale2 is not None else (empty_q, empty_s)
    return q1, q2, x, s1, s2


def _dtype_cast(self, dtype):
    return self.to(_dtype(dtype))


KNOWN_OPS = {
    "npu_rms_norm": ("npu_rms_norm(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor)", _rms_norm),
    "npu_add_rms_norm": ("npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                         "-> (Tensor, Tensor, Tensor)", _add_rms_norm),
    "npu_add_rms_norm_cast": ("npu_add_rms_norm_cast(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                              "-> (Tensor, Tensor, Tensor, Tensor)", _add_rms_norm_cast),
    "npu_quantize": ("npu_quantize(Tensor self, Tensor scales, Tensor? zero_points, ScalarType dtype, int axis=1, "
                     "bool div_mode=True) -> Tensor", _quantize),
    "npu_add_rms_norm_quant": ("npu_add_rms_norm_quant(Tensor x1, Tensor x2, Tensor gamma, Tensor scales1, "
                               "Tensor? zero_points1=None, Tensor? scales2=None, Tensor? zero_points2=None, "
                               "int axis=-1, float epsilon=1e-06, bool div_mode=True) -> (Tensor, Tensor, Tensor)",
                               _add_rms_norm_quant),
    "npu_swiglu": ("npu_swiglu(Tensor self, int dim=-1) -> Tensor", _swiglu),
    "npu_rotary_mul": ("npu_rotary_mul(Tensor self, Tensor r1, Tensor r2, str rotary_mode='half') -> Tensor",
                       _rotary_mul),
    "npu_dtype_cast": ("npu_dtype_cast(Tensor self, ScalarType dtype) -> Tensor", _dtype_cast),
    "_npu_dtype_cast": ("_npu_dtype_cast(Tensor self, ScalarType dtype) -> Tensor", _dtype_cast),
    "npu_dynamic_quant": ("npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None, Tensor? group_index=None, "
                          "ScalarType? dst_type=None) -> (Tensor, Tensor)", _dynamic_quant),
    "npu_add_rms_norm_dynamic_quant": ("npu_add_rms_norm_dynamic_quant(Tensor x1, Tensor x2, Tensor gamma, *, "
                                       "Tensor? smooth_scale1=None, Tensor? smooth_scale2=None, Tensor? beta=None, "
                                       "float epsilon=1e-06, bool[2]? output_mask=None) "
                                       "-> (Tensor, Tensor, Tensor, Tensor, Tensor)", _add_rms_norm_dynamic_quant),
    "scatter_update": ("scatter_update(Tensor data, Tensor indices, Tensor updates, int axis) -> Tensor",
                       _scatter_update),
    "scatter_update_": ("scatter_update_(Tensor(a!) data, Tensor indices, Tensor updates, int axis) -> Tensor(a!)",
                        _scatter_update_),
    "npu_mm_all_reduce_base": ("npu_mm_all_reduce_base(Tensor x1, Tensor x2, str hcom, *, str reduce_op='sum', "
                               "Tensor? bias=None, Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, "
                               "Tensor? x3=None, Tensor? dequant_scale=None, Tensor? pertoken_scale=None, "
                               "Tensor? comm_quant_scale_1=None, Tensor? comm_quant_scale_2=None, "
                               "int antiquant_group_size=0, int comm_turn=0) -> Tensor", _mm_all_reduce_base),
}


def _library():
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = torch.library.Library("npu", "FRAGMENT")  # shares the namespace with anyone else defining npu ops
    return _LIBRARY


def _exists(name):
    try:
        getattr(torch.ops.npu, name).default
        return True
    except (AttributeError, RuntimeError):
        return False


def register_npu_op(schema, impl):
    """Defines torch.ops.npu.<name> from a schema string and an implementation in aten ops (used for shapes and
    dtypes while tracing). Returns the op packet; an op torch_npu (or an earlier call) defined is kept as it is."""
    name = schema.split("(", 1)[0].strip()
    if name not in _DEFINED and not _exists(name):
        lib = _library()
        lib.define(schema)
        lib.impl(name, impl, "CompositeExplicitAutograd")
        _DEFINED[name] = schema
    return getattr(torch.ops.npu, name)


def npu_op(name):
    """torch.ops.npu.<name>, defining it from KNOWN_OPS when needed; AttributeError for an unknown op."""
    if name in KNOWN_OPS:
        return register_npu_op(*KNOWN_OPS[name])
    if _exists(name):
        return getattr(torch.ops.npu, name)
    raise AttributeError(
        f"torch_npu.{name} is not available: torch_npu is not installed and fxscope_capture's stand-in knows "
        f"{', '.join(sorted(KNOWN_OPS))}. Define it before export_patterns runs the file with "
        f"fxscope_capture.register_npu_op('{name}(Tensor self, ...) -> Tensor', implementation).")


def define_known_ops():
    for name in KNOWN_OPS:
        npu_op(name)
