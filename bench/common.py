"""What the benchmark drivers (bench/parse, match, step, exec) share: finding the Python with torch, running a
measuring process, the PyTorch side's way of turning a graph dump into a torch.fx.Graph (and giving it the fake
tensor meta Inductor's pattern matcher needs), and the table helpers.

Import with bench/ on sys.path (each run.py puts it there). Only the standard library at import time: torch is
imported inside the functions that need it, since a driver's interpreter may lack it (the workers run on the
project's torch Python, build/fxscope-python)."""

import ast
import json
import math
import os
import platform
import re
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------------------------------------------
# Processes
# ----------------------------------------------------------------------------------------------------------------


def run_json(cmd, timeout):
    """Runs a measuring command and returns the JSON document it prints (the last stdout line if it printed more)."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited with {p.returncode}:\n{p.stderr.strip()[-2000:]}")
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return json.loads(p.stdout.strip().splitlines()[-1])


def peak_rss_mb():
    """Peak RSS of this process in MiB: VmHWM, since ru_maxrss survives execve and would report the driver's
    size for a small child (see bench_parse.cpp)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


MIN_TORCH = (2, 1)


def torch_python(requested=None, build_dir=None):
    """The interpreter with torch the PyTorch side runs on: --python, else the one the build was configured with
    (BUILD/fxscope-python, written by CMake: the .venv with torch 2.13.0 or FXSCOPE_PYTHON), else this one.
    Refuses a torch older than 2.1, the oldest torch.compile stack fxscope supports."""
    if requested:
        py = requested
    else:
        py = sys.executable
        for d in filter(None, [build_dir, ROOT / "build"]):
            f = Path(d) / "fxscope-python"
            if f.is_file() and f.read_text().strip():
                py = f.read_text().strip()
                break
    p = subprocess.run([py, "-c", "import torch, torch.fx; print(torch.__version__)"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{py} cannot import torch: {p.stderr.strip()[-500:]}\n"
                         "run scripts/python-env.sh (the .venv with torch 2.13.0) or pass --python")
    version = p.stdout.strip()
    nums = tuple(int(x) for x in re.findall(r"\d+", version)[:2])
    if nums < MIN_TORCH:
        raise SystemExit(f"{py} has torch {version}; the benchmarks need torch >= "
                         f"{'.'.join(map(str, MIN_TORCH))}")
    return py


def torch_version(py):
    return subprocess.run([py, "-c", "import torch; print(torch.__version__)"], capture_output=True,
                          text=True).stdout.strip()


def machine():
    """Where a benchmark ran: CPU model, cores, memory, and the load average now."""
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    except OSError:
        pass
    mem_gb = None
    try:
        with open("/proc/meminfo") as f:
            mem_gb = int(f.readline().split()[1]) / 2**20
    except (OSError, ValueError, IndexError):
        pass
    return {"platform": platform.platform(), "cpu": model, "cpus": os.cpu_count(), "memory_gib": mem_gb,
            "python_driver": sys.version.split()[0]}


# ----------------------------------------------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------------------------------------------


def slope(points):
    """Least-squares slope of log(time) against log(nodes): 1.0 is linear growth. Points without a time count not."""
    pts = [(math.log(n), math.log(t)) for n, t in points if t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else None


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


# ----------------------------------------------------------------------------------------------------------------
# PyTorch's side: dump text -> torch.fx.Graph
# ----------------------------------------------------------------------------------------------------------------

# GraphModule's pytree codegen. Turning the flattened names back into parameters gives the graph's real
# placeholders (primals_1, ..., tangents_1), which is what symbolic_trace needs and what the dump describes.
PYTREE_FLATTEN = re.compile(r"^(?P<indent>[ \t]+)(?P<names>[\w, ]+?),?\s*=\s*fx_pytree\.tree_flatten_spec\(.*\)\s*$",
                            re.M)
FORWARD_DEF = re.compile(r"^(?P<indent>[ \t]*)def forward\(self[^)]*\):", re.M)


def rewrite_pytree_prologue(src):
    m = PYTREE_FLATTEN.search(src)
    if not m:
        return src
    names = [n.strip() for n in m.group("names").split(",") if n.strip()]
    d = None
    for d in FORWARD_DEF.finditer(src, 0, m.start()):
        pass
    if d is None:
        raise ValueError("tree_flatten_spec prologue without a preceding def forward")
    new_def = f"{d.group('indent')}def forward(self, {', '.join(names)}):"
    return src[:d.start()] + new_def + src[d.end():m.start()] + src[m.end():]


class DumpTracer:
    """Readable dump code -> torch.fx.Graph: exec the code into an nn.Module and trace it as
    torch.fx.symbolic_trace does. torch.ops.NS.PACKET.OVERLOAD, as the traced code sees it, calls the real
    overload when an argument is a Proxy (FX's own __torch_function__ path). Calls with no Proxy argument
    (aten.full, scalar_tensor, arange) are recorded directly as call_function nodes through the tracer's
    create_proxy, what FX itself does for a traced call. Still needed on torch 2.x: symbolic tracing runs such a
    call eagerly, on the dump's device (cuda in HRNet's dump, absent here), and folds the result into a tensor
    constant (a get_attr node), so the graph would no longer be the dump's. One target object per op for the
    tracer's lifetime, so graphs traced by the same DumpTracer compare targets equal. An op this torch does not
    have (a custom namespace such as npu without its plugin) is an error: no benchmark input uses one."""

    def __init__(self):
        import torch
        import torch.fx
        from torch.fx.proxy import Proxy

        self._torch = torch
        self._tracer = None
        tracer_of = self

        def has_proxy(v):
            if isinstance(v, Proxy):
                return True
            if isinstance(v, (list, tuple)):
                return any(has_proxy(x) for x in v)
            if isinstance(v, dict):
                return any(has_proxy(x) for x in v.values())
            return False

        def make_op(ns, packet, overload):
            try:
                real = getattr(getattr(getattr(torch.ops, ns), packet), overload)
            except (AttributeError, RuntimeError) as e:
                raise AttributeError(f"torch.ops.{ns}.{packet}.{overload} is not in torch {torch.__version__}") from e

            def call(*args, **kwargs):
                if has_proxy(args) or has_proxy(kwargs):
                    return real(*args, **kwargs)
                return tracer_of._tracer.create_proxy("call_function", real, args, kwargs)
            return call

        class Attrs:
            """Attribute lookups cached on first use, as torch.ops itself does."""

            def __init__(self, factory):
                self._factory = factory

            def __getattr__(self, name):
                if name.startswith("__"):
                    raise AttributeError(name)
                value = self._factory(name)
                setattr(self, name, value)
                return value

        ops = Attrs(lambda ns: Attrs(lambda packet: Attrs(lambda overload: make_op(ns, packet, overload))))

        class TorchShim:
            """`torch` for the exec'd code: the real module, with `ops` replaced by the shim above."""

            def __getattr__(self, name):
                return ops if name == "ops" else getattr(torch, name)

        class Pytree:
            @staticmethod
            def tree_unflatten(leaves, spec):
                return leaves  # the output node holds the flat leaves, as in the GraphModule the dump came from

        self._shim = TorchShim()
        self._pytree = Pytree

    def trace(self, text, filename):
        """Returns (graph, tracer): the torch.fx.Graph of the dump's forward and the Tracer (tracer.root is the
        module, for a GraphModule)."""
        torch = self._torch
        src = rewrite_pytree_prologue(text)
        ns = {"torch": self._shim, "inf": math.inf, "nan": math.nan, "device": torch.device, "pytree": self._pytree,
              "__name__": "fxscope_bench_dump"}
        exec(compile(src, str(filename), "exec"), ns)
        cls = next((v for v in ns.values() if isinstance(v, type) and issubclass(v, torch.nn.Module)), None)
        if cls is None:  # a bare `def forward(self, ...)` (gm.code, depyf)
            cls = type("GraphModule", (torch.nn.Module,), {"forward": ns["forward"]})
        root = cls()
        root._in_spec = root._out_spec = None
        tracer = torch.fx.Tracer()
        self._tracer = tracer
        try:
            graph = tracer.trace(root)
        finally:
            self._tracer = None
        return graph, tracer


# ----------------------------------------------------------------------------------------------------------------
# Fake tensor meta for a traced dump (what Inductor's pattern passes need: node.meta["val"])
# ----------------------------------------------------------------------------------------------------------------

DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i64": "int64",
          "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "b8": "bool"}
ANNOTATION = re.compile(r"^(?P<dtype>[a-z]+\d*)\[(?P<shape>[^\]]*)\](?:\[(?P<stride>[^\]]*)\])?")


def input_annotations(text, names):
    """name -> annotation text ("f16[1, 128, 4096][524288, 4096, 1]cpu") of each graph input: from the forward's
    signature, or from the `primals_1: "f32[512]"; ...` statements AOT joint graphs put before their pytree
    prologue. The first occurrence of `name: "..."` in the file is the input's own."""
    out = {}
    for name in names:
        m = re.search(r"\b" + re.escape(name) + r': "([^"]+)"', text)
        if m is None:
            raise ValueError(f"input {name} has no annotation in the dump")
        out[name] = m.group(1)
    return out


def fake_propagate(gm, text):
    """Gives every node of gm (a GraphModule traced from the dump `text`) meta["val"]: fake tensors made from the
    inputs' annotations (dtype, shape, strides, device), propagated by FakeTensorProp, as Inductor's graphs carry
    them. An annotation without a device ("f32[64]", older dumps) takes the first device the dump's own calls name
    (HRNet's `device = device(type='cuda', index=0)`), else cpu: fake tensors need no such device here. Symbolic
    dims are refused: no benchmark input has them."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    anns = input_annotations(text, [n.target for n in placeholders])
    named = re.search(r"device\(type='(\w+)'(?:, index=(\d+))?\)", text)
    default_device = (named.group(1) + (f":{named.group(2)}" if named.group(2) else "")) if named else "cpu"
    mode = FakeTensorMode()
    inputs = []
    with mode:
        for n in placeholders:
            m = ANNOTATION.match(anns[n.target])
            if m is None or m.group("dtype") not in DTYPES:
                raise ValueError(f"input {n.target}: annotation {anns[n.target]!r} is not a tensor")
            shape = [int(d) for d in m.group("shape").split(",") if d.strip()]
            stride = [int(d) for d in m.group("stride").split(",") if d.strip()] if m.group("stride") is not None \
                else None
            dtype = getattr(torch, DTYPES[m.group("dtype")])
            device = anns[n.target][m.end():] or default_device
            inputs.append(torch.empty_strided(shape, stride, dtype=dtype, device=device) if stride is not None
                          else torch.empty(shape, dtype=dtype, device=device))
    FakeTensorProp(gm, mode).propagate_dont_convert_inputs(*inputs)
    return mode
