#!/usr/bin/env python3
"""Match benchmark: fxscope's SubgraphMatcher against torch.fx's SubgraphMatcher on the same graph and pattern.

For real fusion patterns (RMSNorm T5-style and LLaMA-style with casts, add + RMSNorm, LayerNorm via var_mean,
SwiGLU, mm + add, and the var_mean norm of the synthetic transformer) over corpus graphs (T5 joint, Bert forward,
the LLaMA block sample) and generated 1k..100k-node transformer graphs, this measures, each side in its own
process per graph:

  fxscope   bench_match GRAPH --pattern FILE...: fxs::SubgraphMatcher::create + match (replace_pattern's options),
            every candidate explained; median of N runs; the graph is loaded once, outside the timing
  PyTorch   the same dump and pattern turned into torch.fx.Graphs by exec + symbolic_trace (as bench/parse/run.py
            does), then torch.fx.passes.utils.matcher_utils.SubgraphMatcher(pattern, match_output=False,
            match_placeholder=False, remove_overlapping_matches=True).match(graph), which is what
            torch.fx.subgraph_rewriter.replace_pattern runs before rewriting; median of N runs

It compares time and the number of matches, reports where PyTorch raises RecursionError or finds fewer matches,
prints a table and writes bench/results/match.json. Also times `fxscope-cli match HRNet --patterns builtin`'s
matcher (the Inductor-style one) on the 23k-node HRNet joint graph. PyTorch side: Debian's python3-torch.

Usage: run.py [--bench bench_match] [--sizes 1000,3000,...] [--repeat N] [--quick]
"""

import argparse
import gc
import importlib.util
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DumpTracer, current_fx_create_name, run_json, torch_python  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "readable"
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


# Search graphs as make_fx prints them (the same as fxscope's built-ins where torch 1.13 has the ops; the TorchAir
# add + npu_rms_norm pattern uses the decomposed RMSNorm, since torch_npu is not installed).
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

def torch_worker(graph_path, pattern_paths, repeat, budget_s):
    import torch
    import torch.fx
    from torch.fx.passes.utils.matcher_utils import SubgraphMatcher

    # Loading is not timed; current PyTorch's naming keeps 1.13's quadratic naming out of the way on 100k nodes.
    torch.fx.graph._Namespace.create_name = current_fx_create_name
    dump_tracer = DumpTracer()  # one for the graph and its patterns: their op targets are the same objects

    def load(path):
        with open(path, encoding="utf-8") as f:
            return dump_tracer.trace(f.read(), path)[0]

    graph = load(graph_path)
    out = {"nodes": len(graph.nodes), "torch": torch.__version__, "recursion_limit": sys.getrecursionlimit(),
           "patterns": {}}
    for name, ppath in pattern_paths:
        pattern = load(ppath)
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
            except RecursionError as e:
                error = f"RecursionError: {e}"
                times.append(time.perf_counter() - t0)
                break
            times.append(time.perf_counter() - t0)
            matches = len(found)
        out["patterns"][name] = {"median_ms": statistics.median(times) * 1e3, "runs": len(times),
                                 "matches": matches, "error": error}
    return out


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------



def measure(label, graph_path, pattern_names, pattern_dir, args, py):
    ppaths = [(n, str(pattern_dir / f"{n}.py")) for n in pattern_names]
    cmd = [args.bench, str(graph_path), "--repeat", str(args.fxscope_repeat)]
    for _, p in ppaths:
        cmd += ["--pattern", p]
    fx = run_json(cmd, args.timeout)
    fx_by = {p["name"][:-3]: p for p in fx["patterns"]}
    torch_res = run_json([py, __file__, "--torch-worker", str(graph_path), "--repeat", str(args.repeat),
                          "--torch-budget", str(args.torch_budget), "--patterns-json", json.dumps(ppaths)],
                         args.timeout)
    rows = []
    for name in pattern_names:
        f, t = fx_by[name], torch_res["patterns"][name]
        rows.append({"graph": label, "file": str(graph_path), "pattern": name, "nodes": fx["nodes"],
                     "torch_nodes": torch_res["nodes"], "fxscope_ms": f["median_ms"], "fxscope_min_ms": f["min_ms"],
                     "fxscope_matches": f["matches"], "candidates": f["candidates"], "torch_ms": t["median_ms"],
                     "torch_runs": t["runs"], "torch_matches": t["matches"], "torch_error": t["error"],
                     "ratio": t["median_ms"] / f["median_ms"] if f["median_ms"] > 0 else None})
        print(f"  {label:18} {name:14} fxscope {f['median_ms']:9.3f} ms ({f['matches']} matches)   "
              f"PyTorch {t['median_ms']:10.1f} ms ({t['error'] or t['matches']})", file=sys.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_match"), help="bench_match executable")
    ap.add_argument("--sizes", help="comma-separated node counts (default 1000,3000,10000,30000,100000)")
    ap.add_argument("--repeat", type=int, default=5, help="PyTorch runs per pattern; medians are reported")
    ap.add_argument("--fxscope-repeat", type=int, default=21)
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000 and 3 repeats")
    ap.add_argument("--python", help="interpreter with torch (default: this one, else /usr/bin/python3)")
    ap.add_argument("--torch-budget", type=float, default=60, help="seconds after which PyTorch stops repeating")
    ap.add_argument("--output", default=str(ROOT / "bench" / "results" / "match.json"))
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--torch-worker", help=argparse.SUPPRESS)
    ap.add_argument("--patterns-json", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.torch_worker:
        print(json.dumps(torch_worker(args.torch_worker, json.loads(args.patterns_json), args.repeat,
                                      args.torch_budget)))
        return 0

    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else DEFAULT_SIZES
    if args.quick:
        sizes, args.repeat = [1000, 10000], 3
    py = torch_python(args.python)
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="fxscope-bench-match-") as tmp:
        tmp = Path(tmp)
        for name, text in PATTERNS.items():
            (tmp / f"{name}.py").write_text(text)
        for label, path, names in CORPUS_CASES:
            rows += measure(label, path, names, tmp, args, py)
        for n in sizes:
            g = parse_run.build_transformer(n)
            path = tmp / f"synthetic_{n}.py"
            path.write_text(g.readable())
            rows += measure(f"synthetic {n}", path, SYNTHETIC_PATTERNS, tmp, args, py)
        hrnet = run_json([args.bench, str(HRNET), "--inductor", "--builtin", "all", "--repeat",
                          str(args.fxscope_repeat)], args.timeout) if HRNET.exists() else None
    load_after = os.getloadavg()

    def cell(v, spec):
        return "—" if v is None else format(v, spec)

    header = ["graph", "pattern", "nodes", "fxscope ms", "PyTorch ms", "ratio", "fxscope matches", "PyTorch matches",
              "candidates"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    problems = []
    for r in rows:
        theirs = r["torch_error"].split(":")[0] if r["torch_error"] else str(r["torch_matches"])
        if r["torch_error"]:
            problems.append(f"{r['graph']} / {r['pattern']}: PyTorch raised {r['torch_error'][:80]}")
        elif r["torch_matches"] != r["fxscope_matches"]:
            problems.append(f"{r['graph']} / {r['pattern']}: PyTorch found {r['torch_matches']}, "
                            f"fxscope {r['fxscope_matches']}")
        if r["nodes"] != r["torch_nodes"]:
            problems.append(f"{r['graph']}: node counts differ (fxscope {r['nodes']}, PyTorch {r['torch_nodes']})")
        runs = "" if r["torch_runs"] >= args.repeat or r["torch_error"] else f" ({r['torch_runs']}x)"
        # A RecursionError row shows the time until PyTorch gave up; no ratio is drawn from it.
        lines.append("| " + " | ".join([r["graph"], r["pattern"], str(r["nodes"]), cell(r["fxscope_ms"], ".3f"),
                                         cell(r["torch_ms"], ".1f") + (" †" if r["torch_error"] else runs),
                                         cell(r["ratio"], ".0f") + "x" if r["ratio"] and not r["torch_error"] else "—",
                                         str(r["fxscope_matches"]), theirs, str(r["candidates"])]) + " |")
    print("\n".join(lines))
    print("† time until PyTorch raised RecursionError (validate_partition's recursive DFS over the graph)")
    if hrnet:
        ind = hrnet["patterns"][0]
        sub = sum(p["median_ms"] for p in hrnet["patterns"][1:])
        print(f"\nHRNet joint ({hrnet['nodes']} nodes), 6 built-in patterns: Inductor-style matcher "
              f"{ind['median_ms']:.1f} ms median / {ind['min_ms']:.1f} ms min (target ≤ {TARGET_MS:.0f} ms), verdict "
              f"JSON {ind['json_median_ms']:.1f} ms; SubgraphMatcher, all 6 search graphs: {sub:.1f} ms")
    ratios = [r["ratio"] for r in rows if r["ratio"] and not r["torch_error"]]
    if ratios:
        print(f"ratio PyTorch/fxscope: min {min(ratios):.0f}x, median {statistics.median(ratios):.0f}x")
    for p in problems:
        print("PyTorch:", p)
    result = {"machine": {"platform": platform.platform(), "python": sys.version.split()[0], "cpus": os.cpu_count(),
                          "load_before": load_before, "load_after": load_after},
              "date": time.strftime("%Y-%m-%d %H:%M:%S"), "repeat": args.repeat,
              "fxscope_repeat": args.fxscope_repeat, "rows": rows, "hrnet": hrnet, "problems": problems}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1))
    print(f"\nwritten to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
