"""What the capture tests share: where fxscope-cli and the example pattern file are, and readers that do not trust
the code under test (the safetensors layout with struct + json, the fxscope JSON graph run by resolving its targets in
torch).

fxscope-cli is required: ctest sets FXSCOPE_CLI to the one it built; by hand, build/bin/fxscope-cli is used.
"""

import json
import operator
import os
import struct
import subprocess

import torch

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ADD_RMS_NORM = os.path.join(REPO, "tests", "data", "examples", "torchair_add_rms_norm.py")
PATTERNS_DIR = os.path.join(REPO, "resources", "patterns")


def cli_path():
    path = os.environ.get("FXSCOPE_CLI") or os.path.join(REPO, "build", "bin", "fxscope-cli")
    if not os.access(path, os.X_OK):
        raise AssertionError(f"fxscope-cli not found at {path}: ctest sets FXSCOPE_CLI to the one it built; by hand, "
                             f"build it (cmake --build build --target fxscope-cli fxscope_runtime) or set FXSCOPE_CLI")
    return path


def cli(*args, timeout=300):
    return subprocess.run([cli_path(), *args], capture_output=True, text=True, timeout=timeout)


def cli_json(test, *args):
    """Runs fxscope-cli with --json; fails the test with its stderr unless it exits 0."""
    run = cli(*args, "--json")
    test.assertEqual(run.returncode, 0, f"fxscope-cli {' '.join(args)} exited {run.returncode}:\n{run.stderr}")
    return json.loads(run.stdout)


def require_file(path, what):
    if not os.path.exists(path):
        raise AssertionError(f"{what} not found at {path}")
    return path


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------------------------------------------------------
# safetensors, read with struct + json + torch.frombuffer

DTYPES = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
          "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
          "BOOL": torch.bool}


def read_safetensors(path):
    """(tensors, metadata, header length, end of the last tensor's data, data length)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    metadata = header.pop("__metadata__", {})
    tensors, end = {}, 0
    for name, info in header.items():
        begin, stop = info["data_offsets"]
        end = max(end, stop)
        raw = bytearray(data[begin:stop])
        dtype = DTYPES[info["dtype"]]
        t = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        tensors[name] = t.reshape(info["shape"])
    return tensors, metadata, n, end, len(data)


# --------------------------------------------------------------------------------------------------------------
# fxscope JSON graphs, run by resolving each target in torch


def resolve_target(target):
    if target.startswith("operator."):
        return getattr(operator, target.split(".", 1)[1])
    obj = torch
    for atom in target.split(".")[1:]:
        obj = getattr(obj, atom)
    return obj


def decode(arg, env):
    if isinstance(arg, dict):
        (key, value), = arg.items()
        if key == "node":
            return env[value]
        if key == "list":
            return [decode(a, env) for a in value]
        if key == "tuple":
            return tuple(decode(a, env) for a in value)
        if key == "float":
            return float(value)
        if key == "dtype":
            return getattr(torch, value.split(".")[1])
        if key == "device":
            return torch.device(value)
        if key in ("memory_format", "layout"):
            return getattr(torch, value.split(".")[1])
        raise AssertionError(f"unexpected argument kind {key}")
    return arg


def run_graph(graph, tensors, scalars=()):
    """Runs an fxscope JSON GRAPH on {node name: tensor}; names in `scalars` (SymInt inputs saved as 0-d tensors) are
    passed as Python ints. call_function targets are resolved in torch/operator, call_method ones on their first
    argument."""
    env = {}
    for node in graph["nodes"]:
        op = node["op"]
        if op in ("placeholder", "get_attr"):
            value = tensors[node["name"]]
            env[node["name"]] = int(value) if node["name"] in scalars else value
        elif op in ("call_function", "call_method"):
            args = [decode(a, env) for a in node["args"]]
            kwargs = {k: decode(v, env) for k, v in node["kwargs"].items()}
            if op == "call_method":
                env[node["name"]] = getattr(args[0], node["target"])(*args[1:], **kwargs)
            else:
                env[node["name"]] = resolve_target(node["target"])(*args, **kwargs)
        elif op == "output":
            return decode(node["args"][0], env)
    raise AssertionError("graph without an output node")


def node_refs(arg):
    if isinstance(arg, dict):
        if set(arg) == {"node"}:
            yield arg["node"]
        else:
            for v in arg.values():
                yield from node_refs(v)
    elif isinstance(arg, list):
        for v in arg:
            yield from node_refs(v)


def call_targets(graph):
    return [n["target"] for n in graph["nodes"] if n["op"] == "call_function"]


def placeholder_names(graph):
    return [n["name"] for n in graph["nodes"] if n["op"] == "placeholder"]


# fxscope's executor compares outputs with these tolerances (optimizer/runtime/profiler.cpp); the tests use the same.
TOLERANCE = {torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2), torch.float32: (1e-4, 1e-4),
             torch.float64: (1e-7, 1e-7)}


class GraphChecks:
    def check_graph_structure(self, graph):
        seen = set()
        for node in graph["nodes"]:
            self.assertEqual(set(node) - {"meta"}, {"name", "op", "target", "args", "kwargs"})
            self.assertIn(node["op"], {"placeholder", "get_attr", "call_function", "call_method", "call_module",
                                       "output"})
            self.assertIsInstance(node["target"], str)
            self.assertNotIn(node["name"], seen)
            for ref in node_refs([node["args"], node["kwargs"]]):
                self.assertIn(ref, seen, f"{node['name']} refers to {ref} before it is defined")
            seen.add(node["name"])
        self.assertEqual(graph["nodes"][-1]["op"], "output")

    def assertClose(self, actual, expected, what=""):
        self.assertEqual(actual.shape, expected.shape, what)
        self.assertEqual(actual.dtype, expected.dtype, what)
        rtol, atol = TOLERANCE.get(expected.dtype, (0, 0))
        self.assertTrue(torch.allclose(actual, expected, rtol=rtol, atol=atol),
                        f"{what}: max abs diff {(actual.double() - expected.double()).abs().max().item()}")
