"""Tensor files: PyPI's safetensors package (safetensors.torch), written atomically.

save_file refuses what a graph's inputs often are (views sharing one storage, non-contiguous tensors, tensors on a
device); save_tensors hands it contiguous CPU copies where needed. fxscope's C++ reader (optimizer/runtime) reads
the files by node name.
"""

import torch
from safetensors import safe_open
from torch._subclasses.fake_tensor import FakeTensor
from safetensors.torch import load_file, save_file

from ._files import atomic_path


def _has_data(t):
    # FakeTensors (aot_autograd's compile-time inputs) and meta tensors have shapes but no bytes.
    return t.device.type != "meta" and not isinstance(t, FakeTensor)


def save_tensors(path, tensors, metadata=None):
    """Writes `tensors` ({name: Tensor}) to `path` atomically with safetensors.torch.save_file; `metadata` values are
    converted to str. Returns path."""
    prepared = {}
    storages = set()
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name}: expected a tensor, found {type(t).__name__}")
        if not _has_data(t):
            raise ValueError(f"{name}: a {type(t).__name__} on {t.device} has no data to save")
        t = t.detach()
        if t.layout != torch.strided:
            t = t.to_dense()
        t = t.to("cpu").contiguous()
        # save_file refuses tensors sharing memory (views of one input, tied weights): each gets its own copy.
        key = t.untyped_storage().data_ptr()
        if t.numel() and key in storages:
            t = t.clone()
        storages.add(t.untyped_storage().data_ptr())
        prepared[str(name)] = t
    meta = {str(k): str(v) for k, v in (metadata or {}).items()}
    with atomic_path(path) as tmp:
        try:
            save_file(prepared, tmp, metadata=meta)
        except Exception as e:
            raise ValueError(f"{path}: safetensors could not write the tensors: {e}") from e
    return path


def load_tensors(path):
    """Reads a safetensors file: ({name: Tensor}, {metadata})."""
    tensors = load_file(path)
    with safe_open(path, framework="pt") as f:
        metadata = f.metadata() or {}
    return tensors, metadata
