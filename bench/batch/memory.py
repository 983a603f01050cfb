#!/usr/bin/env python3
"""Batch output in bounded memory (issue 23, item 1): peak RSS and throughput of `fxscope-cli match|apply ZOO
--patterns builtin --jobs N` with each output (the table, --json, --jsonl, --json --summary) over the synthetic zoo
of run.py (5,000 graphs of ~1k nodes, generated into --zoo, not committed), and over its first 100/1,000 graphs,
so the growth per graph shows. Each run's output goes to a file under --scratch; the driver then checks it:
--json is one valid document read row by row (the document itself can be gigabytes), --jsonl one object per
graph then a totals line, and every output has one row per graph in path order. Peak RSS is GNU time's %M
(/usr/bin/time, Debian: time), not os.wait4's: Linux starts a child's peak at the memory of the process it is forked
from, and this driver's grows. Writes bench/results/batch_memory.json."""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, make_zoo  # noqa: E402  (the zoo is run.py's)


def run_measured(cmd, out_path):
    """Runs cmd with stdout to out_path; (exit code, peak RSS in MiB, wall seconds)."""
    rss_path = str(out_path) + ".rss"
    start = time.perf_counter()
    with open(out_path, "wb") as out:
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_path] + cmd, stdout=out, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peak_kib = int(Path(rss_path).read_text().split()[-1])  # after "Command exited with non-zero status N"
    os.unlink(rss_path)
    return p.returncode, peak_kib / 1024, wall


def check_document(path, expected_paths):
    """The --json document, read line by line: each graph's object parses on its own, and the document with the
    objects replaced by {} parses too (so the whole is valid JSON); the rows' paths are the zoo's, in order."""
    skeleton, row, paths = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if row is None and line.startswith("  {"):
                row = [line]
                continue
            if row is not None:
                row.append(line)
                if line.startswith("  }"):
                    text = "".join(row).rstrip()
                    comma = text.endswith(",")
                    obj = json.loads(text.rstrip(","))
                    paths.append(obj["path"])
                    skeleton.append("{}" + ("," if comma else "") + "\n")
                    row = None
                continue
            skeleton.append(line)
    doc = json.loads("".join(skeleton))
    if list(doc) != ["graphs", "skipped", "summary"] or len(doc["graphs"]) != len(paths):
        raise ValueError(f"document keys {list(doc)}, {len(doc['graphs'])} graphs for {len(paths)} rows")
    if paths != expected_paths:
        raise ValueError("rows out of order or missing")
    return doc["summary"]


def check_lines(path, expected_paths):
    paths, last = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            if "summary" in obj:
                last = obj
            else:
                if last is not None:
                    raise ValueError("a row after the totals line")
                paths.append(obj["path"])
    if last is None or paths != expected_paths:
        raise ValueError("no totals line, or rows out of order or missing")
    return last["summary"]


def check_table(path, count):
    lines = Path(path).read_text().splitlines()
    rows = sum(1 for l in lines if l.startswith("ok ") or l.startswith("error "))
    if rows != count:
        raise ValueError(f"{rows} table rows for {count} graphs")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=str(ROOT / "build" / "bin" / "fxscope-cli"))
    ap.add_argument("--zoo", default="/tmp/fxscope-batch-zoo")
    ap.add_argument("--zoo-size", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--counts", default="100,1000,5000",
                    help="graph counts for --json (the first N of the zoo, in path order); the other outputs run the last")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--outputs", default="json,jsonl,summary,table")
    ap.add_argument("--commands", default="match,apply")
    ap.add_argument("--scratch", default="/tmp/fxscope-batch-memory")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "batch_memory.json"))
    args = ap.parse_args()

    t = time.perf_counter()
    make_zoo(Path(args.zoo), args.zoo_size, args.seed)
    generate_s = time.perf_counter() - t
    files = sorted(str(p) for p in Path(args.zoo).rglob("*.py"))
    scratch = Path(args.scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    flags = {"json": ["--json"], "jsonl": ["--jsonl"], "summary": ["--json", "--summary"], "table": []}
    result = {"cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg(), "zoo": args.zoo,
              "zoo_generate_s": generate_s, "jobs": args.jobs, "runs": []}
    print(f"{'command':<7} {'output':<8} {'graphs':>6} {'exit':>4} {'peak MiB':>9} {'wall s':>7} {'graphs/s':>8} "
          f"{'output MB':>9}  check")
    for command in args.commands.split(","):
        for output in args.outputs.split(","):
            counts = [int(c) for c in args.counts.split(",")]
            for count in counts if output == "json" else counts[-1:]:
                inputs = files[:count]
                # The first N files: a directory of links to them, so the run walks a directory as users do.
                subset = scratch / f"zoo{count}"
                if not subset.exists() or len(list(subset.iterdir())) != count:
                    subset.mkdir(exist_ok=True)
                    for i, f in enumerate(inputs):
                        link = subset / f"{i:05d}_{Path(f).name}"
                        if not link.exists():
                            link.symlink_to(f)
                expected = sorted(str(subset / f"{i:05d}_{Path(f).name}") for i, f in enumerate(inputs))
                out_path = scratch / f"{command}_{output}_{count}.out"
                cmd = [args.cli, command, str(subset), "--patterns", "builtin", "--jobs", str(args.jobs)] \
                    + flags[output]
                code, peak, wall = run_measured(cmd, out_path)
                size = out_path.stat().st_size / 1e6
                try:
                    if output in ("json", "summary"):
                        check_document(out_path, expected)
                    elif output == "jsonl":
                        check_lines(out_path, expected)
                    else:
                        check_table(out_path, count)
                    check = "ok"
                except (ValueError, KeyError, json.JSONDecodeError) as e:
                    check = f"FAILED: {e}"
                out_path.unlink()
                r = {"command": command, "output": output, "graphs": count, "exit": code, "peak_rss_mib": peak,
                     "wall_s": wall, "graphs_per_s": count / wall, "output_mb": size, "check": check}
                result["runs"].append(r)
                print(f"{command:<7} {output:<8} {count:>6} {code:>4} {peak:>9.0f} {wall:>7.1f} {count / wall:>8.1f} "
                      f"{size:>9.1f}  {check}", flush=True)
    result["load_after"] = os.getloadavg()
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0 if all(r["check"] == "ok" and r["exit"] == 0 for r in result["runs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
