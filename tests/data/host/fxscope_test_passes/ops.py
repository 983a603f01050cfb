"""The fused kernels, as custom ops with a reference implementation and a fake (meta) one."""
import torch

_lib = torch.library.Library("fxscope_test", "FRAGMENT")
_lib.define("fused_rms_norm(Tensor x, Tensor weight, float epsilon) -> Tensor")
_lib.define("silu_and_mul(Tensor gate, Tensor up) -> Tensor")


def _rms_norm(x, weight, epsilon):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + epsilon)
    return weight * h.to(x.dtype)


def _silu_and_mul(gate, up):
    return torch.nn.functional.silu(gate) * up


_lib.impl("fused_rms_norm", _rms_norm, "CompositeExplicitAutograd")
_lib.impl("silu_and_mul", _silu_and_mul, "CompositeExplicitAutograd")
torch.library.register_fake("fxscope_test::fused_rms_norm", lib=_lib)(lambda x, weight, epsilon: torch.empty_like(x))
torch.library.register_fake("fxscope_test::silu_and_mul", lib=_lib)(lambda gate, up: torch.empty_like(up))
