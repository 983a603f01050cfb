"""What the benchmark drivers (bench/parse, bench/match, bench/step) share: running a measuring process, the
PyTorch side's way of turning a graph dump into a torch.fx.Graph, and the table helpers.

Import with bench/ on sys.path (each run.py puts it there). Only the standard library at import time: torch is
imported inside DumpTracer, since the driver's interpreter may lack it (the workers run on Debian's python3)."""

import json
import math
import re
import resource
import subprocess
import sys

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


def torch_python(requested):
    """An interpreter that can import torch: --python, this one, or Debian's /usr/bin/python3 (a pyenv or venv
    python3 on PATH usually lacks python3-torch)."""
    candidates = [requested] if requested else [sys.executable, "/usr/bin/python3"]
    for py in candidates:
        if py and subprocess.run([py, "-c", "import torch.fx"], capture_output=True).returncode == 0:
            return py
    raise SystemExit(f"no Python with torch among {candidates}: install python3-torch or pass --python")


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


# The regex of PyTorch's current torch/fx/graph.py (_name_regex): an identifier with an optional _N suffix.
CURRENT_FX_NAME = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")


def current_fx_create_name(self, candidate, obj):
    """_Namespace.create_name as PyTorch has it today (torch/fx/graph.py, with _base_count), on torch 1.13's
    _Namespace. 1.13 probes base, base_1, base_2, ... from 0 for every new node, which is quadratic in the number
    of nodes sharing an op; current PyTorch resumes from the last number used. Timing both shows how much of
    PyTorch's cost here is that old quadratic step rather than the work itself."""
    if obj is not None and obj in self._obj_to_name:
        return self._obj_to_name[obj]
    base_count = self.__dict__.setdefault("_base_count", {})
    match = CURRENT_FX_NAME.match(candidate)
    if match is None:
        candidate = self._illegal_char_regex.sub("_", candidate) or "_unnamed"
        if candidate[0].isdigit():
            candidate = f"_{candidate}"
        match = CURRENT_FX_NAME.match(candidate)
    base, num = match.group(1, 2)
    if num is None or candidate in self._used_names:
        num = base_count.get(candidate, 0)
        if self._is_illegal_name(candidate, obj):
            num += 1
            candidate = f"{base}_{num}"
    else:
        num = int(num)
    while candidate in self._used_names or self._is_illegal_name(candidate, obj):
        num += 1
        candidate = f"{base}_{num}"
    self._used_names.setdefault(candidate, 0)  # 1.13 keeps a dict here
    base_count[base] = num
    if obj is None:
        self._unassociated_names.add(candidate)
    else:
        self._obj_to_name[obj] = candidate
    return candidate


class DumpTracer:
    """Readable dump code -> torch.fx.Graph: exec the code into an nn.Module and trace it as
    torch.fx.symbolic_trace does. torch.ops.NS.PACKET.OVERLOAD, as the traced code sees it, calls the real
    overload when an argument is a Proxy (FX's own __torch_function__ path). Two cases need help and are recorded
    directly as call_function nodes through the tracer (what FX itself does for a traced call): overloads that
    torch 1.13 lacks (aten.squeeze.dims, npu ops, ...), and calls with no Proxy argument (aten.full,
    scalar_tensor), which symbolic_trace would otherwise execute eagerly and fold into constants. One target
    object per op for the tracer's lifetime, so graphs traced by the same DumpTracer compare targets equal."""

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
            real = None
            try:
                real = getattr(getattr(getattr(torch.ops, ns), packet), overload)
            except (AttributeError, RuntimeError):
                pass
            if real is None:
                def standin(*args, **kwargs):
                    raise RuntimeError(f"torch.ops.{ns}.{packet}.{overload} is not in this torch")
                standin.__name__ = standin.__qualname__ = f"{packet}_{overload}"
                standin.__module__ = f"torch.ops.{ns}"
            target = real if real is not None else standin

            def call(*args, **kwargs):
                if real is not None and (has_proxy(args) or has_proxy(kwargs)):
                    return real(*args, **kwargs)
                return tracer_of._tracer.create_proxy("call_function", target, args, kwargs)
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
