#!/usr/bin/env python3
"""Match benchmark: fxscope's two matchers against PyTorch's own on the same graphs and patterns.

1. SubgraphMatcher. For real fusion patterns (RMSNorm T5-style and LLaMA-style with casts, add + RMSNorm, LayerNorm via var_mean,
SwiGLU, mm + add, and the var_mean norm of the synthetic transformer) over corpus graphs (T5 joint, Bert forward,
the LLaMA block sample) and generated 1k..100k-node transformer graphs, this measures, each side in its own
process per graph:

  fxscope   bench_match GRAPH --pattern FILE...: fxs::SubgraphMatcher::create + match (replace_pattern's options),
            every candidate explained; median of N runs; the graph is loaded once, outside the timing
  PyTorch   the same dump and pattern turned into torch.fx.Graphs by exec + symbolic_trace (as bench/parse/run.py
            does), then torch.fx.passes.utils.matcher_utils.SubgraphMatcher(pattern, match_output=False,
            match_placeholder=False, remove_overlapping_matches=True).match(graph), which is what
            torch.fx.subgraph_rewriter.replace_pattern runs before rewriting; median of N runs

2. Inductor-style matcher. fxscope's six built-in patterns (`fxscope-cli match GRAPH --patterns builtin`) on the
   same graphs and on the 23k-node HRNet joint graph:

  fxscope   bench_match GRAPH --inductor: fxs::Matcher(registry).run(graph), every candidate explained, nothing
            changed in the graph; median of N runs
  Inductor  the same six patterns registered with torch._inductor.pattern_matcher.register_replacement into one
            PatternMatcherPass (inductor_builtins.py; run.py checks each PatternExpr prints as fxscope's), the
            dump traced as above and given fake-tensor meta (FakeTensorProp), then PatternMatcherPass.apply on a
            fresh copy of the graph per run (it replaces what it matches), and apply with each entry's replacement
            step left out (match-only: matching and the extra_check re-trace, the graph left as it is)

It compares time and the number of matches (per pattern for the Inductor-style matchers), reports where PyTorch
raises or finds other matches, prints tables and writes bench/results/match.json. PyTorch side: the project's torch
Python (build/fxscope-python, the .venv with torch 2.13.0; torch >= 2.1 required).

Usage: run.py [--bench bench_match] [--cli fxscope-cli] [--sizes 1000,3000,...] [--repeat N] [--quick]
"""

import argparse
import gc
import importlib.util
import json
import os
import subprocess
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import (DumpTracer, fake_propagate, fmt, machine, run_json, slope, torch_python,  # noqa: E402
                    torch_version)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "corpus" / "readable"
DEFAULT_SIZES = [1000, 3000, 10000, 30000, 100000]
HRNET = CORPUS / "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"
TARGET_MS = 100.0

# bench/parse/run.py holds the synthetic transformer generator.
_spec = importlib.util.spec_from_file_location("parse_run", ROOT / "bench" / "parse" / "run.py")
parse_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parse_run)


def pattern_code(params, body):
    lines = "\n".join("        " + line for line in body.strip().splitlines())
    return f"class GraphModule(torch.nn.Module):\n    def forward(self, {params}):\n{lines}\n"


# Search graphs as make_fx prints them (the same as fxscope's built-ins; the TorchAir add + npu_rms_norm pattern
# uses the decomposed RMSNorm here, since the dumps have no npu ops).
PATTERNS = {
    "rms_norm": pattern_code("x, weight", """
pow_1 = torch.ops.aten.pow.Tensor_Scalar(x, 2)
mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
add = torch.ops.aten.add.Tensor(mean, 1e-06)
rsqrt = torch.ops.aten.rsqrt.default(add)
mul = torch.ops.aten.mul.Tensor(x, rsqrt)
mul_1 = torch.ops.aten.mul.Tensor(weight, mul)
return mul_1"""),
    "rms_norm_cast": pattern_code("x, weight", """
convert_element_type = torch.ops.prims.convert_element_type.default(x, torch.float32)
pow_1 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type, 2)
mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
add = torch.ops.aten.add.Tensor(mean, 1e-06)
rsqrt = torch.ops.aten.rsqrt.default(add)
mul = torch.ops.aten.mul.Tensor(convert_element_type, rsqrt)
convert_element_type_1 = torch.ops.prims.convert_element_type.default(mul, torch.float16)
mul_1 = torch.ops.aten.mul.Tensor(weight, convert_element_type_1)
return mul_1"""),
    "add_rms_norm": pattern_code("x1, x2, weight", """
add = torch.ops.aten.add.Tensor(x1, x2)
convert_element_type = torch.ops.prims.convert_element_type.default(add, torch.float32)
pow_1 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type, 2)
mean = torch.ops.aten.mean.dim(pow_1, [-1], True)
add_1 = torch.ops.aten.add.Tensor(mean, 1e-06)
rsqrt = torch.ops.aten.rsqrt.default(add_1)
mul = torch.ops.aten.mul.Tensor(convert_element_type, rsqrt)
convert_element_type_1 = torch.ops.prims.convert_element_type.default(mul, torch.float16)
mul_1 = torch.ops.aten.mul.Tensor(weight, convert_element_type_1)
return (mul_1, add)"""),
    "layer_norm": pattern_code("x, weight, bias", """
var_mean = torch.ops.aten.var_mean.correction(x, [2], correction = 0, keepdim = True)
getitem = var_mean[0]
getitem_1 = var_mean[1]
add = torch.ops.aten.add.Tensor(getitem, 1e-12)
rsqrt = torch.ops.aten.rsqrt.default(add)
sub = torch.ops.aten.sub.Tensor(x, getitem_1)
mul = torch.ops.aten.mul.Tensor(sub, rsqrt)
mul_1 = torch.ops.aten.mul.Tensor(mul, weight)
add_1 = torch.ops.aten.add.Tensor(mul_1, bias)
return add_1"""),
    "var_mean_norm": pattern_code("x, weight", """
convert_element_type = torch.ops.prims.convert_element_type.default(x, torch.float32)
var_mean = torch.ops.aten.var_mean.correction(convert_element_type, [2], correction = 0, keepdim = True)
getitem = var_mean[0]
getitem_1 = var_mean[1]
add = torch.ops.aten.add.Tensor(getitem, 1e-05)
rsqrt = torch.ops.aten.rsqrt.default(add)
sub = torch.ops.aten.sub.Tensor(convert_element_type, getitem_1)
mul = torch.ops.aten.mul.Tensor(sub, rsqrt)
mul_1 = torch.ops.aten.mul.Tensor(mul, weight)
convert_element_type_1 = torch.ops.prims.convert_element_type.default(mul_1, torch.float16)
return convert_element_type_1"""),
    "swiglu": pattern_code("gate, up", """
silu = torch.ops.aten.silu.default(gate)
mul = torch.ops.aten.mul.Tensor(silu, up)
return mul"""),
    "mm_add": pattern_code("bias, mat1, mat2", """
mm = torch.ops.aten.mm.default(mat1, mat2)
add = torch.ops.aten.add.Tensor(mm, bias)
return add"""),
}

ALL_REAL = ["rms_norm", "rms_norm_cast", "add_rms_norm", "layer_norm", "swiglu", "mm_add"]
CORPUS_CASES = [
    ("T5 joint", CORPUS / "learn_torch_compile__tb_hf_T5_training_cpu__aot_joint_graph.py", ALL_REAL),
    ("Bert forward", CORPUS / "learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_forward_graph.py", ALL_REAL),
    ("LLaMA block", ROOT / "resources" / "samples" / "llama_block.py", ALL_REAL),
]
SYNTHETIC_PATTERNS = ["var_mean_norm", "swiglu"]


# ----------------------------------------------------------------------------------------------------------------
# PyTorch side (its own process per graph)
# ----------------------------------------------------------------------------------------------------------------

def subgraph_side(graph, pattern_graphs, repeat, budget_s):
    from torch.fx.passes.utils.matcher_utils import SubgraphMatcher

    out = {}
    for name, pattern in pattern_graphs:
        times, matches, error = [], None, None
        started = time.perf_counter()
        for _ in range(repeat):
            if times and time.perf_counter() - started > budget_s:
                break
            gc.collect()
            t0 = time.perf_counter()
            try:
                found = SubgraphMatcher(pattern, match_output=False, match_placeholder=False,
                                        remove_overlapping_matches=True).match(graph)
            except Exception as e:  # torch 1.13 raised RecursionError here on long chains; 2.x's check is a BFS
                error = f"{type(e).__name__}: {e}"
                times.append(time.perf_counter() - t0)
                break
            times.append(time.perf_counter() - t0)
            matches = len(found)
        out[name] = {"median_ms": statistics.median(times) * 1e3, "min_ms": min(times) * 1e3, "runs": len(times),
                     "matches": matches, "error": error}
    return out


def inductor_side(text, graph, tracer, repeat, budget_s):
    """The six built-ins in a PatternMatcherPass, applied to copies of the dump's graph (with fake-tensor meta)."""
    import torch
    import torch.fx

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import inductor_builtins

    gm = torch.fx.GraphModule(tracer.root, graph)
    t0 = time.perf_counter()
    try:
        fake_propagate(gm, text)
    except Exception as e:
        return {"error": f"FakeTensorProp: {type(e).__name__}: {str(e)[:300]}"}
    fake_s = time.perf_counter() - t0
    pattern_pass, entries = inductor_builtins.builtin_pass()
    counts = {}
    replace_step = {name: e.apply for name, e in entries.items()}

    def use(replace):
        """Every entry counts its accepted matches; with replace=False its replacement step is skipped."""
        for name, entry in entries.items():
            def apply(match, g, node, name=name, then=replace_step[name] if replace else None):
                counts[name] = counts.get(name, 0) + 1
                if then is not None:
                    then(match, g, node)
            entry.apply = apply

    def fresh_graph():
        g = torch.fx.Graph(owning_module=gm)
        g.output(g.graph_copy(gm.graph, {}))  # node_copy copies meta (the fake values) too
        return g

    def timed(replace):
        use(replace)
        times, result = [], {}
        started = time.perf_counter()
        for _ in range(repeat):
            if times and time.perf_counter() - started > budget_s:
                break
            g = fresh_graph() if replace else gm.graph
            counts.clear()
            gc.collect()
            t0 = time.perf_counter()
            total = pattern_pass.apply(g)
            times.append(time.perf_counter() - t0)
            result = {"matches": total, "per_pattern": {n: counts.get(n, 0) for n in entries},
                      "nodes_after": len(g.nodes)}
            del g
        return result | {"median_ms": statistics.median(times) * 1e3, "min_ms": min(times) * 1e3,
                         "runs": len(times)}

    out = {"fake_prop_s": fake_s}
    try:
        out["apply"] = timed(replace=True)
        out["match_only"] = timed(replace=False)
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    return out


def torch_worker(graph_path, pattern_paths, repeat, budget_s, inductor_repeat):
    import torch
    import torch.fx

    dump_tracer = DumpTracer()  # one for the graph and its patterns: their op targets are the same objects

    def load(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return (text, *dump_tracer.trace(text, path))

    t0 = time.perf_counter()
    text, graph, tracer = load(graph_path)
    out = {"nodes": len(graph.nodes), "torch": torch.__version__, "trace_s": time.perf_counter() - t0}
    out["patterns"] = subgraph_side(graph, [(name, load(p)[1]) for name, p in pattern_paths], repeat, budget_s)
    if inductor_repeat:
        out["inductor"] = inductor_side(text, graph, tracer, inductor_repeat, budget_s)
    return out


def inductor_pattern_reprs():
    """{name: repr(PatternExpr)} of the built-ins as Inductor registered them."""
    import re

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import inductor_builtins

    out = {}
    for name, entry in inductor_builtins.builtin_pass()[1].items():
        text = repr(entry.pattern)
        # fx_to_pattern gives a single-output pattern's root the output node's user count (0), which the matcher
        # ignores for outputs; fxscope leaves it out (as python/tests/test_patterns.py compares them).
        if not text.startswith("MultiOutputPattern("):
            text = re.sub(r", _users=0\)$", ")", text)
        out[name] = text
    return out


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------

def measure(label, graph_path, pattern_names, pattern_dir, args, py, builtin_subgraph=False):
    """One graph: fxscope's SubgraphMatcher on each pattern and its Inductor-style matcher on the built-ins (one
    bench_match process), then PyTorch's side of both (one worker process)."""
    ppaths = [(n, str(pattern_dir / f"{n}.py")) for n in pattern_names]
    cmd = [args.bench, str(graph_path), "--repeat", str(args.fxscope_repeat), "--inductor"]
    for _, p in ppaths:
        cmd += ["--pattern", p]
    if builtin_subgraph:
        cmd += ["--builtin", "all"]
    fx = run_json(cmd, args.timeout)
    fx_ind = fx["patterns"][0]
    fx_by = {p["name"][:-3]: p for p in fx["patterns"][1:] if p["name"].endswith(".py")}
    print(f"[{label}] fxscope done; PyTorch ...", file=sys.stderr, flush=True)
    pt = run_json([py, __file__, "--torch-worker", str(graph_path), "--repeat", str(args.repeat),
                   "--torch-budget", str(args.torch_budget), "--patterns-json", json.dumps(ppaths),
                   "--inductor-repeat", str(args.inductor_repeat)], args.timeout)
    sub_rows = []
    for name in pattern_names:
        f, t = fx_by[name], pt["patterns"][name]
        sub_rows.append({"graph": label, "file": str(graph_path), "pattern": name, "nodes": fx["nodes"],
                         "torch_nodes": pt["nodes"], "fxscope_ms": f["median_ms"], "fxscope_min_ms": f["min_ms"],
                         "fxscope_matches": f["matches"], "candidates": f["candidates"], "torch_ms": t["median_ms"],
                         "torch_min_ms": t["min_ms"], "torch_runs": t["runs"], "torch_matches": t["matches"],
                         "torch_error": t["error"],
                         "ratio": t["median_ms"] / f["median_ms"] if f["median_ms"] > 0 and not t["error"] else None})
        print(f"  {label:18} {name:14} fxscope {f['median_ms']:9.3f} ms ({f['matches']} matches)   "
              f"PyTorch {t['median_ms']:10.1f} ms ({t['error'] or t['matches']})", file=sys.stderr, flush=True)
    ind = pt.get("inductor") or {}
    fx_per = {p["name"]: p["matches"] for p in fx_ind["per_pattern"]}
    row = {"graph": label, "file": str(graph_path), "nodes": fx["nodes"], "torch_nodes": pt["nodes"],
           "fxscope_ms": fx_ind["median_ms"], "fxscope_min_ms": fx_ind["min_ms"],
           "fxscope_json_ms": fx_ind["json_median_ms"], "fxscope_matches": fx_ind["matches"],
           "fxscope_per_pattern": fx_per, "fxscope_candidates": fx_ind["candidates"],
           "inductor": ind, "torch_trace_s": pt["trace_s"]}
    if "apply" in ind:
        row["ratio_apply"] = ind["apply"]["median_ms"] / fx_ind["median_ms"]
        row["ratio_match_only"] = ind["match_only"]["median_ms"] / fx_ind["median_ms"]
        print(f"  {label:18} {'builtins':14} fxscope {fx_ind['median_ms']:9.3f} ms ({fx_ind['matches']} matches)   "
              f"Inductor apply {ind['apply']['median_ms']:10.1f} ms ({ind['apply']['matches']}), match-only "
              f"{ind['match_only']['median_ms']:.1f} ms ({ind['match_only']['matches']})", file=sys.stderr, flush=True)
    else:
        print(f"  {label:18} builtins: Inductor side failed: {ind.get('error')}", file=sys.stderr, flush=True)
    extra = {"subgraph_builtins_ms": sum(p["median_ms"] for p in fx["patterns"][1:] if not p["name"].endswith(".py"))}
    return sub_rows, row | extra


def short_counts(per):
    """{'swiglu': 12, 'rms_norm': 0} -> 'swiglu 12' (patterns with matches only; '0' when none)."""
    parts = [f"{n} {c}" for n, c in per.items() if c]
    return ", ".join(parts) if parts else "0"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header)))
           + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def git_state():
    p = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return p.stdout.strip() or None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_match"), help="bench_match executable")
    ap.add_argument("--cli", help="fxscope-cli, to check that Inductor's patterns print as fxscope's (default: "
                    "beside --bench)")
    ap.add_argument("--sizes", help="comma-separated node counts (default 1000,3000,10000,30000,100000)")
    ap.add_argument("--repeat", type=int, default=5, help="PyTorch SubgraphMatcher runs per pattern (median)")
    ap.add_argument("--inductor-repeat", type=int, default=3,
                    help="Inductor PatternMatcherPass.apply runs per graph, each mode (median); 0 skips Inductor")
    ap.add_argument("--fxscope-repeat", type=int, default=21)
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000 and 3 repeats")
    ap.add_argument("--python", help="interpreter with torch >= 2.1 (default: the build's fxscope-python)")
    ap.add_argument("--torch-budget", type=float, default=60,
                    help="seconds after which a PyTorch measurement stops repeating (it always runs once)")
    ap.add_argument("--hrnet", default=str(HRNET), help="the HRNet joint graph ('' skips it)")
    ap.add_argument("--output", default=str(ROOT / "bench" / "results" / "match.json"))
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--torch-worker", help=argparse.SUPPRESS)
    ap.add_argument("--patterns-json", help=argparse.SUPPRESS)
    ap.add_argument("--inductor-patterns", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.torch_worker:
        print(json.dumps(torch_worker(args.torch_worker, json.loads(args.patterns_json), args.repeat,
                                      args.torch_budget, args.inductor_repeat)))
        return 0
    if args.inductor_patterns:
        print(json.dumps(inductor_pattern_reprs()))
        return 0

    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else DEFAULT_SIZES
    if args.quick:
        sizes, args.repeat = [1000, 10000], 3
    build_dir = Path(args.bench).resolve().parent.parent
    py = torch_python(args.python, build_dir)
    cli = args.cli or str(Path(args.bench).resolve().parent / "fxscope-cli")
    problems = []

    # The same patterns on both sides: Inductor's PatternExprs must print as fxscope's.
    theirs = run_json([py, __file__, "--inductor-patterns"], args.timeout)
    ours = {p["name"]: p["pattern"] for p in run_json([cli, "patterns", "builtin", "--json"], args.timeout)["patterns"]}
    pattern_check = {n: theirs.get(n) == ours.get(n) for n in ours}
    for n, same in pattern_check.items():
        if not same:
            problems.append(f"built-in {n}: Inductor's pattern {theirs.get(n)!r} differs from fxscope's {ours[n]!r}")
    print("patterns: " + ", ".join(f"{n} {'same' if s else 'DIFFERENT'}" for n, s in pattern_check.items()),
          file=sys.stderr, flush=True)

    load_before = os.getloadavg()
    sub_rows, ind_rows = [], []
    with tempfile.TemporaryDirectory(prefix="fxscope-bench-match-") as tmp:
        tmp = Path(tmp)
        for name, text in PATTERNS.items():
            (tmp / f"{name}.py").write_text(text)
        cases = [(label, path, names, False) for label, path, names in CORPUS_CASES]
        if args.hrnet and Path(args.hrnet).is_file():
            cases.append(("HRNet joint", Path(args.hrnet), [], True))
        for label, path, names, builtin_subgraph in cases:
            s, r = measure(label, path, names, tmp, args, py, builtin_subgraph)
            sub_rows += s
            ind_rows.append(r)
        for n in sizes:
            path = tmp / f"synthetic_{n}.py"
            path.write_text(parse_run.build_transformer(n).readable())
            s, r = measure(f"synthetic {n}", path, SYNTHETIC_PATTERNS, tmp, args, py)
            sub_rows += s
            ind_rows.append(r)
    load_after = os.getloadavg()

    # --- SubgraphMatcher table -------------------------------------------------------------------------------------
    lines = []
    for r in sub_rows:
        theirs = r["torch_error"].split(":")[0] if r["torch_error"] else str(r["torch_matches"])
        if r["torch_error"]:
            problems.append(f"{r['graph']} / {r['pattern']}: PyTorch raised {r['torch_error'][:120]}")
        elif r["torch_matches"] != r["fxscope_matches"]:
            problems.append(f"{r['graph']} / {r['pattern']}: PyTorch SubgraphMatcher found {r['torch_matches']}, "
                            f"fxscope {r['fxscope_matches']}")
        runs = "" if r["torch_runs"] >= args.repeat or r["torch_error"] else f" ({r['torch_runs']}x)"
        lines.append([r["graph"], r["pattern"], f"{r['nodes']:,}", fmt(r["fxscope_ms"], ".3f"),
                      fmt(r["torch_ms"], ".1f") + (" †" if r["torch_error"] else runs),
                      fmt(r["ratio"], ",.0f") + "x" if r["ratio"] else "—",
                      str(r["fxscope_matches"]), theirs, str(r["candidates"])])
    syn_sub = [r for r in sub_rows if r["graph"].startswith("synthetic")]
    exponents = {}
    for name in SYNTHETIC_PATTERNS:
        pts = [r for r in syn_sub if r["pattern"] == name]
        exponents[f"subgraph_{name}_fxscope"] = slope([(r["nodes"], r["fxscope_ms"]) for r in pts])
        exponents[f"subgraph_{name}_pytorch"] = slope([(r["nodes"], r["torch_ms"]) for r in pts if not r["torch_error"]])
        lines.append(["growth exponent", name, "", fmt(exponents[f"subgraph_{name}_fxscope"], ".2f"),
                      fmt(exponents[f"subgraph_{name}_pytorch"], ".2f"), "", "", "", ""])
    print("SubgraphMatcher (replace_pattern's matching): fxscope vs torch.fx\n")
    print(table(["graph", "pattern", "nodes", "fxscope ms", "PyTorch ms", "ratio", "fxscope matches",
                 "PyTorch matches", "candidates"], lines))

    # --- Inductor-style table --------------------------------------------------------------------------------------
    lines = []
    for r in ind_rows:
        ind = r["inductor"]
        if "apply" not in ind:
            problems.append(f"{r['graph']}: Inductor side failed: {ind.get('error')}")
            lines.append([r["graph"], f"{r['nodes']:,}", fmt(r["fxscope_ms"], ".3f"), "—", "—", "—", "—",
                          short_counts(r["fxscope_per_pattern"]), "failed", str(r["fxscope_candidates"])])
            continue
        a, m = ind["apply"], ind["match_only"]
        for mode, res in (("apply", a), ("match-only", m)):
            if res["per_pattern"] != r["fxscope_per_pattern"]:
                problems.append(f"{r['graph']}: Inductor {mode} matched {short_counts(res['per_pattern'])}, fxscope "
                                f"{short_counts(r['fxscope_per_pattern'])}")
        if r["nodes"] != r["torch_nodes"]:
            problems.append(f"{r['graph']}: node counts differ (fxscope {r['nodes']}, PyTorch {r['torch_nodes']})")

        def runs(res):
            return "" if res["runs"] >= args.inductor_repeat else f" ({res['runs']}x)"
        lines.append([r["graph"], f"{r['nodes']:,}", fmt(r["fxscope_ms"], ".3f"),
                      fmt(m["median_ms"], ",.1f") + runs(m), fmt(r["ratio_match_only"], ",.0f") + "x",
                      fmt(a["median_ms"], ",.1f") + runs(a), fmt(r["ratio_apply"], ",.0f") + "x",
                      short_counts(r["fxscope_per_pattern"]),
                      short_counts(a["per_pattern"]) + ("" if m["per_pattern"] == a["per_pattern"]
                                                        else f" (match-only: {short_counts(m['per_pattern'])})"),
                      str(r["fxscope_candidates"])])
    syn_ind = [r for r in ind_rows if r["graph"].startswith("synthetic") and "apply" in r["inductor"]]
    exponents["inductor_fxscope"] = slope([(r["nodes"], r["fxscope_ms"]) for r in syn_ind])
    exponents["inductor_pytorch_match_only"] = slope([(r["nodes"], r["inductor"]["match_only"]["median_ms"])
                                                      for r in syn_ind])
    exponents["inductor_pytorch_apply"] = slope([(r["nodes"], r["inductor"]["apply"]["median_ms"]) for r in syn_ind])
    lines.append(["growth exponent", "", fmt(exponents["inductor_fxscope"], ".2f"),
                  fmt(exponents["inductor_pytorch_match_only"], ".2f"), "",
                  fmt(exponents["inductor_pytorch_apply"], ".2f"), "", "", "", ""])
    print("\nInductor-style matcher, the six built-ins: fxscope vs Inductor's PatternMatcherPass\n")
    print(table(["graph", "nodes", "fxscope ms", "Inductor match-only ms", "ratio", "Inductor apply ms", "ratio",
                 "fxscope matches", "Inductor matches", "fxscope candidates"], lines))
    hrnet = next((r for r in ind_rows if r["graph"] == "HRNet joint"), None)
    if hrnet:
        print(f"\nHRNet joint ({hrnet['nodes']} nodes): fxscope Inductor-style matcher {hrnet['fxscope_ms']:.1f} ms "
              f"median / {hrnet['fxscope_min_ms']:.1f} ms min (target ≤ {TARGET_MS:.0f} ms), verdict JSON "
              f"{hrnet['fxscope_json_ms']:.1f} ms; fxscope SubgraphMatcher, all 6 search graphs: "
              f"{hrnet['subgraph_builtins_ms']:.1f} ms")
    print("growth exponents (log-log slope over the synthetic sizes): " +
          ", ".join(f"{k} {fmt(v, '.2f')}" for k, v in exponents.items()))
    for p in problems:
        print("PROBLEM:", p)
    result = {"benchmark": "match", "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
              "machine": machine() | {"load_before": load_before, "load_after": load_after, "python_torch": py},
              "torch": torch_version(py),
              "git": git_state(), "bench": args.bench, "sizes": sizes, "repeat": args.repeat,
              "inductor_repeat": args.inductor_repeat, "fxscope_repeat": args.fxscope_repeat,
              "patterns_same_as_fxscope": pattern_check, "rows": sub_rows, "inductor_rows": ind_rows,
              "growth_exponents": exponents, "problems": problems}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nwritten to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
