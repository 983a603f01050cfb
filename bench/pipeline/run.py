#!/usr/bin/env python3
"""TorchAir pipeline benchmark: the graph passes TorchAir runs around its pattern pass, fxscope against torch.

What fxscope runs for a TorchAir pattern file before and after the pattern pass (remove_noop_ops,
recover_view_inplace, optimize_sym_input, view_to_reshape), on parse/run.py's synthetic decoder-only transformer
(1k .. 100k nodes) and on the corpus's HRNet joint graph (23k nodes), each side in its own process:

  fxscope   bench_pipeline GRAPH: the four passes on a fresh copy of the graph (GraphEditor, edits recorded for
            undo), median of N; the copy is timed apart.
  PyTorch   the same graph rebuilt as a GraphModule from fxscope's JSON (python/fxscope_capture/_torch_graph.py);
            on a fresh copy (Graph.graph_copy, timed apart), Inductor's remove_noop_ops and view_to_reshape and
            fxscope_capture.torchair_pipeline's recover_view_inplace and optimize_sym_input (TorchAir's two, which
            TorchAir itself cannot be installed here to run), median of N.

Usage: run.py [--bench build/bin/bench_pipeline] [--cli build/bin/fxscope-cli] [--sizes 1000,...] [--quick]
Writes bench/results/pipeline.json and prints a Markdown table.
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import fmt, machine, run_json, slope, torch_python, torch_version  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SIZES = [1000, 3000, 10000, 30000, 100000]
HRNET = ROOT / "tests" / "data" / "corpus" / "readable" / \
    "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"

_spec = importlib.util.spec_from_file_location("parse_run", ROOT / "bench" / "parse" / "run.py")
parse_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parse_run)


def torch_worker(json_path, repeat):
    sys.path.insert(0, str(ROOT / "python"))
    import torch
    from torch._inductor.fx_passes.post_grad import remove_noop_ops, view_to_reshape
    from fxscope_capture import _torch_graph, torchair_pipeline

    gm, _ = _torch_graph.load_graph_module(json_path)
    passes = [("remove_noop_ops", lambda m: remove_noop_ops(m.graph)),
              ("recover_view_inplace", torchair_pipeline.recover_view_inplace),
              ("optimize_sym_input", torchair_pipeline.optimize_sym_input),
              ("view_to_reshape", view_to_reshape)]
    copy_ms, passes_ms, per = [], [], {name: [] for name, _ in passes}
    for _ in range(repeat):
        t0 = time.perf_counter()
        graph = torch.fx.Graph()
        out = graph.graph_copy(gm.graph, {})
        graph.output(out)
        copy = torch.fx.GraphModule(gm, graph)
        copy_ms.append((time.perf_counter() - t0) * 1e3)
        started = time.perf_counter()
        for name, fn in passes:
            t = time.perf_counter()
            fn(copy)
            per[name].append((time.perf_counter() - t) * 1e3)
        passes_ms.append((time.perf_counter() - started) * 1e3)
    return {"nodes": len(gm.graph.nodes), "copy_ms": statistics.median(copy_ms),
            "passes_ms": statistics.median(passes_ms),
            "per_pass_ms": {k: statistics.median(v) for k, v in per.items()}, "torch": torch.__version__}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_pipeline"))
    ap.add_argument("--cli", default=str(ROOT / "build" / "bin" / "fxscope-cli"))
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--torch-repeat", type=int, default=5)
    ap.add_argument("--python", default=None, help="interpreter with torch (default: the build's fxscope-python)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--output", default=str(ROOT / "bench" / "results" / "pipeline.json"))
    ap.add_argument("--torch-worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_worker:
        print(json.dumps(torch_worker(args.torch_worker, args.torch_repeat)))
        return 0

    sizes = [1000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]
    py = torch_python(args.python, Path(args.bench).resolve().parent.parent)
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="fxscope_pipeline_") as tmp:
        graphs = []
        for n in sizes:
            path = Path(tmp) / f"transformer_{n}.py"
            path.write_text(parse_run.build_transformer(n).readable(), encoding="utf-8")
            graphs.append((f"transformer {n:,}", path))
        if HRNET.exists() and not args.quick:
            graphs.append(("HRNet joint (corpus)", HRNET))
        for label, path in graphs:
            fx = run_json([args.bench, str(path), "--repeat", str(args.repeat)], 1800)
            pt = None
            if py:
                json_path = Path(tmp) / (path.stem + ".json")
                subprocess.run([args.cli, "convert", str(path), "-o", str(json_path)], check=True,
                               capture_output=True, timeout=600)
                pt = run_json([py, __file__, "--torch-worker", str(json_path), "--torch-repeat",
                               str(args.torch_repeat)], 3600)
            row = {"graph": label, "nodes": fx["nodes"], "fxscope": fx, "torch": pt}
            if pt:
                row["ratio"] = pt["passes_ms"] / fx["passes_ms"]["median"]
            rows.append(row)
            print(f"{label}: fxscope {fx['passes_ms']['median']:.2f} ms (copy {fx['clone_ms']['median']:.1f}), "
                  f"PyTorch {fmt(pt and pt['passes_ms'], '.1f')} ms", file=sys.stderr)

    synthetic = [r for r in rows if r["graph"].startswith("transformer")]
    exponents = {
        "fxscope_passes": slope([(r["nodes"], r["fxscope"]["passes_ms"]["median"]) for r in synthetic]),
        "torch_passes": slope([(r["nodes"], r["torch"] and r["torch"]["passes_ms"]) for r in synthetic]),
    }
    result = {"benchmark": "pipeline", "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
              "machine": machine() | {"load_before": load_before, "load_after": os.getloadavg()[0]},
              "torch": torch_version(py), "rows": rows, "growth_exponents": exponents}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    print("| graph | nodes | fxscope passes ms | fxscope copy ms | PyTorch passes ms | PyTorch copy ms | ratio "
          "| changed by fxscope's passes |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        fx, pt = r["fxscope"], r["torch"] or {}
        changed = ", ".join(f"{k} {v}" for k, v in fx["changed"].items() if v) or "nothing"
        print(f"| {r['graph']} | {r['nodes']:,} | {fx['passes_ms']['median']:.2f} | {fx['clone_ms']['median']:.1f} | "
              f"{fmt(pt.get('passes_ms'), ',.1f')} | {fmt(pt.get('copy_ms'), ',.1f')} | {fmt(r.get('ratio'), ',.0f')}x "
              f"| {changed} |")
    print("growth exponents (log-log slope over the synthetic sizes): " +
          ", ".join(f"{k} {fmt(v, '.2f')}" for k, v in exponents.items()))
    print(f"load average {load_before:.2f} before, {result['machine']['load_after']:.2f} after; JSON: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
