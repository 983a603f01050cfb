#!/usr/bin/env python3
"""Executor overhead benchmark: fxscope's LibTorch executor against torch.fx.Interpreter and GraphModule.

Graphs are chains of aten ops (add.Tensor, mul.Tensor, relu, sub.Tensor, neg) on a 4-element float32 tensor, of
1k, 3k, 10k, 30k and 100k nodes (placeholder and output included), so kernels take next to nothing and the time
per node is the executor's own overhead: argument conversion, dispatch, freeing intermediates. Each graph is
written as print_readable code for fxscope and built as the same torch.fx.Graph for PyTorch (the same aten
overloads, the same LibTorch kernels underneath: Debian's python3-torch 1.13).

  fxscope      bench_exec GRAPH: runtimeProfile without per-node timing (the executor's run loop), median of N
               runs, in its own process; loading and operator resolution are outside the timing
  Interpreter  torch.fx.Interpreter(gm).run(x), median of N runs, under torch.inference_mode() as fxscope runs
  GraphModule  gm(x) (generated Python code), median of N runs, under torch.inference_mode()

Prints a table and writes bench/results/exec.json. Targets: <= 2 us per node, >= 6x below GraphModule.
Usage: /usr/bin/python3 bench/exec/run.py [--bench build/bin/bench_exec] [--sizes 1000,...] [--repeat N]
"""

import argparse
import json
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import torch
import torch.fx

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SIZES = [1000, 3000, 10000, 30000, 100000]
OPS = [
    ("add.Tensor", lambda prev: (prev, "x")),
    ("mul.Tensor", lambda prev: (prev, 0.5)),
    ("relu.default", lambda prev: (prev,)),
    ("sub.Tensor", lambda prev: (prev, "x")),
    ("neg.default", lambda prev: (prev,)),
]


def chain(nodes):
    """The (name, overload, args) of each call node; args name earlier values or are literals."""
    calls = []
    prev = "x"
    for i in range(nodes - 2):
        overload, make = OPS[i % len(OPS)]
        name = f"v{i}"
        calls.append((name, overload, make(prev)))
        prev = name
    return calls


def readable(calls):
    lines = ["class GraphModule(torch.nn.Module):", '    def forward(self, x: "f32[4][1]cpu"):']
    for name, overload, args in calls:
        text = ", ".join(a if isinstance(a, str) else repr(a) for a in args)
        lines.append(f'        {name}: "f32[4][1]cpu" = torch.ops.aten.{overload}({text})')
    lines.append(f"        return ({calls[-1][0]},)")
    return "\n".join(lines) + "\n"


def graph_module(calls):
    g = torch.fx.Graph()
    env = {"x": g.placeholder("x")}
    for name, overload, args in calls:
        op, ov = overload.split(".")
        target = getattr(getattr(torch.ops.aten, op), ov)
        env[name] = g.call_function(target, tuple(env[a] if isinstance(a, str) else a for a in args))
    g.output((env[calls[-1][0]],))
    return torch.fx.GraphModule(torch.nn.Module(), g)


def median_seconds(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_exec"))
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    x = torch.randn(4)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            calls = chain(n)
            path = Path(tmp) / f"chain_{n}.py"
            path.write_text(readable(calls))
            out = subprocess.run([args.bench, str(path), "--iters", str(args.repeat), "--warmup", "1"],
                                 capture_output=True, text=True, check=True)
            ours = json.loads(out.stdout.strip().splitlines()[-1])
            gm = graph_module(calls)
            with torch.inference_mode():
                interp = median_seconds(lambda: torch.fx.Interpreter(gm).run(x), args.repeat)
                module = median_seconds(lambda: gm(x), args.repeat)
            fx_us = ours["median_ms"] * 1000 / n
            rows.append({"nodes": n, "fxscope_us_per_node": fx_us,
                         "interpreter_us_per_node": interp * 1e6 / n, "graphmodule_us_per_node": module * 1e6 / n,
                         "fxscope_ms": ours["median_ms"], "interpreter_ms": interp * 1000, "graphmodule_ms": module * 1000,
                         "ratio_vs_graphmodule": module * 1e6 / n / fx_us,
                         "ratio_vs_interpreter": interp * 1e6 / n / fx_us})
            r = rows[-1]
            print(f"{n:>7} nodes  fxscope {r['fxscope_us_per_node']:6.2f} us/node  Interpreter "
                  f"{r['interpreter_us_per_node']:6.2f}  GraphModule {r['graphmodule_us_per_node']:6.2f}  "
                  f"x{r['ratio_vs_graphmodule']:.2f} vs GraphModule  x{r['ratio_vs_interpreter']:.2f} vs Interpreter",
                  flush=True)
    result = {"benchmark": "exec", "torch": torch.__version__, "machine": platform.machine(),
              "cpu_count": __import__("os").cpu_count(), "repeat": args.repeat, "rows": rows,
              "targets": {"us_per_node": 2.0, "ratio_vs_graphmodule": 6.0}}
    out = ROOT / "bench" / "results" / "exec.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
