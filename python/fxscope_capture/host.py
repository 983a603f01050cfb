"""python -m fxscope_capture.host: the torch host, the worker process in which the user's own torch runs the patterns.

fxscope (CLI and GUI) starts it on demand and talks to it over stdin/stdout, one JSON object per line each way
(stdout carries nothing else: what the user's code prints goes to stderr). Every request has "id" and "cmd"; every
reply has the same "id" and "ok", with "error" (and "traceback") when ok is false.

  hello                      {protocol, torch_version, python, pid}
  load    {sources: [...]}   registers every source into one fresh PatternMatcherPass through the real
                             register_replacement (Inductor's, or TorchAir's through export_patterns' stand-ins) and
                             returns per pattern what torch built: the PatternExpr tree (_pattern_tree), the search
                             and replacement graphs, argnames, scalar_workaround, the api and the source line.
                             A source is a pattern file (FILE.py), `module:callable` (the callable registers into
                             the pass it is given, or takes no argument) or `inductor:NAME` (one of Inductor's own
                             pattern sets, loaded into the fresh pass, never into Inductor's globals).
                             A load seen before answers from the pattern cache (pattern_cache, "cached": true);
                             torch registers those sources at the next check.
  mirror  {graph: GRAPH}     the graph fxscope shows, rebuilt as a GraphModule with FakeTensor meta (_torch_graph)
  edit    {nodes, removed, order}
                             follows fxscope's edits of that graph by node name: nodes added or changed (fxscope
                             JSON nodes, in graph order, each with "after", the node before it, when only the
                             changed nodes move), names removed, and the whole order when it changed
  mirror_text                the mirror, one line per node (name, op, target, arguments, val's dtype, shape and
                             strides): a mirror followed by edits reads the same as one rebuilt whole
  check   {pattern, anchor, force}
                             what Inductor runs after the structural match, on the mirror: the generic match, then
                             register_replacement's check_fn (re-trace with the match's values, the specific
                             pattern, the user's extra_check on a real Match, the replacement traced per match).
                             With force, check_fn sees the user's check accept (its own verdict is still reported):
                             the replacement torch would splice, for the numerics of a candidate the check refused
  user_check {pattern, anchor, nodes, kwargs}
                             the user's extra_check alone on a Match of the mirror's nodes (kwargs: name -> fxscope
                             JSON argument): what a near-miss hint's changed pattern would face, whose structure is
                             fxscope's (check_fn's re-trace of the unchanged search_fn does not apply to it).
                             {result, trace} or {result: false, raised, where}
  numerics {before, after, seed}
                             a fusion's two parts (fxscope JSON graphs reading the same input nodes) run on the
                             same inputs made from meta: {equal, max_abs_diff, detail}; for what LibTorch cannot run
  shutdown

A pattern is addressed by its index in the last load's list.
"""

import contextlib
import functools
import importlib
import importlib.util
import inspect
import json
import math
import os
import sys
import tempfile
import time
import traceback

from . import pattern_cache

PROTOCOL = 1


def _reply_stream():
    """The real stdout for replies; sys.stdout becomes stderr so a print in the user's code cannot corrupt them."""
    out = sys.stdout
    sys.stdout = sys.stderr
    return out


class HostError(Exception):
    """A request that cannot be served (unknown pattern, no mirror, a source that does not load)."""


# ----------------------------------------------------------------------------------------------------------------
# Inductor's own pattern sets: (module, init function) in torch._inductor.fx_passes

INDUCTOR_SETS = {
    "fuse_attention": ("fuse_attention", "_sfdp_init"),
    "pad_mm": ("pad_mm", "_pad_mm_init"),
    "misc_patterns": ("misc_patterns", "_misc_patterns_init"),
    "post_grad": ("post_grad", "lazy_init"),
    "joint_graph": ("joint_graph", "lazy_init"),
    "freezing_patterns": ("freezing_patterns", "lazy_init"),
}


def _uncached(fn):
    """The init function without its functools.cache (so each load registers anew), keeping init_once_fakemode's
    fake-mode set-up where it has one."""
    inner = getattr(fn, "__wrapped__", None)
    return inner if inner is not None and hasattr(fn, "cache_clear") else fn


def _clear_init_caches():
    for module_name, fn_name in INDUCTOR_SETS.values():
        module = sys.modules.get(f"torch._inductor.fx_passes.{module_name}")
        fn = getattr(module, fn_name, None) if module else None
        if hasattr(fn, "cache_clear"):
            fn.cache_clear()


def load_source(source, out_dir, pattern_pass, instrument, builtin=False):
    """Registers one pattern source into pattern_pass through the real register_replacement, with export_patterns'
    instrument protocol (wrap_check, registered, exported). A source is FILE.py, module:callable or inductor:NAME.
    The host and inductor_check (--check-with-torch) load sources alike."""
    if source.startswith("inductor:"):
        return _load_inductor_set(source[len("inductor:"):], out_dir, pattern_pass, instrument)
    if ":" in source and not os.path.exists(source) and not source.endswith(".py"):
        return _load_callable(source, out_dir, pattern_pass, instrument)
    if not os.path.isfile(source):
        raise HostError(f"{source}: no such pattern file (a source is FILE.py, module:callable or inductor:NAME)")
    from ._patterns import export_patterns
    export_patterns(source, out_dir, pattern_pass, instrument=instrument)


@contextlib.contextmanager
def _session(source_file, out_dir, pattern_pass, instrument):
    from ._patterns import _Environment, _Session, PatternExportError
    os.makedirs(out_dir, exist_ok=True)
    session = _Session(source_file, out_dir, pattern_pass, instrument)
    before = set(sys.modules)
    try:
        with _Environment(session):
            yield session
    finally:
        # The user's modules are imported afresh by the next load: their `from ... import register_replacement`
        # binds the recording function only when imported under a session.
        for name in set(sys.modules) - before:
            if not name.startswith(("torch", "fxscope_capture", "sympy", "numpy")):
                sys.modules.pop(name, None)
    if session.errors:
        raise PatternExportError(session.errors, session.written)


def _load_callable(source, out_dir, pattern_pass, instrument):
    module_name, _, attr = source.partition(":")
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise HostError(f"{source}: no module {module_name!r} in this Python ({sys.executable}); put its folder on "
                        f"PYTHONPATH")
    with _session(spec.origin or module_name, out_dir, pattern_pass, instrument):
        module = importlib.import_module(module_name)
        fn = module
        for part in attr.split("."):
            fn = getattr(fn, part, None)
            if fn is None:
                raise HostError(f"{source}: {module_name} has no attribute {attr!r}")
        if not callable(fn):
            raise HostError(f"{source}: {attr} is not callable")
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        fn(pattern_pass) if params else fn()


def _load_inductor_set(name, out_dir, pattern_pass, instrument):
    if name not in INDUCTOR_SETS:
        raise HostError(f"inductor:{name}: unknown pattern set; Inductor's are "
                        + ", ".join(f"inductor:{k}" for k in INDUCTOR_SETS))
    module_name, fn_name = INDUCTOR_SETS[name]
    module = importlib.import_module(f"torch._inductor.fx_passes.{module_name}")
    init = _uncached(getattr(module, fn_name))
    with _session(module.__file__, out_dir, pattern_pass, instrument) as session:
        # A name bound at import (from ..pattern_matcher import register_replacement) goes to the session too.
        had = getattr(module, "register_replacement", None)
        if had is not None:
            module.register_replacement = session.inductor_register_replacement
        _clear_init_caches()
        try:
            init()
        finally:
            if had is not None:
                module.register_replacement = had
            _clear_init_caches()


class Host:
    def __init__(self):
        import torch
        import torch._inductor.pattern_matcher as pm
        from . import _torch_graph
        self.torch = torch
        self.pm = pm
        self.tg = _torch_graph
        self.patterns = []  # per registered pattern: {"doc", "entries", "registered_with", ...}
        self.pattern_pass = pm.PatternMatcherPass(pass_name="fxscope_host")
        self.current = None  # the check being decided: the user's extra_check writes its outcome here
        self.force = False  # check_fn sees the user's check accept (check {force})
        self.gm = None
        self.syms = None
        self.nodes = {}
        self.pending = []  # (load request, the reply sent from the cache): registered before the next check

    # -- protocol ------------------------------------------------------------------------------------------------

    def serve(self, stdin, out):
        for line in stdin:
            line = line.strip()
            if not line:
                continue
            try:
                request = json.loads(line)
            except ValueError as e:
                reply = {"id": None, "ok": False, "error": f"host: a request that is not JSON: {e}"}
            else:
                reply = self.handle(request)
            out.write(json.dumps(reply, allow_nan=False, default=str) + "\n")
            out.flush()
            if request.get("cmd") == "shutdown":
                return

    def handle(self, request):
        cmd = request.get("cmd")
        handler = getattr(self, "cmd_" + str(cmd), None)
        if handler is None:
            return {"id": request.get("id"), "ok": False, "error": f"host: unknown command {cmd!r}"}
        start = time.perf_counter()
        try:
            result = handler(request)
        except HostError as e:
            return {"id": request.get("id"), "ok": False, "error": str(e)}
        except Exception as e:  # what the user's code raised while loading: the reply carries it
            return {"id": request.get("id"), "ok": False, "error": f"{type(e).__name__}: {e}",
                    "traceback": traceback.format_exc(limit=-12)}
        result.update(id=request.get("id"), ok=True, seconds=time.perf_counter() - start)
        return result

    def cmd_hello(self, request):
        return {"protocol": PROTOCOL, "torch_version": self.torch.__version__, "python": sys.executable,
                "pid": os.getpid()}

    def cmd_shutdown(self, request):
        return {}

    # -- load ----------------------------------------------------------------------------------------------------

    def cmd_load(self, request):
        # Traced patterns are cached on disk (pattern_cache): a source loaded before answers at once, and torch
        # registers it only when a check needs the real entries (most matches of a large set never do).
        cache = pattern_cache.PatternCache.for_request(request, self.torch.__version__)
        cached = cache.read() if cache else None
        if cached is not None:
            first = len(self.patterns) + sum(len(sent["patterns"]) for _, sent in self.pending)
            reply = dict(cached, patterns=[dict(p, index=first + k) for k, p in enumerate(cached["patterns"])],
                         cached=True)
            self.pending.append((request, reply))
            return reply
        self.realize()
        reply = self.load_now(request)
        if cache:
            cache.write(reply)
        return reply

    def realize(self):
        """Registers the sources of cached loads, in load order, so pattern indices are the ones already sent."""
        while self.pending:
            request, sent = self.pending.pop(0)
            got = self.load_now(request)
            if [p["name"] for p in got["patterns"]] != [p["name"] for p in sent["patterns"]]:
                raise HostError("the pattern cache no longer matches the sources (delete "
                                f"{pattern_cache.cache_dir()} and load again)")

    def load_now(self, request):
        from ._patterns import PatternExportError
        # Each load appends to one pass (as one PatternMatcherPass receives every registration of a compile):
        # pattern indices stay valid across loads.
        first = len(self.patterns)
        recorder = _Recorder(self)
        builtins_from = ""
        warnings = []
        with tempfile.TemporaryDirectory(prefix="fxscope_host_") as tmp:
            for i, source in enumerate(request.get("sources") or []):
                try:
                    load_source(source, os.path.join(tmp, str(i)), self.pattern_pass, recorder)
                except PatternExportError as e:
                    warnings.extend(e.errors)  # the other registrations of the file are kept
                except HostError:
                    raise
                except SyntaxError as e:
                    raise HostError(f"{e.filename}:{e.lineno}:{e.offset or 1}: {e.msg}") from None
            if request.get("torchair_builtins", True) and not any(p.get("builtin") for p in self.patterns) and any(
                    p["registered_with"].startswith("torchair.") for p in self.patterns[first:]):
                from . import torchair_pipeline
                recorder.builtin = True
                for k, f in enumerate(torchair_pipeline.builtin_files()):
                    load_source(f, os.path.join(tmp, f"builtin{k}"), self.pattern_pass, recorder)
                    builtins_from = torchair_pipeline.builtins_folder()
        out = []
        for i, p in enumerate(self.patterns[first:], start=first):
            out.append(dict(p["doc"], index=i, pattern=p["tree"], torchair_builtin=p.get("builtin", False),
                            entries=len(p["entries"])))
        return {"patterns": out, "warnings": warnings, "torchair_builtins_from": builtins_from}

    # -- the mirror ----------------------------------------------------------------------------------------------

    def cmd_mirror(self, request):
        graph = request.get("graph")
        if not isinstance(graph, dict):
            raise HostError("mirror: expected a graph object")
        try:
            self.gm, self.syms = self.tg.load_graph_module({"graphs": [{"graph": graph}]})
        except Exception:
            if not self.pending:
                raise
            # A cached load has not run its sources yet, and they define ops the graph uses (torch.library):
            # run them, then rebuild.
            self.realize()
            self.gm, self.syms = self.tg.load_graph_module({"graphs": [{"graph": graph}]})
        self.nodes = {n.name: n for n in self.gm.graph.nodes}
        return {"nodes": len(self.nodes)}

    def cmd_mirror_text(self, request):
        if self.gm is None:
            raise HostError("mirror_text: no mirror yet")

        def val(v):
            if isinstance(v, self.torch.Tensor):
                return f"{v.dtype}{list(v.shape)}{list(v.stride())}"
            if isinstance(v, (tuple, list)):
                return "(" + ", ".join(val(x) for x in v) + ")"
            return repr(v)
        return {"text": "\n".join(f"{n.name} = {n.op} {n.target}{n.args}{n.kwargs} : {val(n.meta.get('val'))}"
                                  for n in self.gm.graph.nodes)}

    def cmd_numerics(self, request):
        """A fusion's two parts (fxscope JSON graphs reading the same input nodes) run here on the same inputs, made
        from meta with the request's seed: what fxscope's LibTorch cannot run (the ops the pattern sources define with
        torch.library) this Python can. Outputs compared as inductor_check compares graphs."""
        self.realize()
        parts = []
        for key in ("before", "after"):
            if not isinstance(request.get(key), dict):
                raise HostError(f"numerics: expected a graph object as {key!r}")
            parts.append(self.tg.load_graph_module({"graphs": [{"graph": request[key]}]}))
        (before, syms), (after, _) = parts
        # make_inputs gives one value per input node of `before`, in order; `after` reads them by name.
        names = [n.name for n in before.graph.nodes if n.op == "placeholder"]
        inputs = dict(zip(names, self.tg.make_inputs(before, syms, seed=int(request.get("seed", 0)))))
        try:
            fed = [inputs[n.name] for n in after.graph.nodes if n.op == "placeholder"]
        except KeyError as e:
            raise HostError(f"numerics: the replacement reads {e}, which the replaced part does not") from None
        expected = self.tg.run(before, list(inputs.values()))
        got = self.tg.run(after, fed)
        equal, worst = self.tg.compare_outputs(expected, got)
        reply = {"equal": bool(equal), "max_abs_diff": worst if math.isfinite(worst) else None}  # None: shapes differ
        if not equal:
            reply["detail"] = self.tg.first_difference(got, expected)
        return reply

    def cmd_edit(self, request):
        """The mirror follows fxscope's graph: `nodes` are the nodes added or changed, in graph order, each with
        `after`, the name of the node before it (null: the first), when only they moved; `removed` the names gone;
        `order`, when given, every name in the new order."""
        if self.gm is None:
            raise HostError("edit: no mirror yet")
        graph = self.gm.graph
        removed = list(request.get("removed") or [])
        strideless = []  # nodes whose dump gives no strides: their meta kernels do, once the edit is in place
        for nj in request.get("nodes") or []:
            name = nj["name"]
            tensor = ((nj.get("meta") or {}).get("val") or {}).get("tensor")
            if isinstance(tensor, dict) and tensor.get("stride") is None:
                strideless.append(name)
            place = self._place(nj)
            old = self.nodes.get(name)
            if old is not None and old.op == nj["op"] and old.op in ("call_function", "output"):
                where = f"node {name}"
                args = tuple(self.tg._arg(a, self.nodes, self.syms, where) for a in nj.get("args", []))
                kwargs = {k: self.tg._arg(v, self.nodes, self.syms, where) for k, v in (nj.get("kwargs") or {}).items()}
                if old.op == "call_function":
                    old.target = self.tg.resolve_target(nj["target"])
                    old.args, old.kwargs = args, kwargs
                else:
                    old.args = args
                old.meta.clear()
                self.tg.set_meta(old, nj.get("meta") or {}, self.syms)
                if place is not None:
                    place(old)
                continue
            if old is not None:
                old.name = old.name + "__fxscope_replaced"  # freed for the new node; erased below
                self.nodes.pop(name)
                removed.append(old.name)
                self.nodes[old.name] = old
            with graph.inserting_before(None):
                node = self.tg.build_node(graph, self.gm, self.nodes, self.syms, nj, force_name=True)
            self.nodes[name] = node
            if place is not None:
                place(node)
        # Users before what they use: each round erases the removed nodes nothing uses any more.
        doomed = [self.nodes.pop(n) for n in removed if n in self.nodes]
        while doomed:
            free = [n for n in doomed if not n.users]
            if not free:
                users = ", ".join(u.name for u in doomed[0].users)
                raise HostError(f"edit: {doomed[0].name} is removed but still used by {users}")
            for node in free:
                graph.erase_node(node)
            doomed = [n for n in doomed if n not in free]
        order = request.get("order")
        if order:
            prev = None
            for name in order:
                node = self.nodes.get(name)
                if node is None:
                    raise HostError(f"edit: the order names {name}, which the mirror does not have")
                if prev is not None and prev.next is not node:
                    prev.append(node)
                prev = node
        if strideless:  # in graph order: the request's nodes come in it, or the order says it
            position = {n: i for i, n in enumerate(order)} if order else {}
            for name in sorted((n for n in strideless if n in self.nodes), key=lambda n: position.get(n, 0)):
                self.tg.propagate_node(self.nodes[name], self.syms)
        return {"nodes": len(self.nodes)}

    def _place(self, nj):
        """What puts a node right after the one `after` names (first when it is null), or None without `after`."""
        if "after" not in nj:
            return None
        after = nj["after"]
        if after is None:
            def first(node):
                head = next(iter(self.gm.graph.nodes))
                if head is not node:
                    head.prepend(node)
            return first
        prev = self.nodes.get(after)
        if prev is None:
            raise HostError(f"edit: {nj['name']} goes after {after}, which the mirror does not have")

        def then(node):
            if prev.next is not node:
                prev.append(node)
        return then

    # -- check ---------------------------------------------------------------------------------------------------

    def _pattern_on_mirror(self, request):
        """The request's pattern, its sources registered, for a command on the mirror."""
        if self.gm is None:
            raise HostError(f"{request.get('cmd')}: no mirror yet")
        self.realize()
        try:
            return self.patterns[int(request["pattern"])]
        except (KeyError, IndexError, ValueError, TypeError):
            raise HostError(f"{request.get('cmd')}: no pattern {request.get('pattern')!r}") from None

    def cmd_check(self, request):
        pattern = self._pattern_on_mirror(request)
        node = self.nodes.get(request.get("anchor"))
        if node is None:
            raise HostError(f"check: the mirror has no node {request.get('anchor')!r}")
        entry = pattern["entries"][0]
        self.force = bool(request.get("force"))
        try:
            return _Check(self, pattern, entry, node).run()
        finally:
            self.force = False

    def cmd_user_check(self, request):
        pattern = self._pattern_on_mirror(request)
        check = pattern.get("user_check")
        if check is None or getattr(check, "__name__", "") == "_return_true":
            return {"result": True, "trace": []}
        where = "user_check"
        try:
            anchor = self.nodes[request["anchor"]]
            nodes = [self.nodes[n] for n in request.get("nodes") or []]
        except KeyError as e:
            raise HostError(f"user_check: the mirror has no node {e}") from None
        kwargs = {k: self.tg._arg(v, self.nodes, self.syms, where) for k, v in (request.get("kwargs") or {}).items()}
        pm, expr = self.pm, pattern["entries"][0].pattern
        ctx = pm.MatchContext([expr], graph=self.gm.graph)
        ctx.pattern_to_node[expr] = anchor
        match = pm.Match(ctx, expr, kwargs=kwargs)
        match.nodes = nodes
        outcome, _ = _run_user_check(check, match)
        return outcome


def _run_user_check(check, match):
    """(outcome, exception) of the user's extra_check on `match`, explained line by line: {result, repr, trace},
    or {result: False, raised, where} with what it raised."""
    from ._check_trace import traced_call
    try:
        result, lines = traced_call(check, match)
    except Exception as e:
        return {"result": False, "raised": f"{type(e).__name__}: {e}", "where": _user_frame(e.__traceback__),
                "trace": []}, e
    return {"result": bool(result), "repr": repr(result), "trace": lines}, None


class _Recorder:
    """export_patterns' instrument: which PatternEntry objects each registration added, what it exported, and the
    user's extra_check wrapped so each check records its outcome (and its lines) in host.current."""

    per_match_replacement = True  # a graph the example inputs cannot trace is left out, not the registration

    def __init__(self, host):
        self.host = host
        self.builtin = False
        self.pending = None

    def wrap_check(self, extra_check, registered_with, stream_check):
        host = self.host

        @functools.wraps(extra_check)
        def check(match):
            outcome = host.current
            if outcome is None:  # a check outside fxscope's requests (the user's own code calling it)
                return extra_check(match)
            if getattr(extra_check, "__name__", "") == "_return_true":  # none given: nothing to explain
                return extra_check(match)
            outcome["check"], error = _run_user_check(extra_check, match)
            if error is not None:
                raise error  # as in Inductor: the pass stops, and so does _Check
            return outcome["check"]["result"] or host.force

        check._fxscope_user_check = extra_check
        return check

    def registered(self, file, line, search_fn, registered_with, entries, check):
        from . import _trace_memo
        for entry in entries:
            _trace_memo.install(getattr(entry, "extra_check", None))
        self.pending = {"file": file, "line": line, "search_fn": search_fn, "registered_with": registered_with,
                        "entries": entries, "builtin": self.builtin,
                        "user_check": getattr(check, "_fxscope_user_check", check)}

    def exported(self, doc, **objects):
        from ._pattern_tree import encode
        p = self.pending
        self.pending = None
        if p is None or not p["entries"]:
            return
        p["doc"] = doc
        p["objects"] = objects
        p["tree"] = encode(p["entries"][0].pattern)
        self.host.patterns.append(p)


class _Check:
    """One candidate decided as Inductor decides it after the structural match (PatternMatcherPass.apply: the
    generic match, then entry.extra_check, which register_replacement made its check_fn)."""

    def __init__(self, host, pattern, entry, node):
        self.host, self.pattern, self.entry, self.node = host, pattern, entry, node
        self.outcome = {"anchor": node.name}
        self.specific = None

    def run(self):
        pm, out = self.host.pm, self.outcome
        m = self.entry.pattern.match(self.node)
        if not pm.is_match(m):
            out.update(stage="generic", reason=_failed_text(m))
            return out
        out["nodes"] = [n.name for n in m.nodes]
        real_fx_to_pattern = pm.fx_to_pattern
        real_log = pm.log_trace_failure

        def fx_to_pattern(*args, **kwargs):
            self.specific = real_fx_to_pattern(*args, **kwargs)
            return self.specific

        def log_trace_failure(search_fn, e):
            out.update(stage="retrace", reason=f"{type(e).__name__}: {e}")
            return real_log(search_fn, e)

        pm.fx_to_pattern, pm.log_trace_failure = fx_to_pattern, log_trace_failure
        self.host.current = out
        try:
            ok = self.entry.extra_check(m)
        except Exception as e:
            out.update(stage="error", reason=f"{type(e).__name__}: {e}", raised=f"{type(e).__name__}: {e}",
                       where=_user_frame(e.__traceback__), traceback=traceback.format_exc(limit=-8))
            return out
        finally:
            pm.fx_to_pattern, pm.log_trace_failure = real_fx_to_pattern, real_log
            self.host.current = None
        if self.specific is not None:
            out["specific_pattern"] = _encode(self.specific)
        if ok:
            out["stage"] = "accepted"
            out["replacement"] = self._replacement(m)
            if self.host.force and not (out.get("check") or {}).get("result", True):
                out["forced"] = True  # the user's check refused: accepted only because the request said so
            return out
        if out.get("stage") == "retrace":
            return out
        check = out.get("check")
        if check is not None and not check["result"]:
            out.update(stage="extra_check", reason=f"extra_check returned {check['repr']}")
            return out
        # check_fn returned False without the user's check: the specific pattern (re-traced, or the given
        # search_fn_pattern, which is the generic one) did not match, or an integer input requires grad.
        specific = self.specific if self.specific is not None else (
            self.entry.pattern if self.pattern["doc"].get("search_fn_pattern") else None)
        sm = specific.match(m.output_nodes()[0]) if specific is not None else None
        if sm is not None and not pm.is_match(sm):
            out.update(stage="specific", reason=_failed_text(sm))
        else:
            out.update(stage="retrace", reason="check_fn returned False before the specific match: an integer input "
                                               "whose example input requires grad")
        return out

    def _replacement(self, m):
        """The replacement check_fn traced for this match, with its placeholders named as fxscope binds them:
        the pattern's argnames in normalize_args order."""
        from . import _serialize
        gm = m.replacement_graph
        if gm is None:
            return None
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        names = _flat_names(self.pattern["doc"], len(placeholders))
        taken = {n.name for n in gm.graph.nodes if n.op != "placeholder"}
        rename = {}
        for node, name in zip(placeholders, names):
            while name in taken:
                name += "_"
            taken.add(name)
            rename[node] = name
        return _rename_symbols(_serialize.graph_json(gm, None, rename), self.host.syms)


def _rename_symbols(doc, syms):
    """The mirror's ShapeEnv numbers its symbols itself; the graph fxscope shows names them as its dump does (s12).
    Sizes in the replacement's meta are written with the dump's names."""
    import re
    names = {}
    for dump_name, sym in syms.symbols.items():
        expr = getattr(getattr(sym, "node", None), "expr", sym)  # create_symbol gives the sympy symbol itself
        if expr is not None and str(expr) != dump_name:
            names[str(expr)] = dump_name
    if not names:
        return doc
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True)) + r")\b")

    def walk(v):
        if isinstance(v, str):
            return pattern.sub(lambda m: names[m.group(1)], v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) if k not in ("name", "target", "op") else x for k, x in v.items()}
        return v

    return walk(doc)


def _flat_names(doc, count):
    """The names of the replacement's placeholders: search_fn's flat argnames (as export_patterns named the search
    graph's), then a joint graph's tangents."""
    names = list(doc["flat_argnames"])
    return (names + [f"tangents_{i}" for i in range(1, count - len(names) + 1)])[:count]


def _encode(pattern):
    from ._pattern_tree import encode
    return encode(pattern)


def _failed_text(m):
    try:
        return str(m)
    except Exception as e:  # FailedMatch formats lazily
        return f"{getattr(m, 'format_string', repr(m))} (unformattable: {type(e).__name__})"


def _user_frame(tb):
    """FILE:LINE of the innermost frame outside torch and this package: where the user's code raised."""
    import torch
    here = os.path.dirname(os.path.abspath(__file__))
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__))
    best = None
    for frame in traceback.extract_tb(tb):
        f = os.path.abspath(frame.filename)
        if not f.startswith(torch_dir) and not f.startswith(here):
            best = f"{frame.filename}:{frame.lineno}"
    return best


def main():
    out = _reply_stream()
    torch_threads = os.environ.get("FXSCOPE_HOST_THREADS")
    host = Host()
    if torch_threads:
        host.torch.set_num_threads(int(torch_threads))
    host.serve(sys.stdin, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
