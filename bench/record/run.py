#!/usr/bin/env python3
"""Recording benchmark (issue 24, item 4): what python -m fxscope_capture.record costs a torch.compile run, and how
long fxscope takes to open what it wrote.

Model: N tiny transformer blocks (fxscope_capture.examples.tiny_block: RMSNorm, 4-head attention, SwiGLU) in a
row, one training step (forward and backward) under torch.compile(backend="inductor"), for N = 1, 8 and 24 (joint
graphs of ~240, ~1.9k and ~5.7k nodes). Each configuration runs in a fresh process with Inductor's caches off (the
recorder turns them off; the run without it gets the same environment) and an Inductor cache folder of its own (no
kernel compiled by an earlier run is reused), and the time is the first step's wall time
(Dynamo, AOT autograd, Inductor's passes, codegen, the C++ compile, the run). The torch side is the program itself:
the ratio is recorded / not recorded. Then `fxscope-cli info DIR --json` opens each recording (every step file read,
every graph parsed, the fusion matrix built): wall time of the process, graphs and bytes. Last, K small functions compiled one
by one (inference, --graphs, default 24): a recording of tens of compiled graphs, its overhead and opening time.

    python bench/record/run.py --cli build/bin/fxscope-cli [--blocks 1 8 24] [--repeat 1]

Writes bench/results/record.json."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import common  # noqa: E402

WORKER = r"""
import sys, time, json, torch
from torch._dynamo.utils import counters
from fxscope_capture.examples.tiny_block import TinyBlock
blocks = int(sys.argv[1])
torch.manual_seed(0)
model = torch.nn.Sequential(*[TinyBlock() for _ in range(blocks)])
x = torch.randn(2, 8, 32, requires_grad=True)
step = torch.compile(model, backend="inductor")
start = time.perf_counter()
step(x).sum().backward()
print(json.dumps({"first_step_s": time.perf_counter() - start,
                  "pattern_matcher_count": counters["inductor"]["pattern_matcher_count"]}))
"""

# Many compiled graphs: K functions (each its own code object, so each its own Dynamo frame and compile), each a
# small RMSNorm-then-MLP, compiled for inference, as a program with graph breaks or many compiled modules has them.
MANY = r"""
import sys, time, json, torch
from torch._dynamo.utils import counters
graphs = int(sys.argv[1])
torch.manual_seed(0)
x, w = torch.randn(8, 32), torch.randn(32, 32)
start = time.perf_counter()
with torch.no_grad():
    for i in range(graphs):
        scope = {"torch": torch}
        exec(f"def layer_{i}(x, w):\n"
             f"    h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)\n"
             f"    return torch.nn.functional.silu(h @ w) * {i + 1}\n", scope)
        x = torch.compile(scope[f"layer_{i}"])(x, w)
print(json.dumps({"first_step_s": time.perf_counter() - start,
                  "pattern_matcher_count": counters["inductor"]["pattern_matcher_count"]}))
"""


def run_worker(blocks, record_dir, script_text=WORKER):
    with tempfile.TemporaryDirectory() as tmp:
        # A cache folder of its own: Inductor's compiled kernels from an earlier run would make this one cheaper.
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                   TORCHINDUCTOR_AUTOGRAD_CACHE="0", TORCHINDUCTOR_CACHE_DIR=str(Path(tmp) / "inductor"))
        script = Path(tmp) / "step.py"
        script.write_text(script_text)
        cmd = [common.torch_python()]
        if record_dir:
            cmd += ["-m", "fxscope_capture.record", "-o", str(record_dir)]
        cmd += [str(script), str(blocks)]
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
        wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    return result


def folder_bytes(folder):
    return sum(f.stat().st_size for f in Path(folder).rglob("*") if f.is_file())


def open_recording(cli, folder, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run([cli, "info", str(folder), "--json"], capture_output=True, text=True, timeout=600)
        times.append(time.perf_counter() - start)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
    doc = json.loads(out.stdout)
    rec = doc["recording"]
    joint = [s for s in rec["streams"] if s["kind"] == "joint"]
    return {"open_s": statistics.median(times), "graphs": len(doc["graphs"]), "streams": len(rec["streams"]),
            "steps": sum(len(s["steps"]) for s in rec["streams"]), "bytes": folder_bytes(folder),
            "joint_nodes": joint[0]["steps"][0]["nodes"] if joint else None,
            "replaced": sum(p["replaced"] for s in rec["streams"] for st in s["steps"] for p in st["pattern_passes"])}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=str(ROOT / "build" / "bin" / "fxscope-cli"))
    parser.add_argument("--blocks", type=int, nargs="+", default=[1, 8, 24])
    parser.add_argument("--graphs", type=int, default=24, help="functions compiled one by one in the many-graphs run")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "record.json"))
    args = parser.parse_args()
    rows = []
    work = Path(tempfile.mkdtemp(prefix="fxscope_bench_record_"))
    try:
        for blocks in args.blocks:
            plain = [run_worker(blocks, None) for _ in range(args.repeat)]
            recorded = []
            for i in range(args.repeat):
                folder = work / f"rec{blocks}_{i}"
                recorded.append(run_worker(blocks, folder))
            opened = open_recording(args.cli, work / f"rec{blocks}_0", 3)
            row = {"blocks": blocks, **opened,
                   "first_step_s": statistics.median(r["first_step_s"] for r in plain),
                   "first_step_recorded_s": statistics.median(r["first_step_s"] for r in recorded),
                   "pattern_matcher_count": plain[0]["pattern_matcher_count"],
                   "recorded_pattern_matcher_count": recorded[0]["pattern_matcher_count"]}
            row["overhead_ratio"] = row["first_step_recorded_s"] / row["first_step_s"]
            rows.append(row)
            print(f"{blocks:3d} blocks: joint graph {row['joint_nodes']} nodes, first step {row['first_step_s']:.1f} s"
                  f" → {row['first_step_recorded_s']:.1f} s recorded (×{row['overhead_ratio']:.2f}); "
                  f"{row['steps']} steps, {row['graphs']} graphs, {row['bytes'] / 1e6:.1f} MB, "
                  f"opened in {row['open_s']:.2f} s; {row['replaced']} replacements "
                  f"(counter {row['recorded_pattern_matcher_count']})", flush=True)
        many = {"compiled_functions": args.graphs}
        plain = run_worker(args.graphs, None, MANY)
        recorded = run_worker(args.graphs, work / "many", MANY)
        many.update(open_recording(args.cli, work / "many", 3), first_step_s=plain["first_step_s"],
                    first_step_recorded_s=recorded["first_step_s"],
                    overhead_ratio=recorded["first_step_s"] / plain["first_step_s"])
        print(f"{args.graphs} functions compiled one by one: {plain['first_step_s']:.1f} s → "
              f"{recorded['first_step_s']:.1f} s recorded (×{many['overhead_ratio']:.2f}); {many['streams']} "
              f"compiled graphs, {many['steps']} steps, {many['graphs']} graphs, {many['bytes'] / 1e6:.1f} MB, "
              f"opened in {many['open_s']:.2f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {"machine": common.machine(), "torch": common.torch_version(common.torch_python()), "rows": rows,
              "many_graphs": many}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
