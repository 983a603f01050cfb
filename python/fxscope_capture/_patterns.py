"""export_patterns(): a user's pattern file, run by Python with its registrations handed to Inductor's own
register_replacement (torch._inductor.pattern_matcher), which traces them with the registration's trace_fn (fwd_only,
joint_fwd_bwd); what Inductor traced is written as fxscope pattern JSON (schema in README.md).

Recorded registrations:
  torch._inductor.pattern_matcher.register_replacement and gen_register_replacement,
  torchair.register_replacement, torchair.patterns.pattern_pass_manager.register_replacement and
  torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern (TorchAir registers through Inductor's
  register_replacement with its own PatternMatcherPass, and so does the stand-in below).
Each is passed to the real register_replacement with a PatternMatcherPass of export_patterns' own (or the caller's),
never one of Inductor's global passes. The search graph is the one Inductor's gen_pattern_and_search_gm traced and
turned into its pattern; the replace graph is traced with the same trace_fn and inputs, as Inductor does when a match
is replaced.

torch_npu and torchair are Ascend packages: where one cannot be imported, a stand-in module is put in sys.modules for
the duration of the call only, so `import torch_npu, torchair` works. torch_npu ops are then defined from
npu_ops.KNOWN_OPS and recorded as opaque call_function nodes with their qualified names
(torch.ops.npu.npu_rms_norm.default); tensors the file creates with device="npu" live on the CPU, and the device the
file asked for is kept in example_inputs.
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
import torch._inductor.pattern_matcher as _pm
import torch.utils._pytree as pytree

from . import _serialize, npu_ops
from ._files import write_json
from ._tracing import TraceContext, enriched_tracer

PATTERN_FORMAT_VERSION = 1
_HERE = os.path.dirname(os.path.abspath(__file__))
_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__))
_log = logging.getLogger("fxscope_capture")

# Inductor's own, saved before export_patterns patches the module.
_REAL_REGISTER_REPLACEMENT = _pm.register_replacement
# Inductor keeps the search graph it traced only where register_replacement goes through gen_pattern_and_search_gm
# (newer 2.x); elsewhere the search graph is traced here with the same trace_fn and inputs.
_REAL_GEN_PATTERN_AND_SEARCH_GM = getattr(_pm, "gen_pattern_and_search_gm", None)
_REGISTER_PARAMETERS = inspect.signature(_pm.register_replacement).parameters


# ----------------------------------------------------------------------------------------------------------------
# Tracing as Inductor does


def _trace_args(argnames, example_inputs, scalar_workaround):
    """The arguments search_fn is traced with, as Inductor assembles them: parameters named in scalar_workaround take
    its values, the others the example inputs in order."""
    args, it = [], iter(example_inputs)
    for name in argnames:
        if name in scalar_workaround:
            args.append(scalar_workaround[name])
            continue
        try:
            args.append(next(it))
        except StopIteration:
            raise ValueError(f"search_fn takes {len(argnames)} arguments ({', '.join(argnames)}); example_inputs and "
                             f"scalar_workaround give fewer") from None
    return args


def _flat_argnames(argnames, args):
    """The names of the traced graph's placeholders, as Inductor gives them (pattern_matcher._trace_arg_info): an
    argument that is a list or tuple of tensors becomes name_0, name_1, ..."""
    used, out = set(), []

    def unique(name):
        candidate, k = name, 0
        while candidate in used:
            candidate = f"{name}_{k}"
            k += 1
        used.add(candidate)
        return candidate

    for name, arg in zip(argnames, args):
        leaves = pytree.tree_leaves(arg)
        if len(leaves) == 1:
            out.append(unique(name))
        elif len(leaves) > 1:
            out.extend(unique(f"{name}_{i}") for i in range(len(leaves)))
    return out


def _call_trace_fn(trace_fn, fn, args, get_decomp_fn):
    """trace_fn(fn, args) as register_replacement calls it in this torch (with get_decomp_fn where it passes one)."""
    if "get_decomp_fn" in _REGISTER_PARAMETERS:
        return trace_fn(fn, list(args), get_decomp_fn=get_decomp_fn or _pm.select_decomp_table)
    return trace_fn(fn, list(args))


def _pattern_text(pattern):
    """Inductor's pattern (a PatternExpr) as repr() writes it, for the JSON's inductor_pattern: the text fxscope prints
    for the pattern it builds from the search graph (fxscope-cli patterns --json, "pattern")."""
    return repr(pattern)


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
    info = {"name": getattr(fn, "__qualname__", repr(fn)), "def": getattr(fn, "__name__", repr(fn))}
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
# The export session: registrations go to Inductor, what it traced becomes pattern files


def _shown_path(path):
    """A path as written into a pattern file: relative to the working directory when it lies inside it (so files
    exported inside a repository do not carry the exporting machine's absolute paths)."""
    if not path:
        return path
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


class _Session:
    def __init__(self, pattern_file, out_dir, pattern_pass, instrument=None):
        self.instrument = instrument
        self.pattern_file = os.path.abspath(pattern_file)
        self.stem = os.path.splitext(os.path.basename(pattern_file))[0]
        self.out_dir = out_dir
        self.pattern_pass = pattern_pass
        self.written = []
        self.errors = []
        self.skipped = []
        self.names = set()
        self.traced = None  # while Inductor registers: [(search_gm, pattern)] from gen_pattern_and_search_gm

    def _call_site(self):
        """(file, line) of the registration: the innermost frame outside torch and this package (the pattern file's
        line, or where a module's pass code calls register_replacement)."""
        f = sys._getframe(1)
        while f is not None:
            path = os.path.abspath(f.f_code.co_filename)
            if path == self.pattern_file or not (path.startswith(_TORCH_DIR) or path.startswith(_HERE)
                                                  or f.f_code.co_filename.startswith("<")):
                return path, f.f_lineno
            f = f.f_back
        return self.pattern_file, 0

    def _unique(self, base):
        name, k = base, 2
        while name in self.names:
            name = f"{base}_{k}"
            k += 1
        self.names.add(name)
        return name

    def gen_pattern_and_search_gm(self, *args, **kwargs):
        """Inductor's own, recording the search graph it traced and the pattern it made of it."""
        pattern, gm = _REAL_GEN_PATTERN_AND_SEARCH_GM(*args, **kwargs)
        if self.traced is not None:
            self.traced.append((gm, pattern))
        return pattern, gm

    def record(self, registered_with, stream_check, search_fn, replace_fn, example_inputs, trace_fn=None,
               extra_check=None, scalar_workaround=None, exclusive_arg_names=(), search_fn_pattern=None,
               skip_duplicates=False, pattern_name=None, get_decomp_fn=None):
        file, line = self._call_site()
        label = f"{_shown_path(file)}:{line}: {getattr(search_fn, '__name__', 'search_fn')}"
        try:
            registered, path = self._export(registered_with, stream_check, search_fn, replace_fn, example_inputs,
                                            trace_fn, extra_check, dict(scalar_workaround or {}),
                                            tuple(exclusive_arg_names or ()), search_fn_pattern, skip_duplicates,
                                            pattern_name, get_decomp_fn, file, line)
        except Exception as e:  # one bad pattern must not hide the others: reported together at the end
            _log.debug("pattern export failed", exc_info=True)
            self.errors.append(f"{label}: {type(e).__name__}: {e}")
            return False
        if path is None:
            self.skipped.append(f"{label}: Inductor's register_replacement did not register it (a duplicate with "
                                f"skip_duplicates=True, or a joint_fwd_bwd pattern under inference mode)")
            _log.warning("%s", self.skipped[-1])
        else:
            self.written.append(path)
        return registered

    def _export(self, registered_with, stream_check, search_fn, replace_fn, example_inputs, trace_fn, extra_check,
                scalar_workaround, exclusive_arg_names, search_fn_pattern, skip_duplicates, pattern_name,
                get_decomp_fn, file, line):
        example_inputs = tuple(example_inputs)  # a generator would be used up by Inductor's trace
        trace_fn = trace_fn or _pm.fwd_only
        extra_check = extra_check or _pm._return_true
        argnames = list(inspect.signature(search_fn).parameters)
        args = _trace_args(argnames, example_inputs, scalar_workaround)
        ctx = TraceContext(None, caller_frame=sys._getframe(0))

        options = {"extra_check": extra_check, "scalar_workaround": scalar_workaround,
                   "exclusive_arg_names": exclusive_arg_names, "search_fn_pattern": search_fn_pattern}
        for name, value in (("skip_duplicates", skip_duplicates), ("pattern_name", pattern_name),
                            ("get_decomp_fn", get_decomp_fn)):
            if value and name in _REGISTER_PARAMETERS:
                options[name] = value
        if self.instrument is not None:
            options["extra_check"] = self.instrument.wrap_check(extra_check, registered_with, stream_check)
            before = {id(e) for entries in self.pattern_pass.patterns.values() for e in entries}
        self.traced = []
        try:
            with enriched_tracer(ctx):
                registered = _REAL_REGISTER_REPLACEMENT(search_fn, replace_fn, example_inputs, trace_fn,
                                                        self.pattern_pass, **options)
            traced = self.traced
        finally:
            self.traced = None
        if self.instrument is not None:
            new = {}
            for entries in self.pattern_pass.patterns.values():
                for e in entries:
                    if id(e) not in before:
                        new[id(e)] = e
            self.instrument.registered(file=file, line=line, search_fn=search_fn.__name__,
                                       registered_with=registered_with, entries=list(new.values()),
                                       check=options["extra_check"])
        if registered is False:
            return registered, None
        notes = []

        def trace_for_display(fn, which):
            # Inductor itself traces search_fn here only without a search_fn_pattern, and replace_fn only per
            # match, with the match's values: where the example inputs cannot trace them (fuse_attention's tensor
            # scale given to a float argument), the torch host still has the registration; an export has not.
            if inspect.ismethod(fn) and hasattr(_pm, "_wrap_bound_method"):  # as register_replacement does
                fn = _pm._wrap_bound_method(fn, list(inspect.signature(fn).parameters))
            try:
                with enriched_tracer(ctx):
                    return _call_trace_fn(trace_fn, fn, args, get_decomp_fn)
            except Exception as e:
                if not getattr(self.instrument, "per_match_replacement", False):
                    raise
                notes.append(f"{which} cannot be traced with the example inputs ({type(e).__name__}: "
                             f"{str(e).splitlines()[0]}); torch traces it per match")
                return None

        replace_gm = None
        if traced:
            search_gm, pattern = traced[-1]
        elif getattr(self.instrument, "per_match_replacement", False):
            # A search_fn_pattern (Inductor's serialized patterns): Inductor traces nothing now, and the host does
            # not either (117 fuse_attention patterns would take minutes); torch traces per match.
            search_gm, pattern = None, search_fn_pattern
            notes.append("registered with a search_fn_pattern: torch traces search_fn and replace_fn per match")
        else:
            # A search_fn_pattern was given (Inductor then traces search_fn only when it re-checks a match), or this
            # torch does not keep its search graph: traced here as Inductor traces it.
            search_gm = trace_for_display(search_fn, "search_fn")
            pattern = search_fn_pattern if search_fn_pattern is not None else (
                registered if isinstance(registered, _pm.PatternExpr) else None)
        # Inductor traces replace_fn when it replaces a match, with the same trace_fn, on that match's values.
        if search_gm is not None:
            replace_gm = trace_for_display(replace_fn, "replace_fn")

        flat_names = _flat_argnames(argnames, args)
        search = None if search_gm is None else self._graph(search_gm, flat_names, "search_fn")
        replace = None if replace_gm is None else self._graph(replace_gm, flat_names, "replace_fn")
        examples = []
        for name, value in zip(argnames, args):
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

        if pattern_name:
            base = pattern_name
        elif file == self.pattern_file:  # a pattern file's own registration: FILESTEM.search_fn
            base = f"{self.stem}.{search_fn.__name__}"
        else:  # pass code registering from its package: RMSNormPattern.register.pattern
            base = getattr(search_fn, "__qualname__", search_fn.__name__).replace(".<locals>", "")
        name = self._unique(base)
        check = None if extra_check is _pm._return_true or getattr(
            extra_check, "__name__", "") == "_return_true" else extra_check
        check_info = _function_info(check)
        doc = {
            "fxscope_pattern": PATTERN_FORMAT_VERSION,
            "name": name,
            "source_file": _shown_path(file),
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
            "trace_fn": _serialize.qualified_name(trace_fn),
            "torch_version": torch.__version__,
            "inductor_pattern": None if pattern is None else _pattern_text(pattern),
            # The name its source defines (what fxscope evaluates), and where it lives (make.<locals>.check).
            "extra_check": check_info["def"] if check_info else None,
            "extra_check_qualname": check_info["name"] if check_info else None,
            "extra_check_source": check_info.get("source") if check_info else None,
            "extra_check_file": _shown_path(check_info.get("file")) if check_info else None,
            "extra_check_line": check_info.get("line") if check_info else None,
            "extra_check_globals": check_info.get("globals", {}) if check_info else {},
            "extra_check_closure": check_info.get("closure", {}) if check_info else {},
            "search": search,
            "replace": replace,
            "flat_argnames": flat_names,
            "notes": notes,
            # The same two graphs as an fxscope graph document, so fxscope and fxscope-cli open the file as graphs.
            "fxscope": _serialize.FORMAT_VERSION,
            "graphs": [{"name": name, "kind": f"pattern_{name}", "graph": g}
                       for name, g in (("search", search), ("replace", replace)) if g is not None],
        }
        if check_info and "partial" in check_info:
            doc["extra_check_partial"] = check_info["partial"]
        if self.instrument is not None and hasattr(self.instrument, "exported"):
            self.instrument.exported(doc, search_fn=search_fn, replace_fn=replace_fn, extra_check=check,
                                     trace_fn=trace_fn, example_args=args)
        path = os.path.join(self.out_dir, re.sub(r"[^\w.-]", "_", name) + ".json")
        return registered, write_json(path, doc)

    @staticmethod
    def _graph(gm, flat_names, which):
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        # A joint graph adds tangents_1, ... after the inputs; they keep their targets as names (as fx_to_pattern).
        names = list(flat_names) + [str(n.target) for n in placeholders[len(flat_names):]
                                    if str(n.target).startswith("tangents")]
        if len(placeholders) != len(names):
            raise ValueError(f"tracing {which} gave {len(placeholders)} placeholders for the {len(flat_names)} "
                             f"inputs of search_fn ({', '.join(flat_names)})")
        # Placeholders take search_fn's argument names, as fx_to_pattern's KeywordArgs: extra_check reads
        # match.kwargs by them, and Inductor binds replace_fn's arguments by position in the same order.
        taken = {n.name for n in gm.graph.nodes if n.op != "placeholder"}
        rename = {}
        for node, arg in zip(placeholders, names):
            candidate = arg
            while candidate in taken:
                candidate += "_"
            taken.add(candidate)
            rename[node] = candidate
        return _serialize.graph_json(gm, None, rename)

    # What the intercepted functions become, with the signatures of the functions they replace.

    def inductor_register_replacement(self, search_fn, replace_fn, example_inputs, trace_fn=None, pass_dicts=None,
                                      extra_check=None, scalar_workaround=None, exclusive_arg_names=(),
                                      search_fn_pattern=None, skip_duplicates=False, pattern_name=None,
                                      get_decomp_fn=None):
        return self.record("torch._inductor.pattern_matcher.register_replacement", False, search_fn, replace_fn,
                           example_inputs, trace_fn, extra_check, scalar_workaround, exclusive_arg_names,
                           search_fn_pattern, skip_duplicates, pattern_name, get_decomp_fn)

    def inductor_gen_register_replacement(self, unique_name, search_fn, replace_fn, example_inputs, trace_fn=None,
                                          pass_dicts=None, extra_check=None, scalar_workaround=None,
                                          exclusive_arg_names=(), skip_duplicates=False, get_decomp_fn=None):
        # Inductor's precompiled patterns live in torch/_inductor/fx_passes/serialized_patterns; a user's pattern is
        # traced instead, as gen_register_replacement does under PYTORCH_GEN_PATTERNS.
        self.record("torch._inductor.pattern_matcher.gen_register_replacement", False, search_fn, replace_fn,
                    example_inputs, trace_fn, extra_check, scalar_workaround, exclusive_arg_names, None,
                    skip_duplicates, unique_name, get_decomp_fn)

    def torchair_register_replacement(self, search_fn, replace_fn, example_inputs, trace_fn=None, extra_check=None,
                                      search_fn_pattern=None, scalar_workaround=None, skip_duplicates=False):
        self.record("torchair.register_replacement", True, search_fn, replace_fn, example_inputs, trace_fn,
                    extra_check, scalar_workaround, (), search_fn_pattern, skip_duplicates)

    def pass_manager_register_pattern(self, manager, search_fn, replace_fn, example_inputs, trace_fn=None,
                                      extra_check=None, search_fn_pattern=None, scalar_workaround=None,
                                      skip_duplicates=False):
        self.record("torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern", True, search_fn,
                    replace_fn, example_inputs, trace_fn, extra_check, scalar_workaround, (), search_fn_pattern,
                    skip_duplicates)


# ----------------------------------------------------------------------------------------------------------------
# Stand-in modules for the Ascend packages (only where the real one cannot be imported)


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
        need_npu = importlib.util.find_spec("torch_npu") is None
        need_torchair = importlib.util.find_spec("torchair") is None

        self.setattr(_pm, "register_replacement", s.inductor_register_replacement)
        self.setattr(_pm, "gen_register_replacement", s.inductor_gen_register_replacement)
        if _REAL_GEN_PATTERN_AND_SEARCH_GM is not None:
            self.setattr(_pm, "gen_pattern_and_search_gm", s.gen_pattern_and_search_gm)

        def register_pattern(manager, *args, **kwargs):
            return s.pass_manager_register_pattern(manager, *args, **kwargs)

        if need_torchair:
            manager = type("_PatternPassManager", (), {
                "__init__": lambda self: setattr(self, "pass_dict", s.pattern_pass),
                "register_pattern": register_pattern,
                "apply_pass": lambda self, graph: self.pass_dict.apply(graph)})
            self.module("torchair", register_replacement=s.torchair_register_replacement)
            self.module("torchair.core")
            self.module("torchair.core.utils", logger=logging.getLogger("torchair"))
            self.module("torchair.patterns")
            self.module("torchair.patterns.pattern_pass_manager", _PatternPassManager=manager,
                        PatternPassManager=manager, register_replacement=s.torchair_register_replacement,
                        fwd_only=_pm.fwd_only, _return_true=_pm._return_true)
        else:
            import torchair
            self.setattr(torchair, "register_replacement", s.torchair_register_replacement)
            try:
                from torchair.patterns import pattern_pass_manager as ppm
            except ImportError:
                ppm = None
            if ppm is not None:
                if hasattr(ppm, "register_replacement"):
                    self.setattr(ppm, "register_replacement", s.torchair_register_replacement)
                for cls_name in ("_PatternPassManager", "PatternPassManager"):
                    if hasattr(ppm, cls_name):
                        self.setattr(getattr(ppm, cls_name), "register_pattern", register_pattern)

        if need_npu:
            npu_ops.define_known_ops()
            self.module("torch_npu", cls=_TorchNpuModule)
            self._patch_npu_device()

        roots = {r for r, needed in (("torch_npu", need_npu), ("torchair", need_torchair)) if needed}
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


def _call_register_functions(path, module):
    """TorchAir's built-in pattern files only define `_register_xxx_pattern(pattern_pass_manager, ...)` functions,
    which its pass manager calls. As fxscope's loader does (python_pattern_file.cpp, callRegisterFunctions): in file
    order, a `_register_` function without parameters that nothing called yet is called at once; those whose first
    parameter names a pass manager and whose other parameters have defaults are then called with a pass manager."""
    import ast
    import inspect
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    with_manager = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("_register_"):
            continue
        fn = module.get(node.name)
        if fn is None:
            continue
        params = list(inspect.signature(fn).parameters.values())
        if not params:
            info = getattr(fn, "cache_info", None)
            if info is None or info().currsize == 0:
                fn()
            continue
        if "pass_manager" in params[0].name and all(p.default is not p.empty for p in params[1:]):
            with_manager.append(fn)
    if with_manager:
        from torchair.patterns.pattern_pass_manager import _PatternPassManager
        manager = _PatternPassManager()
        for fn in with_manager:
            fn(manager)


def export_patterns(pattern_file, out_dir, pattern_pass=None, instrument=None):
    """Runs `pattern_file` (as a module named fxscope_pattern_<stem>, so its `if __name__ == "__main__"` block does
    not run) with every registration handed to Inductor's register_replacement, and writes one fxscope pattern JSON
    per registration into out_dir: <stem>.<search_fn name>.json. Returns the paths written, in registration order.

    pattern_pass: the torch._inductor.pattern_matcher.PatternMatcherPass the registrations are made in (a new one when
    None): pattern_pass.apply(graph) then runs Inductor's own matcher with exactly the exported patterns.

    instrument: optional observer (inductor_check's): wrap_check(extra_check, registered_with, stream_check) returns
    the check handed to Inductor, registered(file=, line=, search_fn=, registered_with=, entries=, check=) is told
    which PatternEntry objects each registration added (none for a skipped duplicate).

    Raises PatternExportError when a registration could not be traced (the others are still written), and what the
    file itself raises when it fails to run."""
    if pattern_pass is None:
        pattern_pass = _pm.PatternMatcherPass(pass_name="fxscope_capture.export_patterns")
    session = _Session(pattern_file, out_dir, pattern_pass, instrument)
    os.makedirs(out_dir, exist_ok=True)
    folder = os.path.dirname(session.pattern_file)
    sys.path.insert(0, folder)
    run_name = "fxscope_pattern_" + re.sub(r"\W", "_", session.stem)
    try:
        with _Environment(session):
            module = runpy.run_path(session.pattern_file, run_name=run_name)
            _call_register_functions(session.pattern_file, module)
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)
    if session.errors:
        raise PatternExportError(session.errors, session.written)
    return session.written
