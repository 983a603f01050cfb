#!/usr/bin/env python3
"""GUI benchmark: a scripted session on every corpus graph dump, each in its own process (bench_gui FILE).

For each file (its first graph): time to first view (open -> parsed -> first layout laid out and painted), the
first layout alone, the expand time of its largest groups (request -> laid out -> painted), and the resident
memory after the first view. For the graphs named in --frames (HRNet by default) also: every group expanded, then
frame times while panning and zooming at the fitted zoom (everything in view) and at 100 %, and the peak memory.
Targets (issue #6): first view <= 1 s for any corpus graph, expand <= 0.2 s, 60 fps with 10k visible nodes,
memory <= 300 MB with HRNet open. Runs under QT_QPA_PLATFORM=offscreen (software raster, as X11 without GL).

There is no PyTorch side: PyTorch has no graph viewer to compare with (tlparse and Model Explorer are web tools).

Usage: run.py [--bench build/bin/bench_gui] [--frames NAME,...] [--expand N] [--out bench/results/gui.json]
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "corpus"
HRNET = "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"


def corpus_files():
    for sub in ["readable", "fx_text", "torch_trace", "torchair_py"]:
        for f in sorted((CORPUS / sub).iterdir()):
            if f.is_file() and f.name != "README.md":
                yield f


def run(bench, path, expand, frames):
    cmd = [bench, str(path), "--expand", str(expand)] + ([] if frames else ["--no-frames"])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    wall = time.time() - t
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "{}"
    try:
        result = json.loads(line)
    except json.JSONDecodeError:
        result = {"error": (p.stderr or "no output").strip().splitlines()[-1:]}
    result["process_s"] = round(wall, 2)
    result["exit"] = p.returncode
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_gui"))
    ap.add_argument("--frames", default=HRNET)
    ap.add_argument("--expand", type=int, default=10)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "gui.json"))
    ap.add_argument("--only", default="", help="run only the files whose name contains this; merged into --out")
    args = ap.parse_args()
    frames = set(args.frames.split(",")) if args.frames else set()

    rows = []
    for f in corpus_files():
        if args.only and args.only not in f.name:
            continue
        r = run(args.bench, f, args.expand, f.name in frames)
        r["name"] = f"{f.parent.name}/{f.name}"
        rows.append(r)
        print(f"{r['name'][:78]:78} {r.get('nodes', '-'):>6} {r.get('first_view_ms', float('nan')):8.0f} ms",
              file=sys.stderr)

    print("\n| graph | nodes | groups | first view ms | (parse ms) | (first layout ms) | expand median / max ms | RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(rows, key=lambda r: -r.get("nodes", 0)):
        if "error" in r:
            print(f"| {r['name']} | error: {r['error']} | | | | | | |")
            continue
        e = r.get("expand", {})
        exp = f"{e['median_ms']:.0f} / {e['max_ms']:.0f}" if e else "-"
        print(f"| {r['name'].split('/', 1)[1][:70]} | {r['nodes']} | {r['groups']} | {r['first_view_ms']:.0f} | "
              f"{r['parse_ms']:.0f} | {r['first_layout_ms']:.0f} | {exp} | {r['rss_mb']:.0f} |")
    for r in rows:
        if "frames_fit" not in r:
            continue
        print(f"\nFrames, {r['name']} with every group expanded ({r['nodes_shown_expanded']} nodes; expand all "
              f"{r['expand_all_ms'] / 1000:.1f} s); peak RSS {r['rss_peak_mb']:.0f} MB\n")
        print("| view | nodes in view | pan median / p95 ms | zoom median / p95 ms | fps (median frame) |")
        print("|---|---:|---:|---:|---:|")
        for key, label in [("frames_fit", "fitted"), ("frames_100", "100 %")]:
            fr = r[key]
            # The pans run at the start zoom; the zoom steps go in and out around it.
            zoom, shown = fr.get("start_zoom", fr["zoom"]), fr.get("start_nodes_in_view", fr["nodes_in_view"])
            print(f"| {label} (zoom {zoom:.3f}) | {shown} | {fr['pan']['median_ms']:.1f} / "
                  f"{fr['pan']['p95_ms']:.1f} | {fr['zoom_steps']['median_ms']:.1f} / {fr['zoom_steps']['p95_ms']:.1f} | "
                  f"{fr['fps_median']:.0f} |")

    meta = {"machine": platform.node(), "cpus": os.cpu_count(), "load_average": os.getloadavg(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    if args.only and Path(args.out).exists():
        # Replace those graphs' rows in the earlier results; the others keep theirs.
        earlier = json.loads(Path(args.out).read_text())
        fresh = {r["name"] for r in rows}
        rows = [r for r in earlier["graphs"] if r["name"] not in fresh] + rows
        meta = {**earlier["meta"], "rerun": {**meta, "only": args.only}}
    Path(args.out).write_text(json.dumps({"meta": meta, "graphs": rows}, indent=1) + "\n")
    print(f"\nwrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
