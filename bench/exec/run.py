#!/usr/bin/env python3
"""Executor overhead benchmark: fxscope's LibTorch executor against torch.fx.Interpreter and GraphModule.

Graphs are chains of aten ops (add.Tensor, mul.Tensor, relu, sub.Tensor, neg) on a 4-element float32 tensor, of
1k, 3k, 10k, 30k and 100k nodes (placeholder and output included), so kernels take next to nothing and the time
per node is the executor's own overhead: argument conversion, dispatch, freeing intermediates. Each graph is
written as print_readable code for fxscope and built as the same torch.fx.Graph for PyTorch (the same aten
overloads, the same LibTorch kernels underneath: the project's torch, build/fxscope-python, the .venv with torch
2.13.0, whose LibTorch fxscope's runtime links; torch >= 2.1 required).

  fxscope      bench_exec GRAPH: runtimeProfile without per-node timing (the executor's run loop), median of N
               runs, in its own process; loading and operator resolution are outside the timing
  Interpreter  torch.fx.Interpreter(gm).run(x), median of N runs, under torch.inference_mode() as fxscope runs
  GraphModule  gm(x) (generated Python code), median of N runs, under torch.inference_mode()

With --corpus, also the print_readable dumps of the corpus (tests/data/corpus/readable) whose inputs are tiny: those with symbolic dims
(every symbol set to 2) and static ones of at most 4096 elements per input, as the issue asks (static dumps with
large tensors cannot be shrunk: their views carry the real shapes). PyTorch's side is the dump's forward itself,
exec'd with real torch (the code a GraphModule generates), on inputs made from the placeholders' annotations.
Dumps either side cannot run are listed with the reason.

The time per node includes LibTorch's own cost of each call (dispatch, TensorIterator, the kernel): bench_exec_floor
(kernel_floor.cpp) measures the very calls each side makes straight from C++, and the table subtracts them to
show each side's own overhead.

Prints a table and writes bench/results/exec.json. Targets: <= 2 us per node, >= 6x below GraphModule.
Usage: bench/exec/run.py [--bench build/bin/bench_exec] [--floor bench_exec_floor] [--sizes 1000,...] [--repeat N]
       [--corpus DIR] [--python PY]
The script runs itself on the torch Python (--python, else the build's fxscope-python beside --bench's bin/, else
the running interpreter): the driver times the PyTorch side in-process.
"""

import argparse
import ast
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import machine, run_json, slope, torch_python  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _reexec_on_torch_python():
    """The PyTorch side runs in this process: run the script on the torch Python when this one is another."""
    argv = sys.argv[1:]

    def opt(name, default=None):
        return argv[argv.index(name) + 1] if name in argv and argv.index(name) + 1 < len(argv) else default
    bench = opt("--bench", str(ROOT / "build" / "bin" / "bench_exec"))
    py = torch_python(opt("--python"), Path(bench).resolve().parent.parent)
    if os.path.abspath(py) != os.path.abspath(sys.executable):
        os.execv(py, [py, os.path.abspath(__file__), *argv])


if __name__ == "__main__":
    _reexec_on_torch_python()

import torch  # noqa: E402
import torch.fx  # noqa: E402

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

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
          "i64": torch.int64, "i32": torch.int32, "b8": torch.bool, "u8": torch.uint8}
TINY_ELEMENTS = 4096
SYMBOL_VALUE = 2


def annotation_inputs(path):
    """The forward's inputs from its annotations ("f32[s0, 4][4, 1]cpu", "Sym(s0)"), symbols set to 2, and the
    symbols seen; raises ValueError with the reason when a dump does not qualify."""
    tree = ast.parse(Path(path).read_text())
    forward = next((f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
    if forward is None:
        raise ValueError("no forward")
    symbols = set()
    specs = []
    for a in forward.args.args[1:]:
        text = a.annotation.value if isinstance(a.annotation, ast.Constant) else \
            ast.unparse(a.annotation) if a.annotation is not None else None
        if not isinstance(text, str):
            raise ValueError(f"input {a.arg} has no annotation")
        dims = text[4:-1] if text.startswith("Sym(") else text.split("[", 1)[1].split("]")[0] if "[" in text else ""
        symbols.update(re.findall(r"\b[a-z]\d+\b", dims))
        specs.append(text)
    env = {s: SYMBOL_VALUE for s in symbols}
    inputs = []
    for text in specs:
        if text.startswith("Sym("):
            inputs.append(int(eval(text[4:-1], {}, env)))
            continue
        m = re.match(r"(\w+)\[([^\]]*)\]", text)
        if not m or m.group(1) not in DTYPES:
            raise ValueError(f"annotation {text!r}")
        shape = [int(eval(d, {}, env)) for d in m.group(2).split(",") if d.strip()]
        n = 1
        for d in shape:
            n *= d
        if not symbols and n > TINY_ELEMENTS:
            raise ValueError(f"static input of {n} elements (not tiny)")
        dtype = DTYPES[m.group(1)]
        inputs.append(torch.randn(shape).to(dtype) if dtype.is_floating_point else torch.randint(0, 2, shape).to(dtype))
    return inputs, sorted(symbols)


def corpus_rows(bench, corpus, repeat):
    rows, skipped = [], []
    for path in sorted(Path(corpus).glob("*.py")):
        try:
            inputs, symbols = annotation_inputs(path)
        except Exception as e:
            skipped.append({"graph": path.name, "side": "pytorch", "reason": f"{type(e).__name__}: {e}"[:160]})
            continue
        cmd = [bench, str(path), "--iters", str(repeat), "--warmup", "1"]
        for sym in symbols:
            cmd += ["--sym", f"{sym}={SYMBOL_VALUE}"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            skipped.append({"graph": path.name, "side": "fxscope", "reason": out.stderr.strip().splitlines()[-1][:160]})
            continue
        try:
            ns = {"torch": torch, "device": torch.device, "inf": float("inf"), "nan": float("nan")}
            exec(compile(path.read_text(), str(path), "exec"), ns)
            owner = next((c.name for c in ast.parse(path.read_text()).body if isinstance(c, ast.ClassDef)), None)
            forward = ns[owner]().forward if owner else lambda *a: ns["forward"](None, *a)
            with torch.inference_mode():
                forward(*inputs)
                theirs = median_seconds(lambda: forward(*inputs), repeat)
        except Exception as e:  # a dump this torch cannot run as code (nested modules, devices): listed, not timed
            skipped.append({"graph": path.name, "side": "pytorch", "reason": f"{type(e).__name__}: {e}"[:160]})
            continue
        ours = json.loads(out.stdout.strip().splitlines()[-1])
        n = ours["nodes"]
        rows.append({"graph": path.name, "nodes": n, "symbols": symbols, "fxscope_us_per_node": ours["us_per_node"],
                     "graphmodule_us_per_node": theirs * 1e6 / n,
                     "ratio_vs_graphmodule": theirs * 1e6 / n / ours["us_per_node"]})
        r = rows[-1]
        print(f"{n:>7} nodes  fxscope {r['fxscope_us_per_node']:6.2f} us/node  forward {r['graphmodule_us_per_node']:6.2f}"
              f"  x{r['ratio_vs_graphmodule']:.2f}  {path.name}", flush=True)
    return rows, skipped


def floor_binary(bench, given=None):
    """--floor, else bench_exec_floor beside bench_exec, built on demand in that build (it is left out of the
    default build: torch headers)."""
    if given:
        return Path(given)
    floor = bench.parent / "bench_exec_floor"
    if not floor.exists():
        build_dir = bench.parent.parent
        print(f"building {floor.name} in {build_dir} ...", flush=True)
        if subprocess.run(["cmake", "--build", str(build_dir), "--target", "bench_exec_floor"]).returncode != 0:
            print("  could not build it: LibTorch's own cost of the calls is left out")
            return None
    return floor


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_exec"))
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--corpus", help="also the tiny corpus dumps of this folder (print_readable code)")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip LibTorch's own cost of the calls (bench_exec_floor, built here on demand)")
    parser.add_argument("--floor", help="a built bench_exec_floor (default: beside --bench, built there if missing)")
    parser.add_argument("--python", help="interpreter with torch >= 2.1 (default: the build's fxscope-python)")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "exec.json"))
    args = parser.parse_args()
    load_before = os.getloadavg()
    floor = None if args.no_floor else floor_binary(Path(args.bench), args.floor)
    sizes = [int(s) for s in args.sizes.split(",")]
    x = torch.randn(4)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            calls = chain(n)
            path = Path(tmp) / f"chain_{n}.py"
            path.write_text(readable(calls))
            ours = run_json([args.bench, str(path), "--iters", str(args.repeat), "--warmup", "1"], None)
            gm = graph_module(calls)
            with torch.inference_mode():
                interp = median_seconds(lambda: torch.fx.Interpreter(gm).run(x), args.repeat)
                module = median_seconds(lambda: gm(x), args.repeat)
            fx_us = ours["median_ms"] * 1000 / n
            calls = {}
            if floor:
                calls = run_json([str(floor), str(n), str(args.repeat)], None)
            rows.append({"nodes": n, "fxscope_us_per_node": fx_us,
                         "interpreter_us_per_node": interp * 1e6 / n, "graphmodule_us_per_node": module * 1e6 / n,
                         "fxscope_ms": ours["median_ms"], "interpreter_ms": interp * 1000, "graphmodule_ms": module * 1000,
                         "ratio_vs_graphmodule": module * 1e6 / n / fx_us,
                         "ratio_vs_interpreter": interp * 1e6 / n / fx_us})
            r = rows[-1]
            if calls:
                # Each side's own overhead: its time per node less LibTorch's cost of the very calls it makes.
                r["fxscope_calls_us_per_node"] = calls["fxscope_calls_us_per_node"]
                r["graphmodule_calls_us_per_node"] = calls["graphmodule_calls_us_per_node"]
                r["fxscope_overhead_us_per_node"] = fx_us - calls["fxscope_calls_us_per_node"]
                r["graphmodule_overhead_us_per_node"] = module * 1e6 / n - calls["graphmodule_calls_us_per_node"]
                r["overhead_ratio_vs_graphmodule"] = r["graphmodule_overhead_us_per_node"] / max(
                    r["fxscope_overhead_us_per_node"], 1e-3)
            print(f"{n:>7} nodes  fxscope {r['fxscope_us_per_node']:6.2f} us/node  Interpreter "
                  f"{r['interpreter_us_per_node']:6.2f}  GraphModule {r['graphmodule_us_per_node']:6.2f}  "
                  f"x{r['ratio_vs_graphmodule']:.2f} vs GraphModule  x{r['ratio_vs_interpreter']:.2f} vs Interpreter",
                  flush=True)
            if calls:
                print(f"         LibTorch calls: fxscope's {r['fxscope_calls_us_per_node']:.3f}, GraphModule's "
                      f"{r['graphmodule_calls_us_per_node']:.3f} us/node; overhead: fxscope "
                      f"{r['fxscope_overhead_us_per_node']:.3f}, GraphModule {r['graphmodule_overhead_us_per_node']:.3f}"
                      f" us/node (x{r['overhead_ratio_vs_graphmodule']:.1f})", flush=True)
    exponents = {side: slope([(r["nodes"], r[f"{side}_ms"]) for r in rows])
                 for side in ("fxscope", "graphmodule", "interpreter")}
    print("growth exponents of the whole-graph time (log-log slope over the sizes): "
          + ", ".join(f"{k} {v:.2f}" for k, v in exponents.items() if v is not None))
    result = {"benchmark": "exec", "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "torch": torch.__version__,
              "python_torch": sys.executable, "machine": machine() | {"load_before": load_before},
              "bench": args.bench, "floor": str(floor) if floor else None, "repeat": args.repeat, "rows": rows,
              "growth_exponents": exponents, "targets": {"us_per_node": 2.0, "ratio_vs_graphmodule": 6.0}}
    if args.corpus:
        result["corpus"], result["corpus_skipped"] = corpus_rows(args.bench, args.corpus, args.repeat)
        for s in result["corpus_skipped"]:
            print(f"  skipped {s['graph']} ({s['side']}): {s['reason']}")
    result["machine"]["load_after"] = os.getloadavg()
    out = Path(args.output)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
