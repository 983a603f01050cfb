#!/usr/bin/env python3
"""Runtime coverage of the corpus (tests/data/corpus): which graphs fxscope's executor runs end to end on CPU.

Every graph of every corpus file (`fxscope-cli info --json` lists them; a TORCH_TRACE log holds several) is run
once with generated inputs: `fxscope-cli profile FILE --graph INDEX --iters 1 --warmup 0`. A graph with symbolic
dims is retried with `--sym NAME=2` for each symbol the CLI reports as missing (as bench/exec/run.py sets every
symbol to 2). Each graph is then "ran" or "failed" with the node it stopped at and the reason.

Prints a table, a summary by reason, and writes bench/results/corpus_coverage.json.
Usage: python3 bench/exec/corpus_coverage.py [--cli build/bin/fxscope-cli] [--corpus tests/data/corpus]
       [--timeout SECONDS] [--filter SUBSTRING]
"""

import argparse
import collections
import json
import re
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYMBOL_VALUE = 2
# "symbol s0 has no value (give one with --sym s0=N)", "symbols s0, s1 have no value (give them with --sym s0=N
# --sym s1=N)": every missing symbol is named at once, each in its --sym flag.
MISSING_SYMBOLS = re.compile(r"ha(?:s|ve) no value \(give (?:one|them) with ([^)]*)\)")
SYMBOL_FLAG = re.compile(r"--sym (\w+)=N")
# "FILE:LINE:COL: unfused graph: node 'NAME' (TARGET): REASON" -> the node, its target and the reason.
FAILED_NODE = re.compile(r"node '([^']*)' \(([^)]*)\): (.*)")


def corpus_files(corpus):
    # summary.json: what torch reported about tests/data/torch2; MANIFEST.json: bench/exec/make_old_zoo.py's index
    skipped = ("README.md", "SOURCES.md", "summary.json", "MANIFEST.json")
    return sorted(p for p in Path(corpus).rglob("*") if p.is_file() and p.name not in skipped)


def graphs_of(cli, path):
    out = subprocess.run([cli, "info", str(path), "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, (out.stderr.strip().splitlines() or ["no output"])[-1]
    return json.loads(out.stdout)["graphs"], None


def reason_class(reason):
    """A short class for the summary: the missing op or the kind of failure, without node-specific values."""
    reason = re.sub(r"^.*?:\d+:\d+: ", "", reason).replace("unfused graph: ", "")
    reason = re.sub(r"^node '[^']*' \([^)]*\): ", "", reason)
    m = re.search(r"unsupported op: (\S+) is not registered", reason)
    if m:
        return "op not in LibTorch: " + m.group(1)
    m = re.search(r"unsupported (method|op): [^:]*?('[^']+'|for \S+|aten::\w+)", reason)
    if m:
        return "unsupported " + m.group(1) + " " + m.group(2)
    if "call_module" in reason:
        return "call_module without its graph"
    if "no tensor meta" in reason:
        return "input without tensor meta (needs --inputs)"
    return reason[:90]


def run_graph(cli, path, index, timeout):
    symbols = {}
    while True:
        cmd = [cli, "profile", str(path), "--graph", str(index), "--iters", "1", "--warmup", "0", "--json"]
        for name, value in symbols.items():
            cmd += ["--sym", f"{name}={value}"]
        start = time.perf_counter()
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": "failed", "reason": f"timed out after {timeout} s", "symbols": symbols}
        seconds = time.perf_counter() - start
        err = out.stderr.strip().splitlines()
        last = err[-1] if err else ""
        missing = MISSING_SYMBOLS.search(last)
        new = [name for name in SYMBOL_FLAG.findall(missing.group(1)) if name not in symbols] if missing else []
        if out.returncode != 0 and new:
            symbols.update((name, SYMBOL_VALUE) for name in new)
            continue
        row = {"symbols": symbols, "seconds": round(seconds, 3), "exit": out.returncode}
        if out.returncode == 0:
            report = json.loads(out.stdout)
            row.update(status="ran", median_ms=report["unfused"]["median_ms"])
            return row
        row.update(status="failed", reason=last)
        m = FAILED_NODE.search(last)
        if m:
            row.update(node=m.group(1), target=m.group(2))
        return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=str(ROOT / "build" / "bin" / "fxscope-cli"))
    parser.add_argument("--corpus", default=str(ROOT / "tests" / "data" / "corpus"))
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--filter", default="", help="only files whose name contains this")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "corpus_coverage.json"))
    args = parser.parse_args()
    rows = []
    for path in corpus_files(args.corpus):
        if args.filter not in path.name:
            continue
        graphs, error = graphs_of(args.cli, path)
        if graphs is None:
            rows.append({"file": str(path.relative_to(args.corpus)), "graph": "", "status": "unreadable",
                         "reason": error})
            print(f"unreadable  {path.name}: {error}", flush=True)
            continue
        for index, g in enumerate(graphs):
            row = {"file": str(path.relative_to(args.corpus)), "graph": g["name"], "index": index,
                   "nodes": g["nodes"]}
            row.update(run_graph(args.cli, path, index, args.timeout))
            rows.append(row)
            sym = " ".join(f"--sym {k}={v}" for k, v in row.get("symbols", {}).items())
            where = f"{path.name} [{index}] {g['name']}"
            if row["status"] == "ran":
                print(f"ran     {g['nodes']:>6} nodes {row['seconds']:7.2f} s  {where} {sym}", flush=True)
            else:
                print(f"FAILED  {g['nodes']:>6} nodes  {where} {sym}\n          {row['reason'][:300]}", flush=True)
    ran = [r for r in rows if r["status"] == "ran"]
    failed = [r for r in rows if r["status"] != "ran"]
    classes = collections.Counter(reason_class(r.get("reason", "")) for r in failed)
    print(f"\n{len(ran)} of {len(rows)} graphs ran end to end "
          f"({sum(1 for r in ran if r.get('symbols'))} with --sym); {len(failed)} failed:")
    for reason, count in classes.most_common():
        print(f"  {count:>3}  {reason}")
    Path(args.out).write_text(json.dumps({"benchmark": "corpus_coverage", "graphs": len(rows), "ran": len(ran),
                                          "failed": len(failed), "by_reason": dict(classes.most_common()),
                                          "rows": rows}, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
