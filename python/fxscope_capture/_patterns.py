"""export_patterns(): a user's pattern file, run by Python with register_replacement intercepted, its search and
replace functions traced by PyTorch's own tracer, written as fxscope pattern JSON (schema in README.md).

Intercepted (each call is recorded and traced; nothing is registered with a real pass):
  torchair.register_replacement, torchair.patterns.pattern_pass_manager.register_replacement,
  torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern,
  torch._inductor.pattern_matcher.register_replacement and gen_register_replacement.

Where torch_npu, torchair or torch._inductor (absent in torch 1.13) cannot be imported, stand-in modules are put in
sys.modules for the duration of the call only, so `import torch_npu, torchair` and
`from torch._inductor.pattern_matcher import Match` work. torch_npu ops are then defined from npu_ops.KNOWN_OPS and
recorded as opaque call_function nodes with their qualified names (torch.ops.npu.npu_rms_norm.default); tensors the
file creates with device="npu" live on the CPU, and the device the file asked for is kept in example_inputs.
"""

import contextlib
import functools
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import logging
import os
import re
import runpy
import sys
import textwrap
import types

import torch

from . import _serialize, npu_ops
from ._files import write_json
from ._tracing import TraceContext, enriched_tracer, observe, trace_aten

PATTERN_FORMAT_VERSION = 1
_TORCH_2 = int(torch.__version__.split(".")[0]) >= 2


# ----------------------------------------------------------------------------------------------------------------
# Tracing (fwd_only semantics)


def _fwd_only_1x(fn, args):
    """Inductor's fwd_only for torch without Inductor: make_fx in real mode under no_grad, then dead code removed."""
    gm = trace_aten(fn, args)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def _joint_fwd_bwd_1x(fn, args):
    """Inductor's joint_fwd_bwd for torch without Inductor: functorch's aot_function records the joint forward +
    backward graph (placeholders primals_*, tangents_*; outputs the forward results, then the input gradients),
    flattened and dead code removed as Inductor does. No decompositions: torch 1.13's autograd formulas as recorded."""
    import copy

    from functorch.compile import aot_function, default_partition, make_boxed_func

    joint = None

    def record_joint_graph(joint_module, joint_inputs, **kwargs):
        nonlocal joint
        joint = copy.deepcopy(joint_module)
        return default_partition(joint_module, joint_inputs, **kwargs)

    aot_function(fn, lambda gm, inputs: make_boxed_func(gm), partition_fn=record_joint_graph)(*args)
    joint.graph._codegen = torch.fx.graph.CodeGen()
    joint.graph.eliminate_dead_code()
    joint.recompile()
    return joint


def _real_joint_fwd_bwd():
    if not _TORCH_2:
        return None
    try:
        from torch._inductor import pattern_matcher
    except ImportError:
        return None
    return getattr(pattern_matcher, "joint_fwd_bwd", None)


def _is_joint(trace_fn):
    return trace_fn is not None and (trace_fn is _joint_fwd_bwd_1x or trace_fn is _real_joint_fwd_bwd()
                                     or getattr(trace_fn, "__name__", "") == "joint_fwd_bwd")


def _tangents(fn, flat_inputs):
    """What the joint graph's tangents_* placeholders receive: ones shaped like each forward output."""
    with torch.no_grad():
        out = fn(*flat_inputs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [torch.ones_like(o) for o in outs if isinstance(o, torch.Tensor)]


def _real_fwd_only():
    if not _TORCH_2:
        return None
    try:
        from torch._inductor import pattern_matcher
    except ImportError:
        return None
    return getattr(pattern_matcher, "fwd_only", None) or getattr(pattern_matcher, "inference_graph", None)


def _is_fwd_only(trace_fn):
    return trace_fn is None or trace_fn is _fwd_only_1x or trace_fn is _real_fwd_only() or getattr(
        trace_fn, "__name__", "") in ("fwd_only", "inference_graph")


def _distinct(values):
    """make_fx keys proxies by tensor object, so the same tensor passed twice would trace as one input."""
    seen, out = set(), []
    for v in values:
        if isinstance(v, torch.Tensor) and id(v) in seen:
            clone = v.clone()
            if hasattr(v, "_fxscope_requested_device"):
                clone._fxscope_requested_device = v._fxscope_requested_device
            v = clone
        seen.add(id(v))
        out.append(v)
    return out


def _trace(fn, flat_inputs, trace_fn):
    """(GraphModule, observed values, name of the tracer) for fn on flat_inputs."""
    ctx = TraceContext(None, caller_frame=sys._getframe(0))
    if _is_fwd_only(trace_fn):
        real = _real_fwd_only()
        if real is not None:
            with enriched_tracer(ctx):
                gm = real(fn, list(flat_inputs))
            name = "torch._inductor.pattern_matcher.fwd_only"
        else:
            with enriched_tracer(ctx), torch.no_grad():
                gm = _fwd_only_1x(fn, list(flat_inputs))
            name = "fwd_only (make_fx, real mode, no_grad, dead code eliminated)"
    elif _is_joint(trace_fn):
        with enriched_tracer(ctx):
            gm = (_real_joint_fwd_bwd() or _joint_fwd_bwd_1x)(fn, list(flat_inputs))
        name = "torch._inductor.pattern_matcher.joint_fwd_bwd" if _real_joint_fwd_bwd() else \
            "joint_fwd_bwd (functorch aot_function joint graph, flattened, dead code eliminated)"
        tangents = _tangents(fn, flat_inputs)
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        _, observed = observe(gm, (list(flat_inputs) + tangents)[:len(placeholders)])
        return gm, observed, name
    else:
        with enriched_tracer(ctx):
            gm = trace_fn(fn, list(flat_inputs))
        name = _serialize.qualified_name(trace_fn)
    _, observed = observe(gm, list(flat_inputs))
    return gm, observed, name


# ----------------------------------------------------------------------------------------------------------------
# Source text of extra_check


def _code_names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _function_info(fn):
    """{name, source, file, line, globals, closure} of a Python function (or the function under a partial)."""
    if fn is None:
        return None
    partial_args = None
    if isinstance(fn, functools.partial):
        partial_args = {"args": [repr(a) for a in fn.args], "keywords": {k: repr(v) for k, v in fn.keywords.items()}}
        fn = fn.func
    info = {"name": getattr(fn, "__qualname__", repr(fn))}
    try:
        lines, line = inspect.getsourcelines(fn)
        info["source"] = textwrap.dedent("".join(lines))
        info["file"] = os.path.abspath(inspect.getsourcefile(fn) or "")
        info["line"] = line
    except (OSError, TypeError):
        info["source"] = None
    code = getattr(fn, "__code__", None)
    if code is not None:
        # Module-level constants and closure values the check reads (HIDDEN = 7168), so it can be evaluated
        # without the file.
        scope = {}
        for name in sorted(_code_names(code)):
            if name in getattr(fn, "__globals__", {}):
                value = _serialize._jsonable(fn.__globals__[name])
                if value is not _serialize._SKIP and not isinstance(fn.__globals__[name], type):
                    scope[name] = value
        if scope:
            info["globals"] = scope
        closure = {}
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            try:
                value = _serialize._jsonable(cell.cell_contents)
            except ValueError:
                continue
            if value is not _serialize._SKIP:
                closure[name] = value
        if closure:
            info["closure"] = closure
    if partial_args:
        info["partial"] = partial_args
    return info


# ----------------------------------------------------------------------------------------------------------------
# The export session: intercepted registrations become pattern files


def _shown_path(path):
    """A path as written into a pattern file: relative to the working directory when it lies inside it (so files
    exported inside a repository do not carry the exporting machine's absolute paths)."""
    if not path:
        return path
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _return_true(match):
    return True


class _Session:
    def __init__(self, pattern_file, out_dir):
        self.pattern_file = os.path.abspath(pattern_file)
        self.stem = os.path.splitext(os.path.basename(pattern_file))[0]
        self.out_dir = out_dir
        self.written = []
        self.errors = []
        self.names = set()

    def _call_line(self):
        f = sys._getframe(1)
        while f is not None:
            if os.path.abspath(f.f_code.co_filename) == self.pattern_file:
                return f.f_lineno
            f = f.f_back
        return 0

    def _unique(self, base):
        name, k = base, 2
        while name in self.names:
            name = f"{base}_{k}"
            k += 1
        self.names.add(name)
        return name

    def record(self, registered_with, stream_check, search_fn, replace_fn, example_inputs, trace_fn=None,
               extra_check=None, scalar_workaround=None, exclusive_arg_names=(), search_fn_pattern=None,
               unique_name=None, **ignored):
        line = self._call_line()
        label = f"{self.pattern_file}:{line}: {getattr(search_fn, '__name__', 'search_fn')}"
        try:
            path = self._export(registered_with, stream_check, search_fn, replace_fn, example_inputs, trace_fn,
                                extra_check, scalar_workaround or {}, tuple(exclusive_arg_names or ()),
                                search_fn_pattern, unique_name, line)
            self.written.append(path)
        except Exception as e:  # one bad pattern must not hide the others: reported together at the end
            logging.getLogger("fxscope_capture").debug("pattern export failed", exc_info=True)
            self.errors.append(f"{label}: {type(e).__name__}: {e}")
        return True

    def _export(self, registered_with, stream_check, search_fn, replace_fn, example_inputs, trace_fn, extra_check,
                scalar_workaround, exclusive_arg_names, search_fn_pattern, unique_name, line):
        example_inputs = tuple(example_inputs)
        argnames = list(inspect.signature(search_fn).parameters)
        # As Inductor's gen_pattern: arguments named in scalar_workaround take its values, the others the example
        # inputs in order.
        flat_inputs, examples, it = [], [], iter(example_inputs)
        for name in argnames:
            if name in scalar_workaround:
                value = scalar_workaround[name]
            else:
                try:
                    value = next(it)
                except StopIteration:
                    raise ValueError(f"search_fn takes {len(argnames)} arguments; example_inputs and "
                                     f"scalar_workaround give fewer") from None
            flat_inputs.append(value)
        flat_inputs = _distinct(flat_inputs)
        for name, value in zip(argnames, flat_inputs):
            entry = {"name": name}
            if isinstance(value, torch.Tensor):
                entry["val"] = _serialize.value_meta(value)
                entry["requires_grad"] = bool(value.requires_grad)
                requested = getattr(value, "_fxscope_requested_device", None)
                if requested:
                    entry["val"]["tensor"]["device"] = requested
                    entry["traced_on"] = str(value.device)
            else:
                entry["value"] = _serialize.argument(value, {})
            examples.append(entry)

        search_gm, search_observed, tracer = _trace(search_fn, flat_inputs, trace_fn)
        replace_gm, replace_observed, _ = _trace(replace_fn, flat_inputs, trace_fn)
        search = self._graph(search_gm, search_observed, argnames, "search_fn")
        replace = self._graph(replace_gm, replace_observed, argnames, "replace_fn")

        name = self._unique(unique_name or f"{self.stem}.{search_fn.__name__}")
        check = None if extra_check in (None, _return_true) or getattr(
            extra_check, "__name__", "") == "_return_true" else extra_check
        check_info = _function_info(check)
        doc = {
            "fxscope_pattern": PATTERN_FORMAT_VERSION,
            "name": name,
            "source_file": _shown_path(self.pattern_file),
            "source_line": line,
            "registered_with": registered_with,
            "stream_check": stream_check,
            "search_fn": _function_info(search_fn)["name"],
            "replace_fn": _function_info(replace_fn)["name"],
            "argnames": argnames,
            "replace_argnames": list(inspect.signature(replace_fn).parameters),
            "example_inputs": examples,
            "scalar_workaround": {k: _serialize.argument(v, {}) for k, v in scalar_workaround.items()},
            "exclusive_arg_names": list(exclusive_arg_names),
            "search_fn_pattern": None if search_fn_pattern is None else repr(search_fn_pattern),
            "trace_fn": tracer,
            "torch_version": torch.__version__,
            "extra_check": check_info["name"] if check_info else None,
            "extra_check_source": check_info.get("source") if check_info else None,
            "extra_check_file": _shown_path(check_info.get("file")) if check_info else None,
            "extra_check_line": check_info.get("line") if check_info else None,
            "extra_check_globals": check_info.get("globals", {}) if check_info else {},
            "extra_check_closure": check_info.get("closure", {}) if check_info else {},
            "search": search,
            "replace": replace,
            # The same two graphs as an fxscope graph document, so fxscope and fxscope-cli open the file as graphs.
            "fxscope": _serialize.FORMAT_VERSION,
            "graphs": [{"name": "search", "kind": "pattern_search", "graph": search},
                       {"name": "replace", "kind": "pattern_replace", "graph": replace}],
        }
        if check_info and "partial" in check_info:
            doc["extra_check_partial"] = check_info["partial"]
        path = os.path.join(self.out_dir, re.sub(r"[^\w.-]", "_", name) + ".json")
        return write_json(path, doc)

    @staticmethod
    def _graph(gm, observed, argnames, which):
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        # A joint graph adds tangents_1, ... after the inputs; they keep their names (as in fx_to_pattern).
        tangents = [n.target for n in placeholders[len(argnames):] if str(n.target).startswith("tangents")]
        argnames = list(argnames) + tangents
        if len(placeholders) != len(argnames):
            raise ValueError(f"tracing {which} gave {len(placeholders)} placeholders for the {len(argnames)} "
                             f"arguments of search_fn ({', '.join(argnames)})")
        # Placeholders take search_fn's argument names: extra_check reads match.kwargs by them, and Inductor binds
        # replace_fn's arguments by position in the same order.
        taken = {n.name for n in gm.graph.nodes if n.op != "placeholder"}
        rename = {}
        for node, arg in zip(placeholders, argnames):
            candidate = arg
            while candidate in taken:
                candidate += "_"
            taken.add(candidate)
            rename[node] = candidate
        return _serialize.graph_json(gm, observed, rename)

    # The interceptors, with the signatures of the functions they replace.

    def torchair_register_replacement(self, search_fn, replace_fn, example_inputs, trace_fn=None,
                                      extra_check=_return_true, search_fn_pattern=None, scalar_workaround=None,
                                      skip_duplicates=False):
        return self.record("torchair.register_replacement", True, search_fn, replace_fn, example_inputs, trace_fn,
                           extra_check, scalar_workaround, (), search_fn_pattern)

    def pass_manager_register_pattern(self, manager, search_fn, replace_fn, example_inputs, trace_fn=None,
                                      extra_check=_return_true, search_fn_pattern=None, scalar_workaround=None,
                                      skip_duplicates=False):
        return self.record("torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern", True,
                           search_fn, replace_fn, example_inputs, trace_fn, extra_check, scalar_workaround, (),
                           search_fn_pattern)

    def inductor_register_replacement(self, search_fn, replace_fn, example_inputs, trace_fn=None, pass_dicts=None,
                                      extra_check=_return_true, scalar_workaround=None, exclusive_arg_names=(),
                                      search_fn_pattern=None, skip_duplicates=False):
        return self.record("torch._inductor.pattern_matcher.register_replacement", False, search_fn, replace_fn,
                           example_inputs, trace_fn, extra_check, scalar_workaround, exclusive_arg_names,
                           search_fn_pattern)

    def inductor_gen_register_replacement(self, unique_name, search_fn, replace_fn, example_inputs, trace_fn=None,
                                          pass_dicts=None, extra_check=_return_true, scalar_workaround=None,
                                          exclusive_arg_names=(), skip_duplicates=False):
        return self.record("torch._inductor.pattern_matcher.gen_register_replacement", False, search_fn, replace_fn,
                           example_inputs, trace_fn, extra_check, scalar_workaround, exclusive_arg_names, None,
                           unique_name=unique_name)


# ----------------------------------------------------------------------------------------------------------------
# Stand-in modules (only where the real one cannot be imported) and interception of the real ones


class _PatternExpr:
    """Inductor pattern expressions (CallFunction, KeywordArg, ...) as plain records: a file may build a
    search_fn_pattern; its repr is kept in the pattern JSON."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __repr__(self):
        parts = [_serialize.qualified_name(a) if callable(a) and not isinstance(a, _PatternExpr) else repr(a)
                 for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{type(self).__name__}({', '.join(parts)})"


class Match:
    """Annotation stand-in for torch._inductor.pattern_matcher.Match (extra_check is recorded, not run here)."""


class _StandInModule(types.ModuleType):
    """A module whose missing attributes name what is missing instead of a bare AttributeError."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{self.__name__}.{name} is not provided by fxscope_capture's stand-in for "
                             f"{self.__name__.split('.')[0]} (the real package is not installed here)")


class _TorchNpuModule(_StandInModule):
    def __getattr__(self, name):
        if name.startswith("npu_") or name.startswith("_npu_"):
            return npu_ops.npu_op(name)
        return super().__getattr__(name)


class _StandInFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Creates submodules of the stand-in packages on import (torchair.configs.compiler_config, ...)."""

    def __init__(self, roots, installer):
        self.roots = roots
        self.installer = installer

    def find_spec(self, fullname, path=None, target=None):
        # `from torchair.x import Name` falls back to importing torchair.x.Name when the attribute is missing;
        # capitalised names are classes by convention, so they stay an ImportError rather than become modules.
        if fullname.split(".")[0] in self.roots and not fullname.rpartition(".")[2][:1].isupper():
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return self.installer(spec.name)

    def exec_module(self, module):
        pass


class _Environment:
    """Everything export_patterns changes in the interpreter, undone on exit in reverse order."""

    def __init__(self, session):
        self.session = session
        self.undo = []
        self.created = []

    # Helpers that remember how to restore.

    def setattr(self, obj, name, value):
        missing = object()
        old = obj.__dict__.get(name, missing) if isinstance(obj, type) else getattr(obj, name, missing)

        def restore():
            if old is missing:
                with contextlib.suppress(AttributeError):
                    delattr(obj, name)
            else:
                setattr(obj, name, old)

        setattr(obj, name, value)
        self.undo.append(restore)

    def module(self, name, cls=_StandInModule, **attrs):
        mod = sys.modules.get(name)
        if mod is None:
            mod = cls(name)
            mod.__path__ = []
            mod.__file__ = f"<fxscope_capture stand-in for {name}>"
            mod.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
            sys.modules[name] = mod
            self.created.append(name)
            parent, _, child = name.rpartition(".")
            if parent:
                self.setattr(self.module(parent), child, mod)
        for k, v in attrs.items():
            setattr(mod, k, v)
        return mod

    def __enter__(self):
        s = self.session
        self.need_npu = importlib.util.find_spec("torch_npu") is None
        need_torchair = importlib.util.find_spec("torchair") is None
        try:
            import torch._inductor.pattern_matcher as real_pm
        except ImportError:
            real_pm = None
        fwd_only = _real_fwd_only() or _fwd_only_1x

        if real_pm is None:
            exprs = {n: type(n, (_PatternExpr,), {}) for n in (
                "CallFunction", "CallMethod", "CallModule", "CallFunctionVarArgs", "KeywordArg", "Arg", "Ignored",
                "ExclusiveKeywordArg", "ListOf", "MultiOutputPattern", "RepeatedExpr")}
            self.module("torch._inductor")
            self.module("torch._inductor.pattern_matcher", Match=Match, fwd_only=fwd_only, inference_graph=fwd_only,
                        joint_fwd_bwd=_joint_fwd_bwd_1x, training_graph=_joint_fwd_bwd_1x,
                        _return_true=_return_true, register_replacement=s.inductor_register_replacement,
                        gen_register_replacement=s.inductor_gen_register_replacement,
                        PatternMatcherPass=type("PatternMatcherPass", (), {"__init__": lambda self, *a, **k: None}),
                        **exprs)
        else:
            self.setattr(real_pm, "register_replacement", s.inductor_register_replacement)
            if hasattr(real_pm, "gen_register_replacement"):
                self.setattr(real_pm, "gen_register_replacement", s.inductor_gen_register_replacement)

        def register_pattern(manager, *args, **kwargs):
            return s.pass_manager_register_pattern(manager, *args, **kwargs)

        if need_torchair:
            manager = type("_PatternPassManager", (), {"register_pattern": register_pattern,
                                                       "apply_pass": lambda self, graph: None})
            self.module("torchair", register_replacement=s.torchair_register_replacement)
            self.module("torchair.core")
            self.module("torchair.core.utils", logger=logging.getLogger("torchair"))
            self.module("torchair.patterns")
            self.module("torchair.patterns.pattern_pass_manager", _PatternPassManager=manager,
                        register_replacement=s.torchair_register_replacement, fwd_only=fwd_only,
                        _return_true=_return_true)
        else:
            import torchair
            self.setattr(torchair, "register_replacement", s.torchair_register_replacement)
            try:
                from torchair.patterns import pattern_pass_manager as ppm
            except ImportError:
                ppm = None
            if ppm is not None:
                self.setattr(ppm, "register_replacement", s.torchair_register_replacement)
                if hasattr(ppm, "_PatternPassManager"):
                    self.setattr(ppm._PatternPassManager, "register_pattern", register_pattern)

        if self.need_npu:
            npu_ops.define_known_ops()
            self.module("torch_npu", cls=_TorchNpuModule)
            self._patch_npu_device()

        roots = {r for r, needed in (("torch_npu", self.need_npu), ("torchair", need_torchair)) if needed}
        if roots:
            finder = _StandInFinder(roots, lambda name: self.module(name, cls=_TorchNpuModule if name.startswith(
                "torch_npu") else _StandInModule))
            sys.meta_path.insert(0, finder)
            self.undo.append(lambda: sys.meta_path.remove(finder))
        return self

    def _patch_npu_device(self):
        """device="npu" (unknown to torch without torch_npu) creates CPU tensors that remember the request."""

        def npu_device(device):
            if isinstance(device, str) and re.fullmatch(r"npu(:\d+)?", device):
                return device
            return None

        def mark(out, requested):
            if requested and isinstance(out, torch.Tensor):
                out._fxscope_requested_device = requested
            return out

        def wrap_factory(fn):
            @functools.wraps(fn)
            def factory(*args, **kwargs):
                requested = npu_device(kwargs.get("device"))
                if requested:
                    kwargs["device"] = "cpu"
                return mark(fn(*args, **kwargs), requested)

            return factory

        for name in ("empty", "empty_strided", "zeros", "ones", "full", "rand", "randn", "randint", "arange",
                     "tensor", "as_tensor", "empty_like", "zeros_like", "ones_like", "full_like", "rand_like",
                     "randn_like", "randint_like", "eye", "linspace"):
            if hasattr(torch, name):
                self.setattr(torch, name, wrap_factory(getattr(torch, name)))

        original_to = torch.Tensor.to

        def to(tensor, *args, **kwargs):
            requested = npu_device(args[0] if args else None) or npu_device(kwargs.get("device"))
            if requested:
                args = ("cpu",) + tuple(args[1:]) if args and npu_device(args[0]) else args
                if npu_device(kwargs.get("device")):
                    kwargs["device"] = "cpu"
            return mark(original_to(tensor, *args, **kwargs), requested)

        def npu(tensor, device=None, non_blocking=False):
            return mark(tensor, f"npu:{device}" if isinstance(device, int) else "npu")

        self.setattr(torch.Tensor, "to", to)
        self.setattr(torch.Tensor, "npu", npu)

    def __exit__(self, *exc):
        for restore in reversed(self.undo):
            restore()
        for name in reversed(self.created):
            sys.modules.pop(name, None)
        return False


class PatternExportError(RuntimeError):
    """Some registrations could not be traced; `written` lists the pattern files that were."""

    def __init__(self, errors, written):
        super().__init__("could not export every pattern:\n  " + "\n  ".join(errors))
        self.errors = errors
        self.written = written


def export_patterns(pattern_file, out_dir):
    """Runs `pattern_file` (as a module named fxscope_pattern_<stem>, so its `if __name__ == "__main__"` block does
    not run) with every register_replacement intercepted, and writes one fxscope pattern JSON per registration into
    out_dir: <stem>.<search_fn name>.json. Returns the paths written, in registration order.

    Raises PatternExportError when a registration could not be traced (the others are still written), and what the
    file itself raises when it fails to run."""
    session = _Session(pattern_file, out_dir)
    os.makedirs(out_dir, exist_ok=True)
    folder = os.path.dirname(session.pattern_file)
    sys.path.insert(0, folder)
    run_name = "fxscope_pattern_" + re.sub(r"\W", "_", session.stem)
    try:
        with _Environment(session):
            runpy.run_path(session.pattern_file, run_name=run_name)
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)
    if session.errors:
        raise PatternExportError(session.errors, session.written)
    return session.written
