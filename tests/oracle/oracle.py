"""The differential oracle: fxscope's matcher and rewriter against Inductor's real PatternMatcherPass.

    python tests/oracle/oracle.py --cli build/bin/fxscope-cli [--cache DIR] [--jobs 2] [--only ID...] [--list]

Per case (cases.py: a graph, pattern files, the dump form fxscope reads, a one-line purpose): the graph is traced
here (cached in --cache by content hash) and written as the dump users have; fxscope-cli `apply --all --json -o`
and `match --json` read the dump, while fxscope_capture.inductor_check runs Inductor's pass on the same graph
rebuilt as a GraphModule. Compared:
  (1) the anchors replaced per pattern (registration order on both sides),
  (2) the fused graph, node for node (fxscope's -o JSON and Inductor's graph, both in _torch_graph.canonical),
  (3) every fxscope rejection is a non-replacement in Inductor with a consistent reason class (COMPATIBLE),
  (4) fxscope's fused graph, run in torch on the same inputs, gives the unfused graph's outputs,
plus (0) fxscope's reading of the dump equals the graph torch traced (fxscope-cli convert).
known_divergences.txt lists the cases expected to disagree; a listed case that agrees fails the run (the list only
shrinks), an unlisted case that disagrees fails it. Exit 0 when every case is as expected.
"""

import argparse
import hashlib
import inspect
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, HERE)
from cases import CORPUS  # noqa: E402 (found through HERE)

# fxscope's stage for a rejected candidate -> the Inductor reason classes consistent with it (inductor_check's
# classes). A stage named like an Inductor class is consistent with that class.
COMPATIBLE = {
    "generic": {"generic", "unsupported_type", "erased", "not_visited"},
    "overlap": {"erased", "generic", "mutation_stream", "specific", "extra_check", "retrace", "not_visited",
                "unsupported_type"},
    "mutation_stream": {"mutation_stream", "extra_check", "unsupported_type"},  # apply-level filters; TorchAir's stream check runs inside extra_check
    "retrace": {"retrace"},
    "specific": {"specific"},
    "extra_check": {"extra_check"},
}


def _hash(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


def _models_source(graph_name):
    """What a graph's trace depends on: models.py, and the suite module that defines it (public/)."""
    import public
    files = [os.path.join(HERE, "models.py"), public.graph_builder(graph_name)[1]]
    out = []
    for path in filter(None, files):
        with open(path, encoding="utf-8") as f:
            out.append(f.read())
    return "\0".join(out)


# TorchAir's own built-in pattern files, as torch_npu 2.13.0 ships them (torch_npu/dynamo/torchair/patterns). The
# wheel comes from PyPI once (any platform's: only its Python files are read) and nothing of it is installed.
TORCHAIR_WHEEL = "torch_npu==2.13.0"
TORCHAIR_PREFIX = "torchair:"


def ensure_torchair_patterns(cache):
    """The folder holding TorchAir's built-in pattern files, fetched into the cache on first use."""
    import zipfile
    folder = os.path.join(cache, "torchair_patterns")
    if os.path.isdir(folder):
        return folder
    wheels = os.path.join(cache, "wheels")
    p = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                        "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64", TORCHAIR_WHEEL,
                        "-d", wheels, "-q"], capture_output=True, text=True, timeout=600)
    found = [f for f in os.listdir(wheels) if f.startswith("torch_npu-")] if os.path.isdir(wheels) else []
    if p.returncode != 0 or not found:
        raise RuntimeError(f"cannot fetch {TORCHAIR_WHEEL} from PyPI for TorchAir's built-in patterns: "
                           f"{p.stderr.strip()[-500:]}")
    tmp = folder + ".part"
    os.makedirs(tmp, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheels, found[0])) as z:
        for name in z.namelist():
            if name.startswith("torch_npu/dynamo/torchair/patterns/") and name.endswith(".py"):
                with open(os.path.join(tmp, os.path.basename(name)), "wb") as out:
                    out.write(z.read(name))
    os.replace(tmp, folder)
    return folder


def pattern_paths(case, cache):
    """A case's pattern files as paths: repository-relative, or torchair:FILE for TorchAir's built-ins."""
    out = []
    for p in case["patterns"]:
        if p.startswith(TORCHAIR_PREFIX):
            out.append(os.path.join(ensure_torchair_patterns(cache), p[len(TORCHAIR_PREFIX):]))
        else:
            out.append(p if os.path.isabs(p) else os.path.join(REPO, p))
    return out


def ensure_dump(case, cache):
    """(fxscope JSON path, dump path fxscope reads) for the case's graph, traced once per content hash."""
    import torch
    from fxscope_capture import _serialize
    from fxscope_capture._files import write_json
    import models

    graph_name, kwargs = case["graph"]
    # A corpus graph is fxscope-cli's conversion of the dump: a rebuilt fxscope-cli converts it again.
    cli = os.stat(os.environ["FXSCOPE_ORACLE_CLI"]) if graph_name == "corpus" else None
    key = _hash(_models_source(graph_name), torch.__version__, graph_name, sorted(kwargs.items()),
                cli and (cli.st_mtime_ns, cli.st_size))
    base = os.path.join(cache, key)
    paths = {"json": base + ".json", "readable": base + ".py", "fx_text": base + ".txt"}
    if not os.path.exists(paths["json"]):
        torch.manual_seed(0)
        built = models.build(graph_name, **kwargs)
        if isinstance(built, str):  # a torch.compile capture: the inference graph of the backend's document
            with open(built, encoding="utf-8") as f:
                doc = json.load(f)
            g = next((x for x in doc["graphs"] if x.get("kind") in ("inference", "forward")
                      or x.get("name") in ("inference", "forward")), doc["graphs"][0])
            from fxscope_capture import _torch_graph
            gm, _ = _torch_graph.load_graph_module({"graphs": [g]})
            write_json(paths["json"], {"fxscope": 1, "graphs": [{"name": "inference", "kind": "aten",
                                                                  "graph": g["graph"]}]})
        else:
            gm = built
            write_json(paths["json"], _serialize.document([{"name": graph_name, "kind": "aten",
                                                            "graph": _serialize.graph_json(gm)}]))
        with open(paths["readable"], "w", encoding="utf-8") as f:
            f.write(gm.print_readable(print_output=False))
        with open(paths["fx_text"], "w", encoding="utf-8") as f:
            f.write(str(gm.graph))
    if case.get("form") == "original":  # a corpus file: fxscope reads the dump as it was published
        return paths["json"], os.path.join(CORPUS, kwargs["file"])
    return paths["json"], paths[case.get("form", "json")]


def run_cli(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class InductorSide:
    """One registered PatternMatcherPass per tuple of pattern files, reused across graphs."""

    def __init__(self):
        self.passes = {}

    def check(self, json_path, pattern_files, pipeline):
        from fxscope_capture import _torch_graph, inductor_check
        key = (tuple(pattern_files), os.environ.get("FXSCOPE_TORCHAIR_PATTERNS"))
        if key not in self.passes:
            observer = inductor_check.Observer()
            self.passes[key] = (inductor_check.register(list(pattern_files), observer), observer)
        pattern_pass, observer = self.passes[key]
        gm, syms = _torch_graph.load_graph_module(json_path)
        report = inductor_check.check_graph(gm, syms, pattern_pass, observer, pipeline)
        return report, syms


def _meta_lines(lines):
    return [l.rsplit(" : ", 1)[0] if not l.startswith("output") else l for l in lines]


def _first_difference(a, b):
    if a == b:
        return None
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (f"at line {i}: fxscope {a[i] if i < len(a) else '<end>'!r}, Inductor "
            f"{b[i] if i < len(b) else '<end>'!r}")


def fxscope_single(case, dump, patterns, cli, workdir):
    """fxscope's side of one case: `apply --all -o` and `match`, each a CLI call of its own."""
    fused = os.path.join(workdir, case["id"] + ".fused.json")
    arc, aout, aerr = run_cli(cli, "apply", dump, "--patterns", *patterns, "--all", "-o", fused, "--json")
    mrc, mout, merr = run_cli(cli, "match", dump, "--patterns", *patterns, "--json")
    return {"apply": (arc, json.loads(aout) if arc == 0 else None, aerr),
            "match": (mrc, json.loads(mout) if mout.strip() else None, merr), "fused": fused}


def fxscope_batch(group, patterns, cli, workdir):
    """fxscope's side of several cases with the same pattern sources: one `apply` and one `match` batch call over
    all their dumps (docs/batch.md), so the torch host starts twice per group, not twice per case. Returns
    {dump path: the fxscope_single-shaped result}."""
    dumps = list(dict.fromkeys(dump for _, dump in group))
    out_dir = tempfile.mkdtemp(prefix="batch_", dir=workdir)
    results = {d: {} for d in dumps}
    numerics = ["--check-numerics"] if os.environ.get("FXSCOPE_ORACLE_NUMERICS") else []
    for command, extra in (("apply", ["--all", "-o", out_dir]), ("match", numerics)):
        p = subprocess.run([cli, command, *dumps, "--patterns", *patterns, *extra, "--jsonl", "--jobs", "1"],
                           capture_output=True, text=True, timeout=120 + 30 * len(dumps))
        rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
        by_path = {r["path"]: r for r in rows if "path" in r}
        for d in dumps:
            row = by_path.get(d)
            if row is None:
                results[d][command] = (p.returncode or 1, None, f"no batch row for {d}: {p.stderr.strip()[-300:]}")
                continue
            report = row.get("report")
            results[d][command] = (row["exit"], report, row.get("error") or "")
            if command == "apply" and report:
                results[d]["fused"] = report.get("output")
    return results


def run_case(case, cli, cache, inductor, workdir, fx=None):
    """The list of disagreements for one case (empty: fxscope agrees with Inductor). fx: fxscope's side when a
    batch already ran it."""
    import torch
    from fxscope_capture import _torch_graph
    diffs = []
    json_path, dump = ensure_dump(case, cache)
    patterns = pattern_paths(case, cache)
    pipeline = case.get("pipeline", "auto")  # TorchAir's where a pattern file registers through TorchAir
    # TorchAir's own built-ins after a TorchAir file's patterns, on both sides, only where the case asks for them
    os.environ["FXSCOPE_TORCHAIR_PATTERNS"] = ensure_torchair_patterns(cache) if case.get("builtins") else ""

    # Inductor
    report, syms = inductor.check(json_path, patterns, pipeline)
    gm_unfused, syms_u = _torch_graph.load_graph_module(json_path)
    # fxscope
    fx = fx or fxscope_single(case, dump, patterns, cli, workdir)
    fused = fx.get("fused")
    # Where Inductor's pass raises, fxscope's must stop too: apply fails, and match prints its report and exits 2.
    inductor_raised = bool(report["error"])
    rc, applied, err = fx["apply"]
    if rc != 0 and not inductor_raised:
        return [f"fxscope apply exited {rc}: {err.strip()[-300:]}"], report
    if rc == 0 and inductor_raised:
        return [f"error: Inductor's pass raised {report['error']['type']}: {report['error']['message'][:160]}; "
                "fxscope apply completed"], report
    rc, matched, err = fx["match"]
    if rc != (2 if inductor_raised else 0) or matched is None:
        return [f"fxscope match exited {rc}: {err.strip()[-300:]}"], report

    # (0) fxscope read the dump as torch traced it
    if case.get("form", "json") not in ("json", "original"):
        conv = os.path.join(workdir, case["id"] + ".read.json")
        rc, _, err = run_cli(cli, "convert", dump, "-o", conv)
        if rc != 0:
            diffs.append(f"dump: fxscope-cli convert exited {rc}: {err.strip()[-200:]}")
        else:
            read, _ = _torch_graph.load_graph_module(conv)
            a, b = _torch_graph.canonical(read), _torch_graph.canonical(gm_unfused)
            if a != b:
                first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                diffs.append(f"dump: fxscope reads the {case['form']} dump differently at line {first}: "
                             f"{a[first] if first < len(a) else '<end>'!r} vs torch "
                             f"{b[first] if first < len(b) else '<end>'!r}")

    # the pipeline: TorchAir's where a pattern file registers through TorchAir, on both sides
    follows = matched.get("pipeline", {}).get("follows")
    if follows != report.get("pipeline"):
        diffs.append(f"pipeline: fxscope follows {follows}'s, the torch side ran {report.get('pipeline')}'s")

    # pattern lists line up by registration order
    fx_names = [p["name"] for p in matched["patterns"]]
    ind_pats = [p for p in report["patterns"] if p["registered"]]
    if len(fx_names) != len(ind_pats):
        diffs.append(f"patterns: fxscope registers {len(fx_names)} ({', '.join(fx_names)}), Inductor "
                     f"{len(ind_pats)} ({', '.join(p['search_fn'] for p in ind_pats)})")
        return diffs, report
    index = {name: i for i, name in enumerate(fx_names)}

    if report["error"]:
        # Inductor's pass raised (an extra_check's exception, a missing pattern input): fxscope must report an
        # error for that candidate, not a rejection.
        fx_errors = [(p["name"], c["anchor"]) for p in matched["patterns"] for c in p["candidates"]
                     if "error" in c or "error" in str(c.get("stage", ""))]
        if not fx_errors:
            diffs.append(f"error: Inductor's pass raised {report['error']['type']}: "
                         f"{report['error']['message'][:160]}; fxscope reports no error "
                         f"(candidates: {_summary(matched)})")
        return diffs, report

    # (1) anchors replaced per pattern
    fx_rep = [set() for _ in fx_names]
    for s in applied["steps"]:
        if s["kind"] == "pattern":  # pass steps: TorchAir's graph passes around the pattern pass
            fx_rep[index[s["pattern"]]].add(s["anchor"])
    for i, p in enumerate(ind_pats):
        ind = {c["anchor"] for c in p["candidates"] if c["replaced"]}
        if fx_rep[i] != ind:
            diffs.append(f"replaced[{fx_names[i]}]: fxscope {sorted(fx_rep[i])}, Inductor {sorted(ind)}")

    # (3) rejections consistent
    for i, p in enumerate(matched["patterns"]):
        ind = {c["anchor"]: c for c in ind_pats[i]["candidates"]}
        for c in p["candidates"]:
            if c["accepted"]:
                continue
            ic = ind.get(c["anchor"])
            stage = c.get("stage", "?")
            if ic is None:
                diffs.append(f"rejection[{p['name']}@{c['anchor']}]: not an anchor Inductor visits")
            elif ic["replaced"]:
                if c["anchor"] not in fx_rep[i]:
                    diffs.append(f"rejection[{p['name']}@{c['anchor']}]: fxscope {stage} "
                                 f"({(c.get('reasons') or [''])[0][:120]}), Inductor replaced it")
            elif ic["stage"] not in COMPATIBLE.get(stage, set()) | {stage}:
                diffs.append(f"reason[{p['name']}@{c['anchor']}]: fxscope {stage} "
                             f"({(c.get('reasons') or [''])[0][:100]}), Inductor {ic['stage']} "
                             f"({ic['reason'][:100]})")

    # (2) fused graph node for node (with each node's dtype[shape])
    try:
        fx_gm, fx_syms = _torch_graph.load_graph_module(fused)
    except Exception as e:
        diffs.append(f"fused: fxscope's fused graph does not load in torch: {type(e).__name__}: {e}")
        return diffs, report
    ind_lines = report["graph_after_meta"]
    fx_lines = _torch_graph.canonical(fx_gm, with_meta=True)
    structure = _first_difference(_meta_lines(fx_lines), _meta_lines(ind_lines))
    if structure:
        diffs.append("fused graph differs " + structure)
    elif case.get("form", "json") != "fx_text":
        meta = _first_difference(fx_lines, ind_lines)
        if meta:  # same nodes, different meta["val"] (new nodes' meta: the replacement trace, _transfer_meta)
            diffs.append("fused graph meta differs " + meta)

    # (4) outputs of fxscope's fused graph against the unfused graph's
    try:
        inputs = _torch_graph.make_inputs(gm_unfused, syms_u)
        expected = _torch_graph.run(gm_unfused, inputs)
    except Exception:
        return diffs, report  # the unfused graph does not run here (collectives, index inputs): nothing to compare
    try:
        got = _torch_graph.run(fx_gm, inputs)
        ok, d = _torch_graph.compare_outputs(expected, got)
        # A fused graph may legitimately differ from the unfused one (a kernel stand-in computes in another
        # precision); fxscope diverges only when Inductor's own fused graph does not differ the same way.
        ind = report.get("outputs") or {}
        same_as_inductor = ind.get("ran") and not ind.get("match") and abs(ind.get("max_abs_diff", -1) - d) <= 1e-6 * max(1.0, d)
        if not ok and not same_as_inductor:
            diffs.append(f"outputs: fxscope's fused graph differs from the unfused one by {d:g}"
                         + (f" (Inductor's by {ind['max_abs_diff']:g})" if ind.get("ran") and not ind.get("match") else ""))
    except NotImplementedError:
        pass  # an op with no CPU kernel here: the executor comparison is left to fxscope-cli profile
    except Exception as e:
        diffs.append(f"outputs: fxscope's fused graph does not run: {type(e).__name__}: {str(e)[:160]}")
    return diffs, report


def _summary(matched):
    return "; ".join(f"{p['name']}: " + ", ".join(f"{c['anchor']} {c.get('stage')}" for c in p["candidates"])
                     for p in matched["patterns"])


def load_known(path):
    known = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    cid, _, why = line.partition(" ")
                    known[cid] = why.strip()
    return known


def _groups(cases):
    """Cases with the same pattern sources (and TorchAir built-ins or not), in first-seen order: one batch each."""
    groups = {}
    for c in cases:
        groups.setdefault((tuple(c["patterns"]), bool(c.get("builtins"))), []).append(c)
    return list(groups.values())


def worker(cases, cli, cache, out_path, shard, batch):
    import torch
    torch.set_num_threads(1)
    import logging
    logging.disable(logging.WARNING)
    import warnings
    warnings.filterwarnings("ignore")
    inductor = InductorSide()
    results = {}
    k, n = shard
    # Batched, a shard takes whole groups (one torch host start per group and command); otherwise every n-th case.
    groups = _groups(cases)[k::n] if batch else [[c] for c in cases[k::n]]
    with tempfile.TemporaryDirectory(prefix="fxscope_oracle_") as work:
        for group in groups:
            t = time.time()
            fx = {}
            if batch:
                try:
                    dumps = [(c, ensure_dump(c, cache)[1]) for c in group]
                    os.environ["FXSCOPE_TORCHAIR_PATTERNS"] = (ensure_torchair_patterns(cache)
                                                               if group[0].get("builtins") else "")
                    by_dump = fxscope_batch(dumps, pattern_paths(group[0], cache), cli, work)
                    fx = {c["id"]: by_dump[d] for c, d in dumps}
                except Exception as e:
                    fx = {c["id"]: {"apply": (1, None, f"batch failed: {type(e).__name__}: {e}"),
                                    "match": (1, None, "")} for c in group}
            share = (time.time() - t) / len(group)  # the batch's time, shared by its cases
            for case in group:
                t = time.time()
                report = None
                try:
                    diffs, report = run_case(case, cli, cache, inductor, work, fx.get(case["id"]))
                    summary = {f"{p['index']}:{p['search_fn']}": {c["anchor"]: c["stage"] for c in p["candidates"]}
                               for p in report["patterns"]}
                except Exception as e:
                    import traceback
                    diffs, summary = [f"harness error: {type(e).__name__}: {e}\n{traceback.format_exc()[-1500:]}"], {}
                results[case["id"]] = {"diffs": diffs, "seconds": round(time.time() - t + share, 3),
                                       "inductor": summary, "pipeline": (report or {}).get("pipeline"),
                                       "passes_before": (report or {}).get("passes_before", []),
                                       "numerics": _numerics(fx.get(case["id"])),
                                       "inductor_outputs_differ": _outputs_differ(report)}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f)


def _numerics(fx):
    """--check-numerics: the accepted candidates' numerics in fxscope's match report of a case, or None."""
    report = ((fx or {}).get("match") or (None, None))[1]
    if not os.environ.get("FXSCOPE_ORACLE_NUMERICS") or not report:
        return None
    out = {"equal": 0, "differ": [], "not_run": []}
    for p in report.get("patterns", []):
        for c in p.get("candidates", []):
            n = c.get("numerics")
            if not c.get("accepted") or n is None:
                continue
            if not n.get("ran"):
                out["not_run"].append(f"{p['name']} @ {c['anchor']}: {n.get('text', '')}"[:300])
            elif n.get("equal"):
                out["equal"] += 1
            else:
                out["differ"].append(f"{p['name']} @ {c['anchor']}: {n.get('text', '')}"[:300])
    return out


def _outputs_differ(report):
    """Inductor's own fused graph gives other outputs than the unfused one (a case built so: a too-wide pattern)."""
    outputs = (report or {}).get("outputs") or {}
    return bool(outputs.get("ran") and not outputs.get("match"))


def tally_numerics(selected, results):
    """--check-numerics: every accepted fusion of fxscope's match, run against the nodes it replaces. A fusion that
    differs in a case where Inductor's own fused graph changes the outputs too is expected; any other fails the run."""
    equal = differ = expected = not_run = 0
    for c in selected:
        r = results.get(c["id"]) or {}
        n = r.get("numerics")
        if n is None:
            continue
        equal += n["equal"]
        not_run += len(n["not_run"])
        for line in n["differ"]:
            if r.get("inductor_outputs_differ"):
                expected += 1
                print(f"  numerics differ, as Inductor's own fusion does: {c['id']}: {line}")
            else:
                differ += 1
                print(f"  NUMERICS DIFFER: {c['id']}: {line}")
        for line in n["not_run"]:
            print(f"  numerics not run: {c['id']}: {line}")
    print(f"oracle numerics: {equal} fusions equal, {expected} differ as Inductor's own fusion does, {differ} differ "
          f"otherwise, {not_run} not run")
    return differ


def tally(selected, results, seconds, report_path):
    """Agreement per pattern-file group, with every disagreement's first line; never fails."""
    rows = {}
    for c in selected:
        r = results.get(c["id"]) or {"diffs": ["no result (worker failed)"]}
        key = " + ".join(os.path.basename(p) for p in c["patterns"])
        row = rows.setdefault(key, {"cases": 0, "agree": 0, "differ": {}})
        row["cases"] += 1
        if r["diffs"]:
            row["differ"][c["id"]] = r["diffs"][0][:300]
        else:
            row["agree"] += 1
    agree = sum(r["agree"] for r in rows.values())
    for key, r in rows.items():
        print(f"{r['agree']:>4}/{r['cases']:<4} {key}")
        for cid, d in r["differ"].items():
            print(f"          {cid}: {d}")
    print(f"oracle tally: {agree}/{len(selected)} cases agree ({seconds:.0f} s)")
    if report_path:
        with open(report_path, "w", encoding="utf-8") as f:
            json.dump({"agree": agree, "cases": len(selected), "by_patterns": rows, "seconds": round(seconds, 1),
                       "results": {c["id"]: results.get(c["id"]) for c in selected}}, f, indent=1)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--cache", default=os.path.join(REPO, "build", "oracle-cache"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--report", help="write every case's result as JSON")
    ap.add_argument("--engine", choices=["sandbox", "host"], default="sandbox",
                    help="what runs fxscope's pattern files (FXSCOPE_ENGINE): the sandbox, or the torch host (one "
                         "torch start per CLI call: about 10x slower, so ctest runs the host on its own cases)")
    ap.add_argument("--known", help="known divergences (default: known_divergences.txt, or "
                                    "known_divergences_host.txt with --engine host)")
    ap.add_argument("--suite", choices=["core", "public", "all"], default="all",
                    help="core: issue 14's cases; public: the public-style suites (public/); all: both")
    ap.add_argument("--files", nargs="*", help="only the cases whose pattern files include one of these (by name)")
    ap.add_argument("--batch", action="store_true",
                    help="one fxscope-cli batch call per pattern-file group and command instead of two calls per "
                         "case (what makes the torch host's run of the public suites take minutes, not hours)")
    ap.add_argument("--tally", action="store_true",
                    help="count agreement per pattern file and exit 0 whatever it is, ignoring the known list "
                         "(how the sandbox, the old engine, is reported beside the host on the public suites)")
    ap.add_argument("--check-numerics", action="store_true",
                    help="with --batch: fxscope's match also runs every accepted fusion against the nodes it replaces "
                         "(issue 25); the tally counts the fusions that are equal and lists those that differ")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--shard", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    os.environ["FXSCOPE_ENGINE"] = args.engine  # the CLI calls of every shard
    if args.check_numerics:
        if not args.batch:
            raise SystemExit("--check-numerics goes with --batch")
        os.environ["FXSCOPE_ORACLE_NUMERICS"] = "1"  # the shards' match calls
    if args.known is None:
        args.known = os.path.join(HERE, "known_divergences.txt" if args.engine == "sandbox"
                                  else "known_divergences_host.txt")
    import cases as case_module
    all_cases = case_module.cases()
    ids = [c["id"] for c in all_cases]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate case ids")
    for c in all_cases:
        if not c.get("purpose"):
            raise SystemExit(f"case {c['id']} has no purpose line")
    public_ids = {c["id"] for c in case_module.public.cases()}
    in_suite = {"core": lambda c: c["id"] not in public_ids, "public": lambda c: c["id"] in public_ids,
                "all": lambda c: True}[args.suite]
    selected = [c for c in all_cases if in_suite(c) and (not args.only or c["id"] in args.only)
                and (not args.files or any(os.path.basename(p) in args.files for p in c["patterns"]))]
    if args.list:
        for c in selected:
            print(f"{c['id']:<48} {c['purpose']}")
        return 0
    os.makedirs(args.cache, exist_ok=True)
    cli = os.path.abspath(args.cli)
    os.environ["FXSCOPE_ORACLE_CLI"] = cli  # models.build("corpus") converts dumps with it
    if args.worker:
        worker(selected, cli, args.cache, args.worker, args.shard, args.batch)
        return 0

    start = time.time()
    if any(p.startswith(TORCHAIR_PREFIX) or c.get("builtins") for c in selected for p in c["patterns"]):
        ensure_torchair_patterns(args.cache)  # once, before the shards could race for it
    # Traced graphs first, in one process (a cold cache traces each graph once), then the shards.
    tmp = tempfile.mkdtemp(prefix="fxscope_oracle_")
    n = max(1, min(args.jobs, len(selected)))
    procs = []
    for k in range(n):
        out = os.path.join(tmp, f"shard{k}.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--cli", cli, "--cache", args.cache, "--worker", out,
               "--shard", str(k), str(n), "--engine", args.engine, "--suite", args.suite] + \
            (["--only", *args.only] if args.only else []) + (["--batch"] if args.batch else []) + \
            (["--files", *args.files] if args.files else [])
        procs.append((subprocess.Popen(cmd), out))
    results = {}
    failed_workers = 0
    for p, out in procs:
        if p.wait() != 0 or not os.path.exists(out):
            failed_workers += 1
            continue
        with open(out, encoding="utf-8") as f:
            results.update(json.load(f))
    numerics_differ = tally_numerics(selected, results) if args.check_numerics else 0
    if args.tally:
        return tally(selected, results, time.time() - start, args.report)
    known = load_known(args.known)
    unexpected, fixed, expected = [], [], []
    for c in selected:
        r = results.get(c["id"])
        if r is None:
            unexpected.append((c["id"], ["no result (worker failed)"]))
            continue
        if r["diffs"] and c["id"] not in known:
            unexpected.append((c["id"], r["diffs"]))
        elif not r["diffs"] and c["id"] in known:
            fixed.append(c["id"])
        elif r["diffs"]:
            expected.append(c["id"])
    for cid in known:
        if cid not in ids:
            fixed.append(f"{cid} (listed in known_divergences.txt but no such case)")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"cases": {c["id"]: dict(results.get(c["id"], {}), purpose=c["purpose"]) for c in selected},
                       "seconds": round(time.time() - start, 1)}, f, indent=1)
    print(f"oracle: {len(selected)} cases, {len(selected) - len(unexpected) - len(fixed) - len(expected)} agree, "
          f"{len(expected)} known divergences, {len(unexpected)} unexpected, {len(fixed)} now agree "
          f"({time.time() - start:.0f} s)")
    for cid, diffs in unexpected:
        purpose = next((c["purpose"] for c in selected if c["id"] == cid), "")
        print(f"UNEXPECTED {cid}: {purpose}")
        for d in diffs:
            print(f"    {d}")
    for cid in fixed:
        print(f"NOW AGREES {cid}: remove it from known_divergences.txt")
    return 1 if unexpected or fixed or failed_workers or numerics_differ else 0


if __name__ == "__main__":
    sys.exit(main())
