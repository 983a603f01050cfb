#!/usr/bin/env python3
"""Batch benchmark (issue 17, item 4): `fxscope-cli match DIR --patterns builtin --jobs N` over

1. the corpus (tests/data/corpus, walked recursively: 77 graphs in 56 dumps) × the built-in patterns, and
2. a synthetic zoo of 5,000 transformer-ish graphs of ~1k nodes, written here as readable code (print_readable):
   each is 9-11 copies of the bundled LLaMA decoder block (resources/samples/llama_block.py, 92 ops: RMSNorm with
   casts, q/k/v/o projections, rotary embedding, softmax attention, SwiGLU MLP) chained through the residual
   stream, with per-graph variations (block count, RMSNorm epsilon per block, sequence length), so every graph
   has candidates and accepted matches for the built-in patterns.

Each configuration runs --repeat times; the table gives the median wall time of the whole process (start,
pattern load, the walk, every load and match, the output) and graphs/s from it. --jobs 1 and --jobs 2 must give
the same rows (the driver checks the JSON of the corpus run, timings aside). Writes bench/results/batch.json."""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "samples" / "llama_block.py"
TIMINGS = {"ms", "load_ms", "match_ms", "wall_ms", "graphs_per_s", "jobs"}


def without_timings(v):
    if isinstance(v, dict):
        return {k: without_timings(x) for k, x in v.items() if k not in TIMINGS}
    if isinstance(v, list):
        return [without_timings(x) for x in v]
    return v


def sample_block():
    """The sample's parameters (name, annotation) and its body lines (the `x = None` clean-ups dropped)."""
    text = SAMPLE.read_text()
    sig = re.search(r"def forward\(self, (.*)\):\n", text)
    params = re.findall(r'(\w+): ("[^"]*")', sig.group(1))
    body = []
    for line in text[sig.end():].splitlines():
        if not line.strip() or line.strip().startswith("return"):
            continue
        body.append(line.split(";  ")[0].rstrip())
    return params, body


def make_graph(params, body, rng):
    """One zoo graph: 9-11 chained blocks with their own weights; cos/sin/mask shared."""
    blocks = rng.randint(9, 11)
    seq = rng.choice([64, 128, 256])
    locals_ = [m.group(1) for line in body if (m := re.match(r"\s+(\w+): ", line))]
    shared = {"arg11_1", "arg12_1", "arg13_1"}
    sig, lines = [], []
    names = dict(params)
    prev_out = prev_res = None
    for k in range(blocks):
        rename = {}
        for name, _ in params:
            if name in shared:
                rename[name] = name
            elif name == "arg9_1" and k:
                rename[name] = prev_out
            elif name == "arg10_1" and k:
                rename[name] = prev_res
            else:
                rename[name] = f"b{k}_{name}"
                sig.append(f"{rename[name]}: {names[name]}")
        for n in locals_:
            rename[n] = f"b{k}_{n}"
        eps = rng.choice(["1e-06", "1e-05"])
        pattern = re.compile(r"(?<![.\w])(" + "|".join(map(re.escape, sorted(rename, key=len, reverse=True))) + r")\b")
        for line in body:
            if line.lstrip().startswith("#"):
                lines.append(line)
                continue
            head, _, call = line.partition(" = ")
            lines.append(pattern.sub(lambda m: rename[m.group(1)], head) + " = "
                         + pattern.sub(lambda m: rename[m.group(1)], call).replace("1e-06", eps))
        prev_out, prev_res = rename["add_7"], rename["add_5"]
    sig += [f"{n}: {names[n]}" for n in sorted(shared)]
    text = "class GraphModule(torch.nn.Module):\n    def forward(self, " + ", ".join(sig) + "):\n" \
        + "\n".join(lines) + f"\n        return ({prev_out},)\n"
    if seq != 128:  # the sequence length: 128 is also the head dim, so only the [1, 128, ...] activations change
        text = text.replace("[1, 128, 4096]", f"[1, {seq}, 4096]")
    return text


def make_zoo(path, count, seed):
    stamp = path / ".zoo"
    want = f"{count} {seed} {SAMPLE.stat().st_size}"
    if stamp.exists() and stamp.read_text() == want:
        return
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.py"):
        old.unlink()
    params, body = sample_block()
    rng = random.Random(seed)
    for i in range(count):
        (path / f"{i // 100:02d}").mkdir(exist_ok=True)
        (path / f"{i // 100:02d}" / f"g{i:05d}.py").write_text(make_graph(params, body, rng))
    stamp.write_text(want)


def run(cli, target, jobs, json_out):
    cmd = [cli, "match", str(target), "--patterns", "builtin", "--jobs", str(jobs)] + (["--json"] if json_out else [])
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - start
    return p, wall


def measure(cli, target, jobs, repeat, json_out):
    walls, last = [], None
    for _ in range(repeat):
        p, wall = run(cli, target, jobs, json_out)
        walls.append(wall)
        last = p
    doc = json.loads(last.stdout) if json_out else None
    m = re.search(r"(\d+) graphs from (\d+) files \((\d+) skipped\): (\d+) ok, (\d+) failed", last.stdout)
    graphs = doc["summary"]["graphs"] if doc else int(m.group(1))
    failed = doc["summary"]["failed"] if doc else int(m.group(5))
    med = statistics.median(walls)
    return {"jobs": jobs, "json": json_out, "graphs": graphs, "failed": failed, "exit": last.returncode,
            "wall_s": walls, "median_s": med, "graphs_per_s": graphs / med}, doc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=str(ROOT / "build" / "bin" / "fxscope-cli"))
    ap.add_argument("--corpus", default=str(ROOT / "tests" / "data" / "corpus"))
    ap.add_argument("--zoo", default="/tmp/fxscope-batch-zoo")
    ap.add_argument("--zoo-size", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "batch.json"))
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    out = {"cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg(), "corpus": [], "zoo": []}

    docs = {}
    for j in jobs:
        for json_out in (False, True):
            r, doc = measure(args.cli, args.corpus, j, args.repeat, json_out)
            out["corpus"].append(r)
            if doc:
                docs[j] = without_timings(doc)
    out["corpus_jobs_agree"] = all(d == docs[jobs[0]] for d in docs.values())

    t = time.perf_counter()
    make_zoo(Path(args.zoo), args.zoo_size, args.seed)
    out["zoo_generate_s"] = time.perf_counter() - t
    sizes = [len(p.read_text().splitlines()) for p in sorted(Path(args.zoo).rglob("*.py"))[:50]]
    out["zoo_sample_lines"] = statistics.median(sizes)
    for j in jobs:
        r, _ = measure(args.cli, args.zoo, j, args.repeat, False)
        out["zoo"].append(r)
    p, wall = run(args.cli, sorted(Path(args.zoo).rglob("*.py"))[0], 1, True)
    out["zoo_graph_nodes"] = json.loads(p.stdout)["graph_nodes"]
    out["load_after"] = os.getloadavg()

    print(f"{'input':<8} {'jobs':>4} {'json':>5} {'graphs':>6} {'failed':>6} {'exit':>4} {'median s':>9} {'graphs/s':>9}")
    for name in ("corpus", "zoo"):
        for r in out[name]:
            print(f"{name:<8} {r['jobs']:>4} {str(r['json']):>5} {r['graphs']:>6} {r['failed']:>6} {r['exit']:>4} "
                  f"{r['median_s']:>9.2f} {r['graphs_per_s']:>9.1f}")
    print(f"corpus rows identical across --jobs {args.jobs}: {out['corpus_jobs_agree']}; zoo graphs of "
          f"{out['zoo_graph_nodes']} nodes (first), generated in {out['zoo_generate_s']:.1f} s")
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
