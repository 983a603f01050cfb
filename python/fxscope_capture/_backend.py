"""backend(): a torch.compile backend that writes every graph it is handed, then compiles it so the program carries
on.

Per Dynamo graph (one per graph break and recompile) it writes <name>_<i>.json holding
  "dynamo"                       the Dynamo FX graph (torch.* / operator calls, nn_module_stack, source_fn_stack)
  "forward" / "backward"         the aten graphs aot_autograd hands to the forward and backward compilers
  "inference"                    ... or to the inference compiler when no gradient is needed
and for each graph <name>_<i>.<graph>.safetensors with its placeholder (and get_attr) tensors keyed by node name:
the Dynamo graph's real example inputs and weights at compile time, the aot graphs' inputs at their first call
(aot compiles on fake tensors, so the real values exist only when the compiled graph first runs), and
<name>_<i>.<graph>.outputs.safetensors with what the compiled graph returned at that first call (output_0, ...).
Under dynamic shapes each graph's "symbol_hints" give the size every symbol had when Dynamo traced it.

Without `inner`, graphs run through aot_autograd with eager aten kernels. With `inner` (a backend callable such as
TorchAir's torchair.get_npu_backend(...), or a registered name such as "inductor"), the Dynamo graph goes to it
unchanged, and the aot graphs are recorded by wrapping the compilers it passes to aot_module_simplified — the
graphs exactly as TorchAir's pattern pass or Inductor's post-grad passes receive them.
"""

import contextlib
import functools
import inspect
import operator
import os
import sys
import threading
import warnings

import torch

from . import _serialize
from ._files import write_json
from ._tensors import _has_data as _tensor_has_data
from ._tensors import save_tensors as _save_tensors


def _warn(what, error):
    # Capturing must never stop the user's program: failures to write become warnings.
    warnings.warn(f"fxscope_capture: {what}: {type(error).__name__}: {error}", RuntimeWarning, stacklevel=3)


def _has_data(t):
    return isinstance(t, torch.Tensor) and _tensor_has_data(t)


class _CompileRecord:
    """One Dynamo graph and the aot graphs compiled from it: one JSON file, rewritten atomically as graphs arrive
    (the backward graph is compiled at the first backward call, long after the forward)."""

    def __init__(self, out_dir, stem, capture_info, save_tensors):
        self.out_dir = out_dir
        self.stem = stem
        self.capture_info = capture_info
        self.save_tensors = save_tensors
        self.entries = []
        self.lock = threading.Lock()

    @property
    def json_path(self):
        return os.path.join(self.out_dir, self.stem + ".json")

    def add(self, name, kind, gm):
        """Records gm now (compilers rewrite their graph); returns (entry name, placeholder names)."""
        graph = _serialize.graph_json(gm)
        with self.lock:
            taken = {e["name"] for e in self.entries}
            unique, k = name, 1
            while unique in taken:
                unique = f"{name}_{k}"
                k += 1
            self.entries.append({"name": unique, "kind": kind, "graph": graph})
            self._write()
        return unique, [n.name for n in gm.graph.nodes if n.op == "placeholder"]

    def add_tensors(self, entry_name, tensors, metadata, key="tensors"):
        """Writes <stem>.<entry>.safetensors (key "tensors": the graph's inputs) or <stem>.<entry>.outputs.safetensors
        (key "outputs") and names it in the graph's entry."""
        tensors = {k: v for k, v in tensors.items() if _has_data(v)}
        if not tensors:
            return
        filename = f"{self.stem}.{entry_name}.safetensors" if key == "tensors" else \
            f"{self.stem}.{entry_name}.{key}.safetensors"
        _save_tensors(os.path.join(self.out_dir, filename), tensors,
                      metadata=dict(metadata, format="fxscope_capture", graph=entry_name,
                                    torch_version=torch.__version__))
        with self.lock:
            for e in self.entries:
                if e["name"] == entry_name:
                    e[key] = filename
            self._write()

    def _write(self):
        write_json(self.json_path, _serialize.document(list(self.entries), source_format="fxscope_capture",
                                                       capture=self.capture_info))


def _as_tensor(value):
    """Graph inputs that are Python numbers (SymInt sizes under dynamic shapes) are stored as 0-d tensors; Dynamo's
    example inputs hold SymInts, whose traced size (their hint) is stored."""
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        hint = getattr(value.node, "hint", None)
        if hint is None:
            return value  # unbacked: no size is known, so nothing is saved
        value = type(hint)(hint) if isinstance(hint, (bool, int, float)) else int(hint)
    if isinstance(value, bool):
        return torch.tensor(value)
    if isinstance(value, int):
        return torch.tensor(value, dtype=torch.int64)
    if isinstance(value, float):
        return torch.tensor(value, dtype=torch.float64)
    return value


def _placeholder_tensors(names, values):
    tensors, scalars = {}, []
    for name, value in zip(names, values):
        saved = _as_tensor(value)
        if isinstance(saved, torch.Tensor):
            tensors[name] = saved
            if not isinstance(value, torch.Tensor):
                scalars.append(name)
    return tensors, scalars


def _output_tensors(result):
    """{output_i: tensor} of what a compiled graph returned (a tuple or list of outputs, or one tensor)."""
    values = result if isinstance(result, (list, tuple)) else [result]
    out = {}
    for i, value in enumerate(values):
        value = _as_tensor(value)
        if isinstance(value, torch.Tensor):
            out[f"output_{i}"] = value
    return out


class _FirstCall:
    """Wraps a compiled graph: saves the inputs and the outputs of its first call, and otherwise behaves exactly as
    the wrapped callable (boxed calling convention included; other attributes are forwarded)."""

    def __init__(self, fn, on_inputs, on_outputs):
        self._fn = fn
        self._on_inputs = on_inputs
        self._on_outputs = on_outputs
        self._done = False
        self._boxed_call = getattr(fn, "_boxed_call", False)

    def __call__(self, *args, **kwargs):
        if self._done:
            return self._fn(*args, **kwargs)
        self._done = True
        if self._on_inputs is not None:
            values = args[0] if self._boxed_call and args else args
            try:
                self._on_inputs(list(values))  # before the call: a boxed callee frees its argument list
            except Exception as e:
                _warn("could not save the inputs of a compiled graph", e)
        result = self._fn(*args, **kwargs)
        try:
            self._on_outputs(_output_tensors(result))
        except Exception as e:
            _warn("could not save the outputs of a compiled graph", e)
        return result

    def __getattr__(self, name):
        return getattr(self._fn, name)


class FxscopeBackend:
    """The callable torch.compile receives; see backend()."""

    def __init__(self, out_dir, inner=None, name="graph", decompositions=None, save_tensors=True):
        self.out_dir = out_dir
        self.inner = inner
        self.name = name
        self.decompositions = decompositions
        self.save_tensors = save_tensors
        self._count = 0
        self._lock = threading.Lock()
        self.records = []
        self.__name__ = "fxscope_capture_backend"

    def _recording(self, record, name, kind, compiler):
        @functools.wraps(compiler)
        def compile(gm, example_inputs, *args, **kwargs):
            entry = placeholders = None
            try:
                entry, placeholders = record.add(name, kind, gm)
            except Exception as e:
                _warn(f"could not write the {name} graph", e)
            compiled = compiler(gm, example_inputs, *args, **kwargs)
            if entry is None or not record.save_tensors:
                return compiled

            def save_inputs(values):
                tensors, scalars = _placeholder_tensors(placeholders, values)
                record.add_tensors(entry, tensors, {"placeholders": ",".join(placeholders),
                                                    "scalars": ",".join(scalars), "when": "first call"})

            def save_outputs(outputs):
                record.add_tensors(entry, outputs, {"when": "first call"}, key="outputs")

            return _FirstCall(compiled, save_inputs, save_outputs)

        return compile

    def _aot_compilers(self, record, fw_compiler, bw_compiler=None, inference_compiler=None):
        # aot_module_simplified's own defaults (bw and inference fall back to fw), made explicit so each graph is
        # recorded under its role.
        return (self._recording(record, "forward", "aot_forward_graph", fw_compiler),
                self._recording(record, "backward", "aot_backward_graph", bw_compiler or fw_compiler),
                self._recording(record, "inference", "aot_inference_graph", inference_compiler or fw_compiler))

    @contextlib.contextmanager
    def _intercept_aot(self, record):
        """While the inner backend compiles, every module's reference to aot_module_simplified (torch's own, the
        one torch._dynamo.backends.common imported, TorchAir's npu_fx_compiler's) records the graphs it compiles."""
        from torch._functorch import aot_autograd

        original = aot_autograd.aot_module_simplified
        signature = inspect.signature(original)

        @functools.wraps(original)
        def recorded(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            a = bound.arguments
            fw, bw, inf = self._aot_compilers(record, a["fw_compiler"], a.get("bw_compiler"),
                                              a.get("inference_compiler"))
            a["fw_compiler"] = fw
            if "bw_compiler" in signature.parameters:
                a["bw_compiler"] = bw
            if "inference_compiler" in signature.parameters:
                a["inference_compiler"] = inf
            return original(*bound.args, **bound.kwargs)

        patched = []
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if isinstance(namespace, dict) and namespace.get("aot_module_simplified") is original:
                namespace["aot_module_simplified"] = recorded
                patched.append(namespace)
        try:
            yield
        finally:
            for namespace in patched:
                if namespace.get("aot_module_simplified") is recorded:
                    namespace["aot_module_simplified"] = original

    def __call__(self, gm, example_inputs, **kwargs):
        with self._lock:
            index = self._count
            self._count += 1
        inner_name = None if self.inner is None else (
            self.inner if isinstance(self.inner, str) else _serialize.qualified_name(
                getattr(self.inner, "func", self.inner)))
        record = _CompileRecord(self.out_dir, f"{self.name}_{index}", {
            "tool": "fxscope_capture.backend", "torch_version": torch.__version__, "compile_index": index,
            "inner": inner_name}, self.save_tensors)
        self.records.append(record)
        entry = None
        try:
            entry, placeholders = record.add("dynamo", "dynamo_output_graph", gm)
            if self.save_tensors:
                tensors, scalars = _placeholder_tensors(placeholders, example_inputs)
                weights = {}
                for node in gm.graph.nodes:
                    if node.op == "get_attr":
                        value = operator.attrgetter(node.target)(gm)
                        if isinstance(value, torch.Tensor):
                            tensors[node.name] = value
                            weights[node.name] = str(node.target)
                record.add_tensors(entry, tensors, {"placeholders": ",".join(placeholders),
                                                    "scalars": ",".join(scalars),
                                                    "get_attr": ",".join(weights), "when": "compile"})
        except Exception as e:
            _warn("could not write the Dynamo graph", e)

        if self.inner is None:
            from torch._dynamo.backends.common import aot_autograd
            from torch._functorch.aot_autograd import make_boxed_func

            def eager(fx_module, _example_inputs):
                return make_boxed_func(fx_module.forward)

            fw, bw, inf = self._aot_compilers(record, eager)
            compiled = aot_autograd(fw_compiler=fw, bw_compiler=bw, inference_compiler=inf,
                                    decompositions=self.decompositions)(gm, example_inputs)
        else:
            inner = self.inner
            if isinstance(inner, str):
                from torch._dynamo import lookup_backend
                inner = lookup_backend(inner)
            with self._intercept_aot(record):
                compiled = inner(gm, example_inputs, **kwargs)
        if entry is None or not self.save_tensors:
            return compiled

        def save_outputs(outputs):
            record.add_tensors(entry, outputs, {"when": "first call"}, key="outputs")

        # The Dynamo graph's inputs were saved at compile time; its outputs are what the compiled program returns.
        return _FirstCall(compiled, None, save_outputs)


def backend(out_dir, inner=None, name="graph", decompositions=None, save_tensors=True):
    """A torch.compile backend writing fxscope JSON (and tensors) into out_dir; see the module docstring.

        model = torch.compile(model, backend=fxscope_capture.backend(out_dir="fx"))
        npu = torch.compile(model, backend=fxscope_capture.backend("fx", inner=torchair.get_npu_backend()))

    decompositions: the aot decomposition table when inner is None (None: aot_autograd's default).
    save_tensors=False writes graphs only (weights of a large model are large)."""
    return FxscopeBackend(out_dir, inner=inner, name=name, decompositions=decompositions, save_tensors=save_tensors)
