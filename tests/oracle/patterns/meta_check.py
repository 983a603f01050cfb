"""TorchAir-style extra_checks on shapes and on meta["tensor_meta"]: a multiple-of-16 last dim read from
meta["val"] and a contiguous stride read from meta["tensor_meta"]."""
import torch, torch_npu, torchair


def silu_mul(gate, up):
    return torch.nn.functional.silu(gate) * up


def silu_mul_replacement(gate, up):
    return torch_npu.npu_swiglu(torch.cat([gate, up], -1), -1)


def shape_check(match):
    return match.kwargs["gate"].meta["val"].shape[-1] % 16 == 0


def tensor_meta_check(match):
    tm = match.kwargs["up"].meta["tensor_meta"]
    return tm.stride[-1] == 1 and tm.dtype in (torch.float16, torch.bfloat16)


torchair.register_replacement(search_fn=silu_mul, replace_fn=silu_mul_replacement,
                              example_inputs=(torch.empty(2, 16, dtype=torch.float16), torch.empty(2, 16, dtype=torch.float16)), extra_check=shape_check)
torchair.register_replacement(search_fn=silu_mul, replace_fn=silu_mul_replacement,
                              example_inputs=(torch.empty(2, 16, dtype=torch.float16), torch.empty(2, 16, dtype=torch.float16)),
                              extra_check=tensor_meta_check, skip_duplicates=True)
