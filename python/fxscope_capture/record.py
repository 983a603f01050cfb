"""Records what the graph passes of a real torch.compile run did, for `fxscope DIR` and `fxscope-cli info DIR`.

    python -m fxscope_capture.record -o DIR script.py ARGS...          # a script
    python -m fxscope_capture.record -o DIR -m torch.distributed.run --nproc-per-node 2 train.py   # torchrun
    with fxscope_capture.record.recording("DIR"): ...                  # inside a program
    eval "$(python -m fxscope_capture.record -o DIR --print-env)"      # programs that start their own processes

Nothing of the run is changed but Inductor's caches, which are off while recording (a cached graph runs no pass):
torch's own passes run as they always do. The recorder watches them from outside:
every pass Inductor runs under a GraphTransformObserver (its joint-graph and post-grad passes, the custom pre and
post passes vLLM and vLLM-Ascend install) and every PatternMatcherPass.apply (Inductor's, or one a user's pass
creates). Per pass application it writes one step file with the pass's identity, the time it took, the graph after
it when the pass changed the graph, and per pattern tried the anchors, the ones replaced and the reason torch gave for
each one not replaced (its FailedMatch text, or the extra_check's False). Layout (each file written atomically, so a
run that crashes leaves every step before the crash readable):

    DIR/recording.json                          what was run, with which torch
    DIR/rank<R>/<compile id>.<kind>/000.json    the graph as the first pass saw it (kind: dynamo, joint, forward,
                                                backward, inference)
    DIR/rank<R>/<compile id>.<kind>/001.json    one step per pass application, in the order torch ran them
"""

import argparse
import contextlib
import itertools
import os
import runpy
import sys
import threading
import time
import warnings
import weakref

import torch

from . import _files
from ._serialize import document, graph_json

FORMAT_VERSION = 1
ENV_VARIABLE = "FXSCOPE_RECORD"
MAX_ANCHORS_PER_PATTERN = 200  # per pattern and pass application; the counts stay exact beyond it
MAX_REASON_CHARS = 400


def _source_of(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return f"{code.co_filename}:{code.co_firstlineno}"


def _closure_value(fn, name):
    code = getattr(fn, "__code__", None)
    for var, cell in zip(getattr(code, "co_freevars", ()), getattr(fn, "__closure__", None) or ()):
        if var == name:
            with contextlib.suppress(ValueError):
                return cell.cell_contents
    return None


def _entry_identity(entry, extra_check):
    """(name, source) of a PatternEntry: register_replacement's search_fn (kept in its check_fn's closure), or the
    handler of register_graph_pattern / register_lowering_pattern. extra_check: the entry's own, not the recorder's
    wrapper around it."""
    name = getattr(entry, "pattern_name", None)
    fn = _closure_value(extra_check, "search_fn") or getattr(entry, "handler", None)
    if fn is None:
        fn = extra_check
    if isinstance(fn, torch.fx.GraphModule):
        fn = type(fn).forward
    qualname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(entry).__name__
    module = getattr(fn, "__module__", None)
    if not name:
        name = (f"{module}." if module else "") + qualname.replace(".<locals>", "")
    return name, _source_of(fn)


def _kind_of(gm, phase):
    """joint, forward, backward or inference for AOT graphs (from the Inductor phase the pass runs in), dynamo for
    the torch-level graph Dynamo hands the backend (pre-grad passes)."""
    tangents = any(n.op == "placeholder" and n.name.startswith("tangents_") for n in gm.graph.nodes)
    if phase == "post_grad":
        return "backward" if tangents else "forward"
    if phase:
        return phase
    if not any(n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) for n in gm.graph.nodes):
        return "dynamo"
    return "backward" if tangents else "forward"


def _fingerprint(graph):
    """What a pass may change: the nodes, their order, targets and arguments."""
    rows = []
    for n in graph.nodes:
        rows.append((n.name, n.op, str(n.target),
                     repr(torch.fx.node.map_arg((n.args, n.kwargs), lambda a: a.name))))
    return hash(tuple(rows))


def _written_order(graph):
    """The nodes in an order where every input comes first. Inside a pattern pass torch leaves replacements where
    they were inserted and sorts the graph afterwards (stable_topological_sort); fxscope's files need inputs first,
    so such a graph is written in the order that sort would give it, and the step says so."""
    seen = set()
    if all(seen.add(n) is None and all(i in seen for i in n.all_input_nodes) for n in graph.nodes):
        return None
    pending, ready, waiting, order = list(reversed(graph.nodes)), set(), {}, []
    while pending:
        node = pending.pop()
        waiting_for = [i for i in node.all_input_nodes if i not in ready]
        if waiting_for:
            waiting.setdefault(waiting_for[-1], []).append(node)
        else:
            ready.add(node)
            order.append(node)
            pending.extend(reversed(waiting.pop(node, ())))
    return order


def _rank():
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        return torch.distributed.get_rank()
    return int(os.environ.get("RANK", "0"))


def _compile_id():
    with contextlib.suppress(Exception):
        from torch._guards import CompileContext
        cid = CompileContext.current_compile_id()
        if cid is not None:
            return f"{cid.frame_id}_{cid.frame_compile_id}"
    return "0_0"


class _Remembered:
    """A pattern in a FailedMatch's arguments, its text made once per pass application: the text of a large pattern
    (an attention pattern's tree) takes most of a millisecond, and each of its anchors fails with it."""

    def __init__(self, obj, texts):
        self.obj, self.texts = obj, texts

    def _text(self, kind, make):
        key = (id(self.obj), kind)
        if key not in self.texts:
            self.texts[key] = make(self.obj)
        return self.texts[key]

    def __str__(self):
        return self._text("str", str)

    def __repr__(self):
        return self._text("repr", repr)

    def __format__(self, spec):
        return format(str(self), spec)


class _PatternTally:
    """One pattern's results in one pass application."""

    def __init__(self, name, source, entry_kind, pattern_class, pattern_name):
        self.name, self.source, self.entry_kind, self.pattern_class = name, source, entry_kind, pattern_class
        self.pattern_name = pattern_name
        self.tried = self.matched = self.replaced = self.check_false = self.discarded = 0
        self.anchors = []
        self.replaced_targets = {}  # anchor target -> replaced, exact beyond the anchor rows' cap

    def note(self, anchor, verdict, reason=None):
        if len(self.anchors) < MAX_ANCHORS_PER_PATTERN:
            row = {"anchor": anchor[0], "target": anchor[1], "verdict": verdict}
            if reason:
                row["reason"] = reason[:MAX_REASON_CHARS]
            self.anchors.append(row)

    def to_json(self):
        return {"name": self.name, "source": self.source, "entry": self.entry_kind,
                "pattern_class": self.pattern_class, "tried": self.tried,
                "matched": self.matched, "replaced": self.replaced, "extra_check_false": self.check_false,
                "discarded": self.discarded, "anchors": self.anchors,
                # torch's per-pattern counter (TORCHINDUCTOR_PATTERN_MATCH_DEBUG) keys a replacement by pattern_name,
                # else by f"{pattern_class}_{target}": both are here to compare with it
                "pattern_name": self.pattern_name, "replaced_targets": self.replaced_targets}


class _PatternPassRun:
    """Watches one PatternMatcherPass.apply: each entry's match and extra_check are wrapped for the call's duration
    (instance attributes over the class methods, removed after), so torch's own loop decides everything."""

    def __init__(self, recorder, pattern_pass):
        self.pattern_pass = pattern_pass
        self.tallies = {}
        self.pending = None  # (tally, anchor) of a structural match whose extra_check has not run yet
        self.checking = 0  # extra_checks of this application running now
        self.texts = {}  # (id(pattern), str|repr) -> its text, for the FailedMatch reasons
        self.restore = []
        try:
            self.identity = recorder.pass_identity(pattern_pass)
            for entries in pattern_pass.patterns.values():
                for entry in entries:
                    self._wrap(entry)
        except BaseException:
            self._restore()
            raise

    def _tally(self, entry, check):
        tally = self.tallies.get(id(entry))
        if tally is None:
            name, source = _entry_identity(entry, check)
            tally = self.tallies[id(entry)] = _PatternTally(name, source, type(entry).__name__,
                                                            type(entry.pattern).__name__,
                                                            getattr(entry, "pattern_name", None))
        return tally

    def _wrap(self, entry):
        if "extra_check" in vars(entry) and getattr(entry.extra_check, "_fxscope_wrapped", False):
            return
        pattern, check = entry.pattern, entry.extra_check
        match = pattern.match
        run = self

        def recorded_match(node):
            if run.checking:
                # register_replacement's check re-matches with real shapes, with the entry's own pattern object when
                # it is a precompiled one: part of the check, not another anchor tried
                return match(node)
            run._settle_pending()
            result = match(node)
            tally = run._tally(entry, check)
            tally.tried += 1
            anchor = (node.name, str(node.target))
            from torch._inductor.pattern_matcher import is_match
            if is_match(result):
                tally.matched += 1
                run.pending = (tally, anchor)
            elif len(tally.anchors) < MAX_ANCHORS_PER_PATTERN:
                tally.note(anchor, "failed", run._reason(result))
            return result

        def recorded_check(m):
            run.checking += 1
            try:
                result = check(m)
            finally:
                run.checking -= 1
            pending, run.pending = run.pending, None
            tally, anchor = pending if pending else (run._tally(entry, check), (None, None))
            from torch.fx.experimental.symbolic_shapes import guard_or_false
            if guard_or_false(result):
                tally.replaced += 1
                if anchor[1] is not None:
                    tally.replaced_targets[anchor[1]] = tally.replaced_targets.get(anchor[1], 0) + 1
                tally.note(anchor, "replaced")
            else:
                tally.check_false += 1
                tally.note(anchor, "extra_check", f"extra_check returned {result!r}")
            return result

        recorded_check._fxscope_wrapped = True
        self.restore.append((pattern, "match", "match" in vars(pattern), vars(pattern).get("match")))
        self.restore.append((entry, "extra_check", True, check))
        pattern.match = recorded_match
        entry.extra_check = recorded_check

    def _reason(self, failed):
        """str(failed), torch's own text, with each pattern's text made once."""
        from torch._inductor.pattern_matcher import PatternExpr
        args = getattr(failed, "args", None)
        kwargs = getattr(failed, "kwargs", None)
        if not isinstance(getattr(failed, "format_string", None), str) or args is None or kwargs is None:
            return str(failed)

        def text(v):
            return _Remembered(v, self.texts) if isinstance(v, PatternExpr) else v
        return failed.format_string.format(*map(text, args), **{k: text(v) for k, v in kwargs.items()})

    def _settle_pending(self):
        # A structural match whose extra_check never ran: apply discarded it (it crosses a mutation region or a
        # stream boundary).
        if self.pending:
            tally, anchor = self.pending
            tally.discarded += 1
            tally.note(anchor, "discarded", "the match crosses a mutation region or a stream boundary")
            self.pending = None

    def _restore(self):
        for obj, attr, had, value in reversed(self.restore):
            if had:
                setattr(obj, attr, value)
            else:
                with contextlib.suppress(AttributeError):
                    delattr(obj, attr)
        self.restore.clear()

    def finish(self, count, seconds):
        self._settle_pending()
        self._restore()
        tallies = sorted(self.tallies.values(), key=lambda t: t.name)
        return dict(self.identity, replaced=count, seconds=seconds, patterns=[t.to_json() for t in tallies])


class _Stream:
    """One compiled graph on one rank: the steps of every pass applied to it."""

    def __init__(self, folder, gm):
        self.folder = folder
        self.steps = 0
        self.fingerprint = None
        self.gm = weakref.ref(gm)


class Recorder:
    def __init__(self, out_dir):
        self.out_dir = os.path.abspath(out_dir)
        self.streams = {}  # id(GraphModule) -> _Stream
        self.depth = 0  # GraphTransformObserver nesting: a step is the outermost pass
        self.current = None  # the step being recorded: {"gm", "name", "started", "pattern_passes"}
        self.phase = None  # the Inductor phase running: joint, post_grad, inference
        self.pass_modules = {}  # id(PatternMatcherPass) -> "module.attribute" holding it
        self.modules_scanned = 0
        self.lock = threading.RLock()
        self.undo = []

    # -- identities ----------------------------------------------------------------------------------------------

    def guarded(self, method, *args):
        """Runs a recording method; a failure of the recorder is reported once and never stops the program."""
        try:
            return method(*args)
        except Exception as error:  # the user's run matters more than its recording
            if not getattr(self, "_warned", False):
                self._warned = True
                print(f"fxscope_capture.record: a step was not recorded ({type(error).__name__}: {error}); the run "
                      f"goes on", file=sys.stderr)
            return None

    def pass_identity(self, pattern_pass):
        """Where a PatternMatcherPass lives: the module attribute holding it (Inductor's passes are module globals,
        some in lists), else the line that created it (recorded by the patched __init__)."""
        found = {"pass_name": pattern_pass.pass_name}
        created = getattr(pattern_pass, "_fxscope_created_at", None)
        if created:
            found["created_at"] = created
        if id(pattern_pass) not in self.pass_modules and len(sys.modules) != self.modules_scanned:
            self._scan_modules()
        if id(pattern_pass) in self.pass_modules:
            found["module"] = self.pass_modules[id(pattern_pass)]
        return found

    def _scan_modules(self):
        """Every PatternMatcherPass held by a module attribute, in one walk of sys.modules (again only once more
        modules are loaded)."""
        from torch._inductor.pattern_matcher import PatternMatcherPass
        self.modules_scanned = len(sys.modules)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated module attributes warn when looked at
            for module_name, module in list(sys.modules.items()):
                for attr, value in list(getattr(module, "__dict__", {}).items()):
                    if isinstance(value, PatternMatcherPass):
                        self.pass_modules.setdefault(id(value), f"{module_name}.{attr}")
                    elif isinstance(value, (list, tuple)) and value and isinstance(value[0], PatternMatcherPass):
                        for index, item in enumerate(value):
                            self.pass_modules.setdefault(id(item), f"{module_name}.{attr}[{index}]")

    # -- steps ---------------------------------------------------------------------------------------------------

    def _stream(self, gm):
        stream = self.streams.get(id(gm))
        if stream is not None and stream.gm() is gm:
            return stream, False
        base = f"{_compile_id()}.{_kind_of(gm, self.phase)}"
        rank_dir = os.path.join(self.out_dir, f"rank{_rank()}")
        name = base
        for n in itertools.count(2):
            if not os.path.exists(os.path.join(rank_dir, name)):
                break
            name = f"{base}.{n}"
        stream = _Stream(os.path.join(rank_dir, name), gm)
        os.makedirs(stream.folder, exist_ok=True)
        self.streams[id(gm)] = stream
        return stream, True

    def _write(self, stream, gm, step, changed):
        graphs = []
        if changed:
            order = _written_order(gm.graph)
            if order is not None:
                step = dict(step, reordered=True)
            graphs.append({"name": f"{stream.steps:03d} {step['pass']}", "kind": os.path.basename(stream.folder),
                           "graph": graph_json(gm, order=order)})
        _files.write_json(os.path.join(stream.folder, f"{stream.steps:03d}.json"),
                          document(graphs, fxscope_recording_step=dict(step, index=stream.steps, changed=changed)))
        stream.steps += 1

    def begin_pass(self, gm, name):
        with self.lock:
            self.depth += 1
            if self.depth > 1 or not isinstance(gm, torch.fx.GraphModule):
                return
            self._catch_up(gm, "as the first pass saw it")
            self.current = {"gm": gm, "name": name, "pattern_passes": [], "started": time.perf_counter()}

    def _catch_up(self, gm, first_name):
        """Starts gm's stream, or records what code outside any observed pass changed since the last step (Inductor's
        canonicalization, sorts and recompiles between passes), so every step's graph is the one its pass saw."""
        stream, new = self._stream(gm)
        fingerprint = _fingerprint(gm.graph)
        if new:
            self._write(stream, gm, {"pass": first_name, "kind": "start"}, True)
        elif fingerprint != stream.fingerprint:
            self._write(stream, gm, {"pass": "changes between passes", "kind": "between"}, True)
        stream.fingerprint = fingerprint
        return stream

    def lowered(self, gm):
        """The graph Inductor lowers: the last step of a forward, backward or inference stream."""
        with self.lock:
            if self.depth == 0 and isinstance(gm, torch.fx.GraphModule):
                self._catch_up(gm, "as Inductor lowers it")

    def end_pass(self, gm, failed):
        with self.lock:
            self.depth -= 1
            if self.depth > 0 or self.current is None or self.current["gm"] is not gm:
                return
            current, self.current = self.current, None
            seconds = time.perf_counter() - current["started"]
            stream, _ = self._stream(gm)
            fingerprint = _fingerprint(gm.graph)
            changed = fingerprint != stream.fingerprint
            stream.fingerprint = fingerprint
            if not changed and not current["pattern_passes"] and not failed:
                return  # a pass that changed nothing and is no pattern pass: no step (the timeline shows changes)
            step = {"pass": current["name"], "kind": "pass", "seconds": seconds,
                    "pattern_passes": current["pattern_passes"], "nodes": len(gm.graph.nodes)}
            if failed:
                step["error"] = f"{type(failed).__name__}: {failed}"
            self._write(stream, gm, step, changed)

    def pattern_pass_started(self, pattern_pass, module):
        run = _PatternPassRun(self, pattern_pass)
        run.module = module
        return run

    def pattern_pass_finished(self, run, count, seconds):
        with self.lock:
            if self.current is not None:
                applied = run.finish(count, seconds)
                if run.module is not self.current["gm"]:
                    # joint_fwd_bwd applies early_patterns to the replacement a check traces: torch counts its
                    # replacements too, but they are not in the step's graph
                    applied["other_graph"] = True
                self.current["pattern_passes"].append(applied)
            else:
                run.finish(count, seconds)

    # -- patching ------------------------------------------------------------------------------------------------

    def _patch(self, owner, attr, make):
        original = getattr(owner, attr)
        setattr(owner, attr, make(original))
        self.undo.append((owner, attr, original))

    def _set(self, owner, attr, value):
        if hasattr(owner, attr):
            self._patch(owner, attr, lambda _: value)

    def start(self):
        from torch._inductor import pattern_matcher
        recorder = self
        os.makedirs(self.out_dir, exist_ok=True)
        info_path = os.path.join(self.out_dir, "recording.json")
        if not os.path.exists(info_path):
            _files.write_json(info_path, {"fxscope_recording": FORMAT_VERSION, "torch": torch.__version__,
                                          "command": sys.argv, "started": time.time()})

        def enter(original):
            def __enter__(observer):
                recorder.guarded(recorder.begin_pass, observer.gm, observer.passname)
                return original(observer)
            return __enter__

        def exit_(original):
            def __exit__(observer, kind, value, traceback):
                try:
                    return original(observer, kind, value, traceback)
                finally:
                    recorder.guarded(recorder.end_pass, observer.gm, value)
            return __exit__

        def apply(original):
            def recorded_apply(pattern_pass, gm):
                # Called outside any observed pass (joint_graph's early_patterns): the application is a step itself.
                module = gm if isinstance(gm, torch.fx.GraphModule) else getattr(gm, "owning_module", None)
                own_step = recorder.depth == 0 and module is not None
                if own_step:
                    identity = recorder.guarded(recorder.pass_identity, pattern_pass) or {}
                    name = pattern_pass.pass_name or identity.get("module", "pattern_matcher").rsplit(".", 1)[-1]
                    recorder.guarded(recorder.begin_pass, module, name)
                run = recorder.guarded(recorder.pattern_pass_started, pattern_pass, module)
                started = time.perf_counter()
                count, failed = 0, None
                try:
                    count = original(pattern_pass, gm)
                    return count
                except BaseException as error:
                    failed = error
                    raise
                finally:
                    if run is not None:
                        recorder.guarded(recorder.pattern_pass_finished, run, count, time.perf_counter() - started)
                    if own_step:
                        recorder.guarded(recorder.end_pass, module, failed)
            return recorded_apply

        def phased(choose):
            """Wraps an Inductor entry point so the passes it runs know their phase: choose(phase now, args, kwargs)."""
            def wrap(original):
                def in_phase(*args, **kwargs):
                    saved = recorder.phase
                    recorder.phase = choose(saved, args, kwargs)
                    try:
                        return original(*args, **kwargs)
                    finally:
                        recorder.phase = saved
                return in_phase
            return wrap

        def is_inference(args, kwargs):
            return kwargs.get("is_inference", args[1] if len(args) > 1 else False)

        def lowering(original):
            def recorded_run(graph_lowering, *args, **kwargs):
                recorder.guarded(recorder.lowered, graph_lowering.module)
                return original(graph_lowering, *args, **kwargs)
            return recorded_run

        def init(original):
            def recorded_init(pattern_pass, *args, **kwargs):
                original(pattern_pass, *args, **kwargs)
                caller = sys._getframe(1)
                pattern_pass._fxscope_created_at = f"{caller.f_code.co_filename}:{caller.f_lineno}"
            return recorded_init

        try:  # torch 2.4 and later name their passes through it; before, only the pattern passes are seen
            from torch.fx.passes import graph_transform_observer as gto
            self._patch(gto.GraphTransformObserver, "__enter__", enter)
            self._patch(gto.GraphTransformObserver, "__exit__", exit_)
        except ImportError:
            pass
        self._patch(pattern_matcher.PatternMatcherPass, "apply", apply)
        self._patch(pattern_matcher.PatternMatcherPass, "__init__", init)
        from torch._inductor import compile_fx, graph
        entry_points = {
            # An inference graph runs the joint-graph passes too: it stays an inference stream.
            "_recursive_joint_graph_passes": lambda saved, a, k: saved if saved == "inference" else "joint",
            "compile_fx_forward": lambda saved, a, k: "inference" if k.get("is_inference") else saved,
            "fw_compiler_freezing": lambda saved, a, k: "inference",
            "_recursive_post_grad_passes": lambda saved, a, k: "inference" if is_inference(a, k) else "post_grad",
        }
        for name, choose in entry_points.items():
            if hasattr(compile_fx, name):
                self._patch(compile_fx, name, phased(choose))
        self._patch(graph.GraphLowering, "run", lowering)
        # A graph served from Inductor's caches runs no pass: recording compiles everything afresh.
        from torch._inductor import config as inductor_config
        self._set(inductor_config, "fx_graph_cache", False)
        self._set(inductor_config, "fx_graph_remote_cache", False)
        with contextlib.suppress(ImportError):
            from torch._functorch import config as functorch_config
            self._set(functorch_config, "enable_autograd_cache", False)
            self._set(functorch_config, "enable_remote_autograd_cache", False)
        return self

    def stop(self):
        for owner, attr, original in reversed(self.undo):
            setattr(owner, attr, original)
        self.undo.clear()


@contextlib.contextmanager
def recording(out_dir):
    """Records every graph pass torch runs inside the block into out_dir (see the module's documentation)."""
    recorder = Recorder(out_dir).start()
    try:
        yield recorder
    finally:
        recorder.stop()


_from_env = None


def start_from_env():
    """Starts recording into $FXSCOPE_RECORD when it is set (the sitecustomize of --print-env calls this)."""
    global _from_env
    out_dir = os.environ.get(ENV_VARIABLE)
    if out_dir and _from_env is None:
        _from_env = Recorder(out_dir).start()
    return _from_env


def _autostart_folder():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_autorecord")


def _child_environment(out_dir):
    """What a child process needs to record too: the folder and a sitecustomize that starts the recorder."""
    paths = [_autostart_folder(), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    existing = os.environ.get("PYTHONPATH")
    return {ENV_VARIABLE: os.path.abspath(out_dir), "TORCHINDUCTOR_FX_GRAPH_CACHE": "0",
            "TORCHINDUCTOR_AUTOGRAD_CACHE": "0",
            "PYTHONPATH": os.pathsep.join(paths + ([existing] if existing else []))}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fxscope_capture.record",
        description="Runs a Python program and records every graph pass its torch.compile runs (Inductor's "
                    "joint-graph and post-grad passes, pattern passes, custom passes) for fxscope.")
    parser.add_argument("-o", "--out", required=True, help="the recording's folder")
    parser.add_argument("-m", dest="module", help="run a module as a script (python -m MODULE), torchrun too")
    parser.add_argument("--print-env", action="store_true",
                        help="print the environment variables that make any Python program record, and exit")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="script.py and its arguments")
    args = parser.parse_args(argv)
    environment = _child_environment(args.out)
    if args.print_env:
        for key, value in environment.items():
            print(f"export {key}={value!r}".replace("'", '"'))
        return 0
    if not args.module and not args.program:
        parser.error("name a script (script.py ARGS) or a module (-m MODULE ARGS)")
    os.environ.update(environment)  # processes the program starts (torchrun's workers) record too
    sys.argv = ([args.module] if args.module else []) + list(args.program)  # recording.json names the program
    start_from_env()
    if args.module:
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
        runpy.run_path(sys.argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
