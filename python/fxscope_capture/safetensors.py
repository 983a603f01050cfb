"""Reads and writes tensors in the safetensors layout with the standard library and torch alone.

Layout (https://github.com/huggingface/safetensors, "Format"): an 8-byte little-endian header length N, N bytes of
JSON {name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {str: str}} padded with
spaces to a multiple of 8, then the raw little-endian bytes of every tensor, offsets relative to the end of the
header. Files written here load with the safetensors package too.
"""

import ctypes
import json
import struct
import sys

import torch

from ._files import atomic_open

_DTYPE_CODES = [
    ("F64", "float64"), ("F32", "float32"), ("F16", "float16"), ("BF16", "bfloat16"),
    ("I64", "int64"), ("I32", "int32"), ("I16", "int16"), ("I8", "int8"), ("U8", "uint8"), ("BOOL", "bool"),
    ("F8_E4M3", "float8_e4m3fn"), ("F8_E5M2", "float8_e5m2"),
    ("U16", "uint16"), ("U32", "uint32"), ("U64", "uint64"),
]
# Only the dtypes this torch has (float8 and unsigned wide ints arrived in 2.1 and 2.3).
CODE_OF_DTYPE = {getattr(torch, name): code for code, name in _DTYPE_CODES if hasattr(torch, name)}
DTYPE_OF_CODE = {code: dtype for dtype, code in CODE_OF_DTYPE.items()}


def _check_host():
    if sys.byteorder != "little":
        raise RuntimeError("safetensors stores little-endian bytes; this host is big-endian")


def _is_fake(t):
    # FakeTensors and meta tensors have shapes but no bytes.
    return t.device.type == "meta" or type(t).__name__ == "FakeTensor"


def save_tensors(path, tensors, metadata=None):
    """Writes `tensors` ({name: Tensor}, insertion order kept) to `path` atomically. `metadata` values must be str."""
    _check_host()
    prepared = []
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    offset = 0
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name}: expected a tensor, found {type(t).__name__}")
        if _is_fake(t):
            raise ValueError(f"{name}: a {type(t).__name__} on {t.device} has no data to save")
        if t.dtype not in CODE_OF_DTYPE:
            raise ValueError(f"{name}: dtype {t.dtype} has no safetensors code (supported: "
                             + ", ".join(str(d) for d in CODE_OF_DTYPE) + ")")
        t = t.detach()
        if t.layout != torch.strided:
            t = t.to_dense()
        t = t.to("cpu").contiguous()
        nbytes = t.numel() * t.element_size()
        header[name] = {"dtype": CODE_OF_DTYPE[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + nbytes]}
        prepared.append((t, nbytes))
        offset += nbytes
    encoded = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    encoded += b" " * (-len(encoded) % 8)
    with atomic_open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)))
        f.write(encoded)
        for t, nbytes in prepared:
            if nbytes:
                # The tensor's own bytes, without numpy: t is contiguous on the CPU, so data_ptr() covers nbytes.
                f.write(ctypes.string_at(t.data_ptr(), nbytes))
    return path


def read_header(path):
    """The JSON header of a safetensors file, and the byte offset where tensor data begins."""
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise ValueError(f"{path}: expected an 8-byte header length, found {len(head)} bytes")
        (n,) = struct.unpack("<Q", head)
        raw = f.read(n)
        if len(raw) != n:
            raise ValueError(f"{path}: header says {n} bytes, file holds {len(raw)}")
    return json.loads(raw.decode("utf-8")), 8 + n


def load_tensors(path):
    """Reads a safetensors file back: ({name: Tensor}, {metadata}). Tensors own their memory."""
    _check_host()
    header, start = read_header(path)
    metadata = header.pop("__metadata__", {}) or {}
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read()
    tensors = {}
    for name, info in header.items():
        dtype = DTYPE_OF_CODE.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"{path}: {name}: unknown dtype code {info['dtype']}")
        begin, end = info["data_offsets"]
        shape = info["shape"]
        if end - begin == 0:
            tensors[name] = torch.empty(shape, dtype=dtype)
        else:
            tensors[name] = torch.frombuffer(bytearray(data[begin:end]), dtype=dtype).reshape(shape)
    return tensors, metadata
