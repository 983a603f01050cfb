#!/usr/bin/env python3
"""Step benchmark: one fusion step + undo in an fxscope Session against torch.fx doing the same job.

On parse/run.py's synthetic decoder-only transformer (1k .. 100k nodes; SwiGLU in every layer's MLP), each side in
its own process per graph:

  fxscope   bench_step GRAPH --patterns builtin:swiglu: a Session steps once (silu(gate) * up -> npu_swiglu(cat))
            and undoes it, N times; step, undo and redo each timed alone (median). The first step, which runs the
            matcher over the whole graph, is reported apart (report ms).
  PyTorch   torch.fx's way of doing one undoable step: keep the graph to go back to (Graph.graph_copy into a new
            GraphModule, which is also what undo restores) and run torch.fx.subgraph_rewriter.replace_pattern on
            the copy, limited to its first match (the SubgraphMatcher still matches the whole graph first, as
            replace_pattern always does). The project's torch Python (build/fxscope-python: the .venv with
            torch 2.13.0; torch >= 2.1 required). Median of N.

The random walk: bench_step --walk STEPS on a smaller graph: apply (step) / undo / redo chosen at random (seeded),
lint after every action, and every revision reached again through undo or redo must print the canonical dump it
had when first reached. A larger graph is walked without the checks for timing.

Usage: run.py [--bench build/bin/bench_step] [--sizes 1000,...] [--repeat N] [--walk N] [--quick]
Writes bench/results/step.json and prints a Markdown table.
"""

import argparse
import gc
import importlib.util
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import fmt, machine, run_json, slope, torch_python, torch_version  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SIZES = [1000, 3000, 10000, 23444, 30000, 100000]
TARGET_MS = 10.0

_spec = importlib.util.spec_from_file_location("parse_run", ROOT / "bench" / "parse" / "run.py")
parse_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parse_run)


# ----------------------------------------------------------------------------------------------------------------
# PyTorch side (its own process per graph)
# ----------------------------------------------------------------------------------------------------------------

def npu_swiglu(x, dim):
    """A leaf the replacement calls, as torch_npu.npu_swiglu is for fxscope (never executed)."""
    raise RuntimeError("npu_swiglu is only traced")


try:  # only the PyTorch worker's interpreter has torch; fx.wrap must run at module level
    import torch.fx
    torch.fx.wrap("npu_swiglu")
except ImportError:
    pass

def torch_worker(graph_path, repeat, budget_s):
    import torch
    import torch.fx
    from torch.fx.passes.utils import matcher_utils
    from torch.fx import subgraph_rewriter

    def pattern(gate, up):
        return torch.ops.aten.mul.Tensor(torch.ops.aten.silu.default(gate), up)

    def replacement(gate, up):
        return npu_swiglu(torch.ops.aten.cat.default([gate, up], -1), -1)

    with open(graph_path, encoding="utf-8") as f:
        src = f.read()
    ns = {"torch": torch, "inf": math.inf, "nan": math.nan, "device": torch.device, "__name__": "fxscope_bench"}
    exec(compile(src, str(graph_path), "exec"), ns)
    gm = torch.fx.symbolic_trace(ns["GraphModule"]())
    nodes = len(gm.graph.nodes)

    # One step: replace_pattern's matcher, limited to its first match.
    original_match = matcher_utils.SubgraphMatcher.match

    def first_match_only(self, graph, *args, **kwargs):  # torch 2.x passes node_name_match
        found = original_match(self, graph, *args, **kwargs)
        first_match_only.found = len(found)
        return found[:1]
    matcher_utils.SubgraphMatcher.match = first_match_only

    def step():
        t0 = time.perf_counter()
        graph = torch.fx.Graph()
        out = graph.graph_copy(gm.graph, {})
        graph.output(out)
        copy = torch.fx.GraphModule(gm, graph)  # what undo goes back to, and what the step rewrites
        t1 = time.perf_counter()
        replaced = subgraph_rewriter.replace_pattern(copy, pattern, replacement)
        t2 = time.perf_counter()
        return (t1 - t0) * 1e3, (t2 - t1) * 1e3, len(replaced), len(copy.graph.nodes)

    copy_ms, replace_ms = [], []
    start = time.perf_counter()
    error = None
    replaced = after = 0
    for i in range(repeat):
        gc.collect()
        try:
            c, r, replaced, after = step()
        except Exception as e:  # reported in the table; torch 1.13 raised RecursionError here on long chains
            error = f"{type(e).__name__}: {e}"
            break
        copy_ms.append(c)
        replace_ms.append(r)
        if time.perf_counter() - start > budget_s:
            break
    total = [c + r for c, r in zip(copy_ms, replace_ms)]
    return {
        "nodes": nodes, "runs": len(total), "error": error,
        "copy_ms": statistics.median(copy_ms) if copy_ms else None,
        "replace_ms": statistics.median(replace_ms) if replace_ms else None,
        "step_undo_ms": statistics.median(total) if total else None,
        "step_undo_min_ms": min(total) if total else None,
        "matches_found": getattr(first_match_only, "found", None), "replaced": replaced, "nodes_after": after,
        "torch": torch.__version__,
    }


def run_torch_worker(args):
    print(json.dumps(torch_worker(args.graph, args.repeat, args.torch_budget)))


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_step"))
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--torch-repeat", type=int, default=5)
    ap.add_argument("--torch-budget", type=float, default=60.0)
    ap.add_argument("--walk", type=int, default=10000, help="actions of the checked random walk")
    ap.add_argument("--walk-size", type=int, default=1000, help="nodes of the checked walk's graph")
    ap.add_argument("--walk-timing-size", type=int, default=100000, help="nodes of the unchecked, timed walk")
    ap.add_argument("--python", default=None,
                    help="interpreter with torch >= 2.1 (default: the build's fxscope-python beside --bench's bin/)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--output", default=str(ROOT / "bench" / "results" / "step.json"))
    ap.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--graph", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_worker:
        return run_torch_worker(args)

    sizes = [int(s) for s in args.sizes.split(",")]
    if args.quick:
        sizes, args.repeat, args.torch_repeat, args.walk = [1000, 10000], 5, 3, 1000
        args.walk_timing_size = 10000
    py = torch_python(args.python, Path(args.bench).resolve().parent.parent)
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="fxscope_step_") as tmp:
        def graph_file(n):
            path = Path(tmp) / f"transformer_{n}.py"
            if not path.exists():
                path.write_text(parse_run.build_transformer(n).readable(), encoding="utf-8")
            return path

        for n in sizes:
            path = graph_file(n)
            fx = run_json([args.bench, str(path), "--patterns", "builtin:swiglu", "--repeat", str(args.repeat)], 1800)
            pt = None
            if py:
                pt = run_json([py, __file__, "--torch-worker", "--graph", str(path), "--repeat",
                               str(args.torch_repeat), "--torch-budget", str(args.torch_budget)], 3600)
            step_undo = fx["step_ms"]["median"] + fx["undo_ms"]["median"]
            cold = fx["report_ms"] + step_undo  # the first step of a session runs the matcher over the graph
            row = {"nodes": n, "fxscope": fx, "torch": pt, "fxscope_step_undo_ms": step_undo,
                   "fxscope_cold_step_ms": cold}
            if pt and pt.get("step_undo_ms"):
                row["ratio"] = pt["step_undo_ms"] / step_undo
                row["ratio_cold"] = pt["step_undo_ms"] / cold
            rows.append(row)
            print(f"{n:>7} nodes: fxscope step {fx['step_ms']['median']:.4f} ms undo {fx['undo_ms']['median']:.4f} ms"
                  f" redo {fx['redo_ms']['median']:.4f} ms (report {fx['report_ms']:.1f} ms, lint {fx['lint_ms']:.1f}"
                  f" ms); PyTorch {fmt(pt and pt.get('step_undo_ms'), '.1f')} ms", file=sys.stderr)

        walk = run_json([args.bench, str(graph_file(args.walk_size)), "--patterns", "builtin:swiglu", "--repeat", "1",
                         "--walk", str(args.walk)], 7200)
        timed_walk = run_json([args.bench, str(graph_file(args.walk_timing_size)), "--patterns", "builtin:swiglu",
                               "--repeat", "1", "--walk", str(args.walk), "--no-check"], 3600)

    exponents = {
        "fxscope_step": slope([(r["nodes"], r["fxscope"]["step_ms"]["median"]) for r in rows]),
        "fxscope_undo": slope([(r["nodes"], r["fxscope"]["undo_ms"]["median"]) for r in rows]),
        "fxscope_redo": slope([(r["nodes"], r["fxscope"]["redo_ms"]["median"]) for r in rows]),
        "fxscope_report": slope([(r["nodes"], r["fxscope"]["report_ms"]) for r in rows]),
        "fxscope_cold_step": slope([(r["nodes"], r["fxscope_cold_step_ms"]) for r in rows]),
        "torch_copy": slope([(r["nodes"], r["torch"] and r["torch"].get("copy_ms")) for r in rows]),
        "torch_replace_pattern": slope([(r["nodes"], r["torch"] and r["torch"].get("replace_ms")) for r in rows]),
        "torch_step_undo": slope([(r["nodes"], r["torch"] and r["torch"].get("step_undo_ms")) for r in rows]),
    }
    result = {
        "benchmark": "step", "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": machine() | {"load_before": load_before, "load_after": os.getloadavg()[0], "python_torch": py},
        "torch": torch_version(py), "bench": args.bench, "repeat": args.repeat, "torch_repeat": args.torch_repeat,
        "target_ms_at_23k": TARGET_MS, "rows": rows, "walk": walk, "timed_walk": timed_walk,
        "growth_exponents": exponents,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    print("| nodes | fxscope step ms | undo ms | redo ms | step+undo ms | first matcher run ms | cold step ms "
          "| PyTorch copy ms | PyTorch replace_pattern ms | PyTorch step+undo ms | ratio | ratio (cold) "
          "| PyTorch matches |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        fx, pt = r["fxscope"], r["torch"] or {}
        runs = "" if pt.get("runs", args.torch_repeat) >= args.torch_repeat else f" ({pt['runs']}x)"
        print(f"| {r['nodes']:,} | {fx['step_ms']['median']:.4f} | {fx['undo_ms']['median']:.4f} | "
              f"{fx['redo_ms']['median']:.4f} | {r['fxscope_step_undo_ms']:.4f} | {fx['report_ms']:.1f} | "
              f"{r['fxscope_cold_step_ms']:.1f} | {fmt(pt.get('copy_ms'), ',.0f')} | "
              f"{fmt(pt.get('replace_ms'), ',.0f')} | {fmt(pt.get('step_undo_ms'), ',.0f')}{runs} | "
              f"{fmt(r.get('ratio'), ',.0f')}x | {fmt(r.get('ratio_cold'), ',.0f')}x | "
              f"{pt.get('matches_found', '—') if not pt.get('error') else pt['error'][:30]} |")
    print("growth exponents (log-log slope over the sizes): " +
          ", ".join(f"{k} {fmt(v, '.2f')}" for k, v in exponents.items()))
    for name, w in (("checked walk", walk), ("timed walk (no checks)", timed_walk)):
        ww = w["walk"]
        print(f"{name} on {w['nodes']} nodes: {ww['actions']} actions, {ww['applied']} applied, {ww['undone']} undone,"
              f" {ww['redone']} redone, {ww['fixed_points']} fixed points, {ww['revisions_checked']} revisions "
              f"checked; apply median {ww['apply_ms']['median']:.4f} ms (max {ww['apply_ms']['max']:.1f}), "
              f"undo {ww['undo_ms']['median']:.4f}, redo {ww['redo_ms']['median']:.4f} ms")
    print(f"load average {load_before:.2f} before, {result['machine']['load_after']:.2f} after; "
          f"JSON: {args.output}")


if __name__ == "__main__":
    sys.exit(main())
