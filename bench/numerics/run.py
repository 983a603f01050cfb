#!/usr/bin/env python3
"""Numerics per match (issue 25): `fxscope-cli match DIR --patterns SOURCES --check-numerics` over the corpus
(tests/data/corpus) with the bundled patterns, against the same batch without the check. Reports how many accepted
candidates were checked, how many are equal and how many differ (and why), the check's cost per candidate, and the
whole check as a ratio of `match`. The reference is fxscope's own match (there is no PyTorch tool that checks a
fusion's numbers per match: a user would run the whole graph before and after).

    .venv/bin/python bench/numerics/run.py --cli build/bin/fxscope-cli [--out bench/results/numerics.json]
"""
import argparse
import json
import os
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(REPO, "tests", "data", "corpus")
SOURCES = {
    "builtin": ["builtin"],
    "resources/patterns": [os.path.join(REPO, "resources", "patterns", f) for f in
                           ("add_rms_norm.py", "addmm.py", "gelu_tanh.py", "rms_norm.py", "rotary_mul.py", "swiglu.py")],
}


def batch(cli, sources, numerics):
    cmd = [cli, "match", CORPUS, "--patterns", *sources, "--json", "--jobs", "1"]
    if numerics:
        cmd.append("--check-numerics")
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    doc = json.loads(p.stdout)
    return doc, wall, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "results", "numerics.json"))
    args = ap.parse_args()
    rows = []
    for label, sources in SOURCES.items():
        plain, plain_wall, _ = batch(args.cli, sources, False)
        checked, checked_wall, rc = batch(args.cli, sources, True)
        per = []  # (graph, pattern, anchor, numerics)
        for g in checked["graphs"]:
            for p in (g.get("report") or {}).get("patterns", []):
                for c in p["candidates"]:
                    if "numerics" in c:
                        per.append((os.path.relpath(g["path"], CORPUS), p["name"], c["anchor"], c["numerics"]))
        ran = [n for *_, n in per if n["ran"]]
        check_ms = sum(n["ms"] for *_, n in per)
        match_ms = sum(g.get("ms", 0) for g in plain["graphs"])
        row = {"sources": label, "graphs": plain["summary"]["graphs"], "accepted": plain["summary"]["accepted"],
               "checked": len(per), "ran": len(ran), "equal": sum(n["equal"] for n in ran),
               "differ": [dict(graph=g, pattern=p, anchor=a, detail=n.get("detail")) for g, p, a, n in per
                          if n["ran"] and not n["equal"]],
               "not_run": [dict(graph=g, pattern=p, anchor=a, error=n.get("error")) for g, p, a, n in per
                           if not n["ran"]],
               "exit": rc, "match_ms": match_ms, "check_ms": check_ms,
               "per_candidate_ms": check_ms / len(per) if per else None,
               "check_over_match": check_ms / match_ms if match_ms else None,
               "wall_s": {"match": plain_wall, "match_check_numerics": checked_wall}}
        rows.append(row)
        print(f"{label:<20} {row['graphs']:>4} graphs {row['accepted']:>5} accepted {row['checked']:>5} checked "
              f"{row['equal']:>5} equal {len(row['differ']):>3} differ {len(row['not_run']):>3} not run  "
              f"{row['per_candidate_ms'] or 0:8.1f} ms/candidate  check/match {row['check_over_match'] or 0:6.1f}x  "
              f"wall {plain_wall:6.1f} s -> {checked_wall:6.1f} s", flush=True)
        for d in row["differ"] + row["not_run"]:
            print(f"    {d}")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
