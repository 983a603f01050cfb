"""python -m fxscope_capture.inductor_check GRAPH.json --patterns FILE... [--json]

Runs Inductor's real pattern matcher on a graph dump, the way fxscope-cli's `match --check-with-torch` and the
oracle (tests/oracle) ask it: the pattern files are registered through Inductor's own register_replacement (via
export_patterns, with the torch_npu/torchair stand-ins) into one fresh PatternMatcherPass, the dump is rebuilt as a
GraphModule with FakeTensor meta (_torch_graph), and ONE PatternMatcherPass.apply runs on it. Nothing of the matcher
is re-implemented: the pass is only observed (its pattern.match, extra_check and apply calls are wrapped) to report,
per (pattern, anchor), whether it was replaced and why not:

  generic          the generic pattern's FailedMatch (its message)
  unsupported_type Inductor skipped the anchor before matching (complex, sparse or meta tensors)
  erased           the anchor was gone when this pattern's turn came (an earlier replacement took it)
  mutation_stream  the match crossed a mutation region or an Inductor stream boundary
  retrace          re-tracing search_fn on the match's values failed (or an integer input needs grad)
  specific         the re-traced (literal-exact) pattern's FailedMatch
  extra_check      the user's extra_check (or TorchAir's stream check before it) returned False
  error            the user's extra_check raised: Inductor lets that propagate, the pass stops there
  replaced         the pattern fired

TorchAir registrations (torchair.register_replacement, _PatternPassManager.register_pattern) get TorchAir's stream
check before the user's check, as TorchAir's register_pattern wraps it (labels from air.scope_enter/scope_exit
nodes, or meta["stream_label"] where the dump keeps it). Under --pipeline torchair (the default where a pattern is
registered through TorchAir, as fxscope decides) the pass runs inside TorchAir's pipeline (torchair_pipeline.py):
remove_noop_ops, recover_view_inplace and optimize_sym_input before, view_to_reshape after. TorchAir's own built-in
patterns follow the user's where their files are found (FXSCOPE_TORCHAIR_PATTERNS, else torch_npu's or torchair's
in this Python), as fxscope does; the report says when they were left out.
"""

import argparse
import contextlib
import json
import os
import sys
import tempfile
import traceback

import torch
import torch._inductor.pattern_matcher as _pm

from . import _torch_graph
from ._patterns import export_patterns


# ----------------------------------------------------------------------------------------------------------------
# TorchAir's stream labels and check, from its documented behaviour (reference/anchors-matcher.md §3)

_USER_STREAM_KEY = "_user_stream_label"


def add_stream_labels(graph):
    """meta["stream_label"] per node from air.scope_enter/scope_exit scopes (None: the default stream), as TorchAir's
    add_stream_label_to_node_meta sets them before its pattern pass. A graph without scope ops keeps its labels."""
    scope_ops = [n for n in graph.nodes if n.op == "call_function"
                 and getattr(n.target, "namespace", None) == "air"]
    if not scope_ops:
        return False
    stack = [None]
    for n in graph.nodes:
        ns = getattr(n.target, "namespace", None) if n.op == "call_function" else None
        name = getattr(n.target, "_opname", "")
        if ns == "air" and name == "scope_enter":
            keys, values = list(n.args[0]), list(n.args[1])
            stack.append(values[keys.index(_USER_STREAM_KEY)] if _USER_STREAM_KEY in keys else stack[-1])
        elif ns == "air" and name == "scope_exit":
            if len(stack) > 1:
                stack.pop()
        n.meta["stream_label"] = stack[-1]
    return True


def check_pattern_stream(match):
    """TorchAir's _check_pattern_stream: the call_function nodes of a match must all lie on one stream (two different
    labels, or the default stream and another, reject it)."""
    labels = {n.meta.get("stream_label") for n in match.nodes if n.op == "call_function"}
    return len(labels) <= 1


# ----------------------------------------------------------------------------------------------------------------
# Observing the pass


def _text(m):
    try:
        return str(m)
    except Exception as e:  # Inductor's FailedMatch formats lazily; some format strings name missing arguments
        return f"{getattr(m, 'format_string', repr(m))} (unformattable: {type(e).__name__})"


def _user_frame(tb):
    """file:line of the innermost frame outside torch and this package (the user's check)."""
    here = os.path.dirname(os.path.abspath(__file__))
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__))
    best = None
    for frame in traceback.extract_tb(tb):
        f = os.path.abspath(frame.filename)
        if not f.startswith(torch_dir) and not f.startswith(here):
            best = f"{frame.filename}:{frame.lineno}"
    return best


class Observer:
    """Registration hooks for export_patterns and wrappers for one PatternMatcherPass.apply."""

    per_match_replacement = True  # no pattern graphs are written: a registration counts, not its display graphs

    def __init__(self, torchair_stream_check=True):
        self.registrations = []
        self.torchair_stream_check = torchair_stream_check
        self.records = {}  # (registration index, anchor name) -> record
        self.current = None  # the record of the entry/anchor being decided
        self.phase = None
        self.fallback = set()
        self.collected = []

    # export_patterns' instrument protocol

    def wrap_check(self, extra_check, registered_with, stream_check):
        observer = self
        with_stream = stream_check and self.torchair_stream_check

        def check(match):
            rec = observer.current
            if with_stream and not check_pattern_stream(match):
                if rec is not None:
                    rec.update(stage="extra_check", reason="TorchAir stream check: the match crosses streams "
                                                           "(stream_label)")
                return False
            if rec is not None:
                rec["stage"] = "extra_check"
            try:
                result = extra_check(match)
            except Exception as e:
                if rec is not None:
                    rec.update(stage="error", reason=f"extra_check raised {type(e).__name__}: {e}",
                               where=_user_frame(e.__traceback__))
                raise
            if rec is not None and not result:
                rec["reason"] = f"extra_check returned {result!r}"
            return result

        return check

    def registered(self, file, line, search_fn, registered_with, entries, check):
        self.registrations.append({"index": len(self.registrations), "file": file, "line": line,
                                   "search_fn": search_fn, "registered_with": registered_with,
                                   "entries": entries})

    # the pass

    def _record(self, reg, node):
        key = (reg["index"], node.name)
        if key not in self.records:
            self.records[key] = {"anchor": node.name, "stage": None, "reason": ""}
        return self.records[key]

    @contextlib.contextmanager
    def observing(self, pattern_pass, graph):
        undo = []

        def patch(obj, name, value):
            had = name in vars(obj) if not isinstance(obj, type) else name in obj.__dict__
            old = getattr(obj, name)
            setattr(obj, name, value)
            undo.append(lambda: setattr(obj, name, old) if had else delattr(obj, name))

        observer = self
        # Anchors as apply collects them: every node whose (op, target) has an entry, before anything changes.
        for reg in self.registrations:
            keys = {k for k, lst in pattern_pass.patterns.items() for e in lst if any(e is x for x in reg["entries"])}
            reg["anchors"] = [n.name for n in graph.nodes if (n.op, n.target) in keys]
        for reg in self.registrations:
            for entry in reg["entries"]:
                self._wrap_entry(reg, entry, patch)

        real_fallback = _pm.fallback_node_due_to_unsupported_type

        def fallback(node, *a, **k):
            skip = real_fallback(node, *a, **k)
            if skip:
                observer.fallback.add(node.name)
            return skip

        patch(_pm, "fallback_node_due_to_unsupported_type", fallback)
        real_log = _pm.log_trace_failure

        def log_trace_failure(search_fn, e):
            if observer.current is not None:
                observer.current.update(stage="retrace", reason=f"re-tracing {search_fn.__name__} failed: {e}")
            return real_log(search_fn, e)

        patch(_pm, "log_trace_failure", log_trace_failure)
        for cls in (_pm.PatternExpr, _pm.MultiOutputPattern):
            real_match = cls.__dict__["match"]

            def match(self, node, _real=real_match):
                m = _real(self, node)
                rec = observer.current
                if observer.phase == "check" and rec is not None and rec.get("stage") == "retrace?":
                    # the specific pattern, re-traced with the match's values
                    if not _pm.is_match(m):
                        rec.update(stage="specific", reason=_text(m))
                    else:
                        rec["stage"] = "specific_ok"
                return m

            patch(cls, "match", match)
        try:
            yield
        finally:
            for u in reversed(undo):
                u()

    def _wrap_entry(self, reg, entry, patch):
        observer = self
        pattern = entry.pattern
        real_match = pattern.match

        def generic_match(node):
            m = real_match(node)
            if observer.phase == "check":
                return m  # search_fn_pattern: the same object serves as the specific pattern
            rec = observer._record(reg, node)
            observer.current = rec
            if _pm.is_match(m):
                rec.update(stage="mutation_stream", reason="the match crosses a mutation region or stream boundary",
                           nodes=[n.name for n in m.nodes])
            else:
                rec.update(stage="generic", reason=_text(m))
            return m

        patch(pattern, "match", generic_match)
        real_check = entry.extra_check

        def extra_check(m):
            rec = observer.current
            if rec is not None:
                rec.update(stage="retrace?", reason="")
            observer.phase = "check"
            try:
                ok = real_check(m)
            finally:
                observer.phase = None
            if rec is not None and not ok and rec["stage"] in ("retrace?", "specific_ok"):
                if rec["stage"] == "retrace?":
                    rec.update(stage="retrace", reason=rec.get("reason") or "an integer input that requires grad, "
                                                                            "or the re-trace gave no pattern")
                else:
                    rec.update(stage="extra_check", reason=rec.get("reason") or "extra_check returned False")
            return ok

        patch(entry, "extra_check", extra_check)
        real_apply = entry.apply

        def apply(m, graph, node):
            rec = observer.current
            if rec is not None:
                rec.update(stage="replaced", reason="", nodes=[n.name for n in m.nodes])
            return real_apply(m, graph, node)

        patch(entry, "apply", apply)

    def candidates(self, reg, aborted):
        out = []
        for name in reg["anchors"]:
            rec = self.records.get((reg["index"], name))
            if rec is None:
                if name in self.fallback:
                    rec = {"anchor": name, "stage": "unsupported_type",
                           "reason": "Inductor skips anchors with complex, sparse or meta tensors"}
                elif aborted:
                    rec = {"anchor": name, "stage": "not_visited", "reason": "the pass stopped at an error"}
                else:
                    rec = {"anchor": name, "stage": "erased",
                           "reason": "erased by an earlier replacement before this pattern was tried"}
            rec = dict(rec)
            rec["replaced"] = rec["stage"] == "replaced"
            out.append(rec)
        return out


# ----------------------------------------------------------------------------------------------------------------


def register(pattern_files, observer, pattern_pass=None):
    """Registers every pattern source (FILE.py, module:callable, inductor:NAME) into one PatternMatcherPass through
    Inductor's register_replacement."""
    pattern_pass = pattern_pass or _pm.PatternMatcherPass(pass_name="fxscope_inductor_check")
    from . import torchair_pipeline
    from .host import load_source
    with tempfile.TemporaryDirectory(prefix="fxscope_check_") as tmp:
        for i, f in enumerate(pattern_files):
            load_source(f, os.path.join(tmp, str(i)), pattern_pass, observer)
        # TorchAir registers its own built-ins when it first applies the pass: after the user's.
        if follows_torchair(observer):
            for i, f in enumerate(torchair_pipeline.builtin_files()):
                export_patterns(f, os.path.join(tmp, f"builtin{i}"), pattern_pass, instrument=observer)
    return pattern_pass


def _short(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def follows_torchair(observer):
    """A pattern registered through TorchAir joins TorchAir's pass, and so its pipeline (fxscope decides the same)."""
    return any(r["registered_with"].startswith("torchair.") for r in observer.registrations)


def check_graph(gm, syms, pattern_pass, observer, pipeline="auto", run_outputs=True):
    """Runs the pass on gm (changed in place); the report as a dict. pipeline "auto": TorchAir's where a pattern
    is registered through TorchAir, else Inductor's."""
    from . import torchair_pipeline
    if pipeline == "auto":
        pipeline = "torchair" if follows_torchair(observer) else "inductor"
    observer.records.clear()
    observer.fallback.clear()
    report = {"torch_version": torch.__version__, "pipeline": pipeline, "nodes_before": len(gm.graph.nodes),
              "graph_before": _torch_graph.canonical(gm)}
    inputs = expected = None
    if run_outputs:
        try:
            inputs = _torch_graph.make_inputs(gm, syms)
            expected = _torch_graph.run(gm, inputs)
        except Exception as e:
            report["outputs"] = {"ran": False, "reason": f"unfused graph does not run: {type(e).__name__}: {e}"}
            inputs = None
    if pipeline == "torchair":
        report["passes_before"] = torchair_pipeline.before(gm)
        report["left_out"] = [] if torchair_pipeline.builtin_files() else ["TorchAir's built-in patterns"]
    labels = add_stream_labels(gm.graph)
    error = None
    count = 0
    with observer.observing(pattern_pass, gm.graph):
        try:
            count = pattern_pass.apply(gm)
        except Exception as e:
            error = {"type": type(e).__name__, "message": str(e), "where": _user_frame(e.__traceback__)}
    if pipeline == "torchair" and error is None:
        torchair_pipeline.after(gm)
    report["stream_labels_from_scopes"] = labels
    report["replaced_count"] = count
    report["error"] = error
    report["patterns"] = []
    for reg in observer.registrations:
        report["patterns"].append({
            "index": reg["index"], "search_fn": reg["search_fn"], "source": f"{_short(reg['file'])}:{reg['line']}",
            "registered_with": reg["registered_with"], "registered": bool(reg["entries"]),
            "candidates": observer.candidates(reg, error is not None)})
    report["nodes_after"] = len(gm.graph.nodes)
    report["graph_after"] = _torch_graph.canonical(gm)
    report["graph_after_meta"] = _torch_graph.canonical(gm, with_meta=True)
    try:
        gm.graph.lint()
        report["lint"] = None
    except Exception as e:
        report["lint"] = str(e)
    if inputs is not None and error is None:
        try:
            got = _torch_graph.run(gm, inputs)
            ok, diff = _torch_graph.compare_outputs(expected, got)
            report["outputs"] = {"ran": True, "match": ok, "max_abs_diff": diff}
        except Exception as e:
            report["outputs"] = {"ran": False, "reason": f"fused graph does not run: {type(e).__name__}: {e}"}
    return report


def check(graph_path, pattern_files, graph=None, pipeline="auto", run_outputs=True):
    observer = Observer()
    pattern_pass = register(pattern_files, observer)
    gm, syms = _torch_graph.load_graph_module(graph_path, graph)
    return check_graph(gm, syms, pattern_pass, observer, pipeline, run_outputs)


def _print_table(report):
    for p in report["patterns"]:
        cands = p["candidates"]
        print(f"{p['search_fn']}  ({p['source']}): {len(cands)} candidates, "
              f"{sum(c['replaced'] for c in cands)} replaced")
        for c in cands:
            print(f"  {c['anchor']:<24} {'REPLACED' if c['replaced'] else 'kept':<9} {c['stage']:<16} {c['reason']}")
        print()
    if report["error"]:
        e = report["error"]
        print(f"error: the pass stopped: {e['type']}: {e['message']}" + (f" ({e['where']})" if e["where"] else ""))
    out = report.get("outputs")
    if out:
        print("outputs: " + (f"fused {'==' if out['match'] else '!='} unfused (max abs diff {out['max_abs_diff']:g})"
                             if out["ran"] else out["reason"]))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m fxscope_capture.inductor_check",
                                 description="Inductor's real PatternMatcherPass on an fxscope JSON graph dump.")
    ap.add_argument("graph", help="fxscope JSON graph dump (fxscope-cli convert GRAPH -o G.json makes one)")
    ap.add_argument("--patterns", nargs="+", required=True, help="pattern files (register_replacement calls)")
    ap.add_argument("--graph", dest="graph_name", help="graph name or index inside the document")
    ap.add_argument("--pipeline", choices=["auto", "inductor", "torchair"], default="auto",
                    help="auto: TorchAir's where a pattern is registered through TorchAir, as fxscope decides")
    ap.add_argument("--no-run", action="store_true", help="do not run unfused and fused graphs")
    ap.add_argument("-o", "--output", help="write the graph after the pass as fxscope JSON")
    ap.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    try:
        observer = Observer()
        pattern_pass = register(args.patterns, observer)
        gm, syms = _torch_graph.load_graph_module(args.graph, args.graph_name)
    except (OSError, ValueError, RuntimeError, SyntaxError) as e:
        print(f"inductor_check: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    report = check_graph(gm, syms, pattern_pass, observer, args.pipeline, not args.no_run)
    if args.output:
        from . import _serialize
        from ._files import write_json
        write_json(args.output, _serialize.document([{"name": "inductor", "kind": "aten",
                                                       "graph": _serialize.graph_json(gm)}]))
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    else:
        _print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
