"""make_fx, with what fxscope shows on top of PyTorch's own trace.

PyTorch's proxy tracer (torch.fx.experimental.proxy_tensor.PythonKeyTracer) is subclassed for the duration of one
trace, so that
- parameters and buffers become get_attr nodes named by their module path (attn.wq.weight) instead of
  _param_constant0 / _tensor_constant0,
- every node records the user's stack trace (frames inside torch and inside this package left out),
- every node records nn_module_stack, the modules it was called from, as Dynamo does.
The ops recorded are exactly make_fx's; only names and meta are added.
"""

import contextlib
import linecache
import operator
import os
import sys

import torch
import torch.fx
from torch.fx.experimental import proxy_tensor
from torch.fx.experimental.proxy_tensor import make_fx

from ._serialize import value_meta

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_STDLIB_DIR = os.path.dirname(os.path.abspath(os.__file__)) + os.sep


def _is_user_file(path):
    if not path or path.startswith("<"):
        return False
    path = os.path.abspath(path)
    if path.startswith(_TORCH_DIR) or os.path.dirname(path) == _PACKAGE_DIR:
        return False
    if path.startswith(_STDLIB_DIR) and "-packages" + os.sep not in path:
        return False
    return True


def _type_name(obj):
    t = type(obj)
    return f"{t.__module__}.{t.__qualname__}"


class TraceContext:
    """What one trace knows about the user's program: the root module's submodules and tensors by path, and the
    frames that called the capture (left out of stack traces)."""

    def __init__(self, root_module=None, caller_frame=None):
        self.module_paths = {}
        self.state = {}
        if root_module is not None:
            for path, m in root_module.named_modules():
                if path:
                    self.module_paths[id(m)] = (path, _type_name(m), m)
            for name, p in root_module.named_parameters():
                self.state[id(p)] = (name, p)
            for name, b in root_module.named_buffers():
                self.state.setdefault(id(b), (name, b))
        self.entry_frames = set()
        f = caller_frame
        while f is not None:
            self.entry_frames.add(id(f))
            f = f.f_back

    def module_entry(self, m):
        entry = self.module_paths.get(id(m))
        return entry[:2] if entry is not None and entry[2] is m else None

    def named_tensor(self, t):
        entry = self.state.get(id(t))
        return entry[0] if entry is not None and entry[1] is t else None

    def user_stack(self):
        """(stack trace text, innermost frame as {file, line, function, code}) of the user's frames now running."""
        frames = []
        f = sys._getframe(1)
        while f is not None and id(f) not in self.entry_frames:
            if _is_user_file(f.f_code.co_filename):
                frames.append(f)
            f = f.f_back
        if not frames:
            return None, None
        frames.reverse()  # outermost first, as Python tracebacks and Dynamo's stack_trace list them
        lines = []
        for fr in frames:
            code = linecache.getline(fr.f_code.co_filename, fr.f_lineno).strip()
            lines.append(f'  File "{fr.f_code.co_filename}", line {fr.f_lineno}, in {fr.f_code.co_name}\n    {code}\n')
        inner = frames[-1]
        source = {"file": inner.f_code.co_filename, "line": inner.f_lineno, "function": inner.f_code.co_name,
                  "code": linecache.getline(inner.f_code.co_filename, inner.f_lineno).strip()}
        return "".join(lines), source


def _install_attr(root, qualname, tensor):
    """Makes root.<qualname> resolve to tensor, creating the intermediate modules, so GraphModule copies it."""
    *path, leaf = qualname.split(".")
    mod = root
    for atom in path:
        sub = mod._modules.get(atom)
        if sub is None:
            sub = torch.nn.Module()
            mod.add_module(atom, sub)
        mod = sub
    if leaf in mod._parameters or leaf in mod._buffers:
        return
    if isinstance(tensor, torch.nn.Parameter):
        mod.register_parameter(leaf, tensor)
    else:
        mod.register_buffer(leaf, tensor)


@contextlib.contextmanager
def enriched_tracer(ctx):
    """Swaps proxy_tensor.PythonKeyTracer (looked up by make_fx at each call) for a subclass that adds names and
    meta; restored on exit."""
    base = proxy_tensor.PythonKeyTracer

    class FxscopeTracer(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._fxs_modules = []
            self._fxs_attr_nodes = {}

        def call_module(self, m, forward, args, kwargs):
            entry = ctx.module_entry(m)
            if entry is None:
                return super().call_module(m, forward, args, kwargs)
            self._fxs_modules.append(entry)
            try:
                return super().call_module(m, forward, args, kwargs)
            finally:
                self._fxs_modules.pop()

        def create_arg(self, a):
            if isinstance(a, torch.Tensor):
                qualname = ctx.named_tensor(a)
                if qualname is not None:
                    node = self._fxs_attr_nodes.get(qualname)
                    if node is None:
                        _install_attr(self.root, qualname, a)
                        node = self.create_node("get_attr", qualname, (), {})
                        self._fxs_attr_nodes[qualname] = node
                    return node
            return super().create_arg(a)

        def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
            if kind == "get_attr" and "." in str(target):
                # PythonKeyTracer.create_node reads a get_attr's value with getattr(root, target), which knows no
                # dotted module paths: the node is made by fx's Tracer and given its val here, as make_fx would.
                node = torch.fx.Tracer.create_node(self, kind, target, args, kwargs, name, type_expr)
                value = operator.attrgetter(target)(self.root)
                with proxy_tensor.disable_proxy_modes_tracing():
                    node.meta["val"] = proxy_tensor.extract_val(value)
            else:
                node = super().create_node(kind, target, args, kwargs, name, type_expr)
            if self._fxs_modules and "nn_module_stack" not in node.meta:
                node.meta["nn_module_stack"] = {path: (path, mtype) for path, mtype in self._fxs_modules}
            if kind not in ("placeholder", "output") and not node.meta.get("stack_trace"):
                trace, source = ctx.user_stack()
                if trace:
                    node.meta["stack_trace"] = trace
                    node.meta["_fxscope_source"] = source
            return node

    proxy_tensor.PythonKeyTracer = FxscopeTracer
    try:
        yield
    finally:
        proxy_tensor.PythonKeyTracer = base


def trace_aten(fn, flat_args, ctx=None, decomposition_table=None):
    """make_fx(fn)(*flat_args) in real mode under no_grad (Inductor's fwd_only semantics), with names and meta."""
    with enriched_tracer(ctx or TraceContext()), torch.no_grad():
        return make_fx(fn, decomposition_table=decomposition_table)(*flat_args)


def encode_observed(value):
    """What the serializer keeps of a value a node computed: its val form, or a Python scalar."""
    val = value_meta(value)
    if val is not None:
        return {"val": val}
    if isinstance(value, (bool, int, float)):
        return {"value": value}
    return {}


class ValueRecorder(torch.fx.Interpreter):
    """Runs a graph and keeps, per node, the encoded meta of what it computed (not the tensors themselves)."""

    def __init__(self, gm):
        super().__init__(gm)
        self.observed = {}

    def run_node(self, n):
        result = super().run_node(n)
        self.observed[n] = encode_observed(result)
        return result


def observe(gm, flat_args):
    """(outputs, {node: observed}) from running gm on flat_args under no_grad."""
    recorder = ValueRecorder(gm)
    with torch.no_grad():
        out = recorder.run(*flat_args)
    return out, recorder.observed
