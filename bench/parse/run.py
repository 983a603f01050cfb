#!/usr/bin/env python3
"""Parse benchmark: fxscope's loader against PyTorch's own way of turning a graph dump into a torch.fx.Graph.

For synthetic transformer-like aten graphs of 1k..100k nodes (print_readable form and print(gm.graph) form) and
for the ~23k-node HRNet joint graph of the corpus, this measures, each side in its own process per file:

  fxscope     bench_parse FILE: fxs::loadGraphFile (read, sniff, parse, build the Graph with its meta)
  PyTorch     exec the readable code into an nn.Module and trace it as torch.fx.symbolic_trace does: timed up to
              the torch.fx.Graph (the same job as fxscope's), and up to the GraphModule that symbolic_trace also
              builds and compiles
  ast.parse / compile   Python's own parser alone on the same file (to an AST / to bytecode)

checks that both sides built graphs of the same node count, and prints a table (median seconds, ratios, peak RSS,
log-log growth exponents), also written as JSON to bench/results/parse.json. PyTorch has no reader for
print(gm.graph) text, so that form is timed for fxscope only. The PyTorch side runs on the project's torch Python
(build/fxscope-python: the .venv with torch 2.13.0; torch >= 2.1 required); everything else is standard library.

Usage: run.py [--cli fxscope-cli] [--bench bench_parse] [--sizes 1000,3000,...] [--repeat N] [--quick]
"""

import argparse
import ast
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DumpTracer, fmt, machine, peak_rss_mb, run_json, slope, torch_python  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SIZES = [1000, 3000, 10000, 30000, 100000]
QUICK_SIZES = [1000, 10000]
HRNET_NAME = "learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py"
HRNET_TARGET_S = 0.3


# ----------------------------------------------------------------------------------------------------------------
# Synthetic graphs
# ----------------------------------------------------------------------------------------------------------------

class Ref:
    """A use of another node in an argument."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class Raw:
    """A literal printed verbatim in both forms (torch.float32, torch.contiguous_format)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


DTYPE_SHORT = {"float16": "f16", "float32": "f32"}


def contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return list(reversed(strides))


class GraphBuilder:
    """Builds a node list the way FX names nodes (mm, mm_1, ...) and writes it in both dump forms."""

    def __init__(self):
        self.nodes = []       # dicts: name, op, target, args, kwargs, comment
        self.counters = {}
        self.meta = {}        # name -> (dtype, shape, strides) for annotations

    def _name(self, base):
        n = self.counters.get(base, 0)
        self.counters[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def placeholder(self, name, dtype, shape):
        self.nodes.append(dict(name=name, op="placeholder", target=name, args=(), kwargs={}, comment=None))
        self.meta[name] = (dtype, list(shape), contiguous_strides(shape))
        return Ref(name)

    def call(self, target, args, kwargs=None, dtype=None, shape=None, strides=None, comment=None):
        """target: 'aten.mm.default' style (or 'getitem'); dtype/shape None for tuple-valued nodes."""
        base = target if target == "getitem" else target.split(".")[1]
        name = self._name(base)
        self.nodes.append(dict(name=name, op="call_function", target=target, args=tuple(args),
                               kwargs=kwargs or {}, comment=comment))
        if shape is not None:
            self.meta[name] = (dtype, list(shape), strides or contiguous_strides(shape))
        return Ref(name)

    def output(self, refs):
        self.nodes.append(dict(name="output", op="output", target="output", args=(tuple(refs),), kwargs={},
                               comment=None))

    def dtype_shape(self, ref):
        return self.meta[ref.name]

    # -- writers ---------------------------------------------------------------------------------------------

    def _annotation(self, name):
        dtype, shape, strides = self.meta[name]
        return (f'"{DTYPE_SHORT[dtype]}[{", ".join(map(str, shape))}]'
                f'[{", ".join(map(str, strides))}]cpu"')

    def _uses(self):
        """users per node (distinct, like node.users) and, per statement index, the names freed after it."""
        users = {n["name"]: set() for n in self.nodes}
        last_use = {}
        for i, n in enumerate(self.nodes):
            for r in _refs((n["args"], n["kwargs"])):
                users[r].add(n["name"])
                if n["op"] != "output":
                    last_use[r] = i
        freed = {}
        out_args = {r for r in _refs(self.nodes[-1]["args"])}
        for name, i in last_use.items():
            if name not in out_args:  # FX codegen never frees values the output returns
                freed.setdefault(i, []).append(name)
        return users, freed

    def readable(self):
        """gm.print_readable() of torch 2.x: quoted annotations with strides and device, '# File:' comments,
        ';  x = None' after a value's last use."""
        _, freed = self._uses()
        params = [n["name"] for n in self.nodes if n["op"] == "placeholder"]
        sig = ", ".join(f"{p}: {self._annotation(p)}" for p in params)
        lines = ["class GraphModule(torch.nn.Module):", f"    def forward(self, {sig}):"]
        for i, n in enumerate(self.nodes):
            if n["op"] == "placeholder":
                continue
            if n["op"] == "output":
                refs = ", ".join(_py(a) for a in n["args"][0])
                lines.append(f"        return ({refs},)")
                break
            if n["comment"]:
                lines.append("        ")
                lines.append(f"        # File: {n['comment']}")
            if n["target"] == "getitem":
                rhs = f"{n['args'][0].name}[{n['args'][1]}]"
            else:
                parts = [_py(a) for a in n["args"]] + [f"{k} = {_py(v)}" for k, v in n["kwargs"].items()]
                rhs = f"torch.ops.{n['target']}({', '.join(parts)})"
            ann = f": {self._annotation(n['name'])}" if n["name"] in self.meta else ""
            stmt = f"        {n['name']}{ann} = {rhs}"
            if i in freed:
                stmt += ";  " + " = ".join(freed[i]) + " = None"
            lines.append(stmt)
        lines.append("        ")
        return "\n".join(lines) + "\n"

    def fx_text(self):
        """print(gm.graph) of torch 2.x: '%name : [num_users=N] = op[target=...](args = (...), kwargs = {...})'."""
        users, _ = self._uses()
        lines = ["graph():"]
        for n in self.nodes:
            if n["op"] == "output":
                lines.append(f"    return ({', '.join(_py(a) for a in n['args'][0])},)")
                continue
            head = f"    %{n['name']} : [num_users={len(users[n['name']])}] = "
            if n["op"] == "placeholder":
                lines.append(f"{head}placeholder[target={n['name']}]")
                continue
            target = "operator.getitem" if n["target"] == "getitem" else f"torch.ops.{n['target']}"
            args = ", ".join(_fx(a) for a in n["args"])
            args = f"({args},)" if len(n["args"]) == 1 else f"({args})"
            kwargs = "{" + ", ".join(f"{k}: {_fx(v)}" for k, v in n["kwargs"].items()) + "}"
            lines.append(f"{head}call_function[target={target}](args = {args}, kwargs = {kwargs})")
        return "\n".join(lines) + "\n"


def _refs(value):
    if isinstance(value, Ref):
        yield value.name
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _refs(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _refs(v)


def _py(v):
    if isinstance(v, Ref):
        return v.name
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, list):
        return "[" + ", ".join(_py(x) for x in v) + "]"
    return repr(v)


def _fx(v):
    if isinstance(v, Ref):
        return "%" + v.name
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, list):
        return "[" + ", ".join(_fx(x) for x in v) + "]"
    return repr(v)


def build_transformer(total_nodes, hidden=4096, seq=128, heads=32, ffn=11008):
    """A decoder-only transformer forward in aten ops, exactly `total_nodes` nodes (placeholders and output
    included). The residual stream is a long chain through every layer; normalised activations fan out to
    q/k/v and gate/up; the attention mask placeholder fans out to every layer."""
    g = GraphBuilder()
    H, S, NH, D = hidden, seq, heads, hidden // heads
    src = "/home/user/models/llama/modeling.py"

    x = g.placeholder("arg0_1", "float16", [1, S, H])
    mask = g.placeholder("arg1_1", "float32", [1, 1, S, S])
    n_params = 2

    def param(shape):
        nonlocal n_params
        r = g.placeholder(f"arg{n_params}_1", "float16", shape)
        n_params += 1
        return r

    def rms_norm(x, weight, line, what):
        c = g.call("prims.convert_element_type.default", [x, Raw("torch.float32")], dtype="float32", shape=[1, S, H],
                   comment=f"{src}:{line} in forward, code: hidden_states = self.{what}(hidden_states)")
        vm = g.call("aten.var_mean.correction", [c, [2]], {"correction": 0, "keepdim": True})
        var = g.call("getitem", [vm, 0], dtype="float32", shape=[1, S, 1])
        mean = g.call("getitem", [vm, 1], dtype="float32", shape=[1, S, 1])
        eps = g.call("aten.add.Tensor", [var, 1e-05], dtype="float32", shape=[1, S, 1])
        rs = g.call("aten.rsqrt.default", [eps], dtype="float32", shape=[1, S, 1])
        sub = g.call("aten.sub.Tensor", [c, mean], dtype="float32", shape=[1, S, H])
        mul = g.call("aten.mul.Tensor", [sub, rs], dtype="float32", shape=[1, S, H])
        mul = g.call("aten.mul.Tensor", [mul, weight], dtype="float32", shape=[1, S, H])
        return g.call("prims.convert_element_type.default", [mul, Raw("torch.float16")], dtype="float16",
                      shape=[1, S, H])

    def linear(x2d, weight, out_features, comment=None):
        rows, cols = g.dtype_shape(weight)[1]
        t = g.call("aten.permute.default", [weight, [1, 0]], dtype="float16", shape=[cols, rows], strides=[1, cols],
                   comment=comment)
        return g.call("aten.mm.default", [x2d, t], dtype="float16", shape=[S, out_features])

    def contiguous_view(t, shape, view_shape):
        c = g.call("aten.clone.default", [t], {"memory_format": Raw("torch.contiguous_format")}, dtype="float16",
                   shape=shape)
        return g.call("aten.view.default", [c, view_shape], dtype="float16", shape=view_shape)

    def heads_view(t2d):
        v = g.call("aten.view.default", [t2d, [1, S, NH, D]], dtype="float16", shape=[1, S, NH, D])
        return g.call("aten.permute.default", [v, [0, 2, 1, 3]], dtype="float16", shape=[1, NH, S, D],
                      strides=[S * H, D, H, 1])

    layer = 0
    while True:
        before = len(g.nodes)
        ln1, wq, wk, wv, wo = param([H]), param([H, H]), param([H, H]), param([H, H]), param([H, H])
        ln2, wg, wu, wd = param([H]), param([ffn, H]), param([ffn, H]), param([H, ffn])
        base = 100 + layer * 40
        h = rms_norm(x, ln1, base, "input_layernorm")
        h2 = g.call("aten.view.default", [h, [S, H]], dtype="float16", shape=[S, H],
                    comment=f"{src}:{base + 5} in forward, code: q = self.q_proj(hidden_states)")
        q = heads_view(linear(h2, wq, H))
        k = heads_view(linear(h2, wk, H, f"{src}:{base + 6} in forward, code: k = self.k_proj(hidden_states)"))
        v = heads_view(linear(h2, wv, H, f"{src}:{base + 7} in forward, code: v = self.v_proj(hidden_states)"))
        kt = g.call("aten.permute.default", [k, [0, 1, 3, 2]], dtype="float16", shape=[1, NH, D, S],
                    strides=[S * H, D, 1, H],
                    comment=f"{src}:{base + 9} in forward, code: attn = q @ k.transpose(-1, -2) / math.sqrt(d)")
        q3 = contiguous_view(q, [1, NH, S, D], [NH, S, D])
        k3 = contiguous_view(kt, [1, NH, D, S], [NH, D, S])
        sc = g.call("aten.bmm.default", [q3, k3], dtype="float16", shape=[NH, S, S])
        sc = g.call("aten.view.default", [sc, [1, NH, S, S]], dtype="float16", shape=[1, NH, S, S])
        sc = g.call("aten.div.Tensor", [sc, 11.313708498984761], dtype="float16", shape=[1, NH, S, S])
        sc = g.call("prims.convert_element_type.default", [sc, Raw("torch.float32")], dtype="float32",
                    shape=[1, NH, S, S], comment=f"{src}:{base + 10} in forward, code: attn = attn + mask")
        sc = g.call("aten.add.Tensor", [sc, mask], dtype="float32", shape=[1, NH, S, S])
        p = g.call("aten._softmax.default", [sc, -1, False], dtype="float32", shape=[1, NH, S, S],
                   comment=f"{src}:{base + 11} in forward, code: attn = attn.softmax(dim=-1)")
        p = g.call("prims.convert_element_type.default", [p, Raw("torch.float16")], dtype="float16",
                   shape=[1, NH, S, S])
        p3 = g.call("aten.view.default", [p, [NH, S, S]], dtype="float16", shape=[NH, S, S],
                    comment=f"{src}:{base + 12} in forward, code: out = attn @ v")
        v3 = contiguous_view(v, [1, NH, S, D], [NH, S, D])
        o = g.call("aten.bmm.default", [p3, v3], dtype="float16", shape=[NH, S, D])
        o = g.call("aten.view.default", [o, [1, NH, S, D]], dtype="float16", shape=[1, NH, S, D])
        o = g.call("aten.permute.default", [o, [0, 2, 1, 3]], dtype="float16", shape=[1, S, NH, D],
                   strides=[S * H, D, S * D, 1],
                   comment=f"{src}:{base + 13} in forward, code: out = out.transpose(1, 2).reshape(b, s, -1)")
        o = contiguous_view(o, [1, S, NH, D], [S, H])
        o = linear(o, wo, H, comment=f"{src}:{base + 14} in forward, code: out = self.o_proj(out)")
        o = g.call("aten.view.default", [o, [1, S, H]], dtype="float16", shape=[1, S, H])
        x = g.call("aten.add.Tensor", [x, o], dtype="float16", shape=[1, S, H],
                   comment=f"{src}:{base + 15} in forward, code: hidden_states = residual + hidden_states")
        h = rms_norm(x, ln2, base + 17, "post_attention_layernorm")
        h2 = g.call("aten.view.default", [h, [S, H]], dtype="float16", shape=[S, H],
                    comment=f"{src}:{base + 20} in forward, code: h = self.act(self.gate(h)) * self.up(h)")
        gate = linear(h2, wg, ffn)
        up = linear(h2, wu, ffn)
        act = g.call("aten.silu.default", [gate], dtype="float16", shape=[S, ffn])
        m = g.call("aten.mul.Tensor", [act, up], dtype="float16", shape=[S, ffn])
        m = linear(m, wd, H, comment=f"{src}:{base + 21} in forward, code: h = self.down(h)")
        m = g.call("aten.view.default", [m, [1, S, H]], dtype="float16", shape=[1, S, H])
        x = g.call("aten.add.Tensor", [x, m], dtype="float16", shape=[1, S, H],
                   comment=f"{src}:{base + 22} in forward, code: hidden_states = residual + hidden_states")
        layer += 1
        # Stop when another layer would not fit; the tail below pads to the exact count.
        if 2 * len(g.nodes) - before + 1 > total_nodes:
            break
    if len(g.nodes) + 1 > total_nodes:
        raise SystemExit(f"size {total_nodes} is below one layer ({len(g.nodes) + 1} nodes)")
    # Pad with a scaled-residual chain to the exact node count (the output node is the last one).
    first = True
    while len(g.nodes) + 1 < total_nodes:
        op = "aten.mul.Tensor" if len(g.nodes) % 2 else "aten.add.Tensor"
        x = g.call(op, [x, 0.5 if op == "aten.mul.Tensor" else 1.0], dtype="float16", shape=[1, S, H],
                   comment=f"{src}:{100 + layer * 40} in forward, code: hidden_states = self.scale(hidden_states)"
                   if first else None)
        first = False
    g.output([x])
    assert len(g.nodes) == total_nodes, (len(g.nodes), total_nodes)
    return g


# ----------------------------------------------------------------------------------------------------------------
# PyTorch side: the dump turned into a torch.fx.Graph by exec + symbolic_trace (runs in its own process)
# ----------------------------------------------------------------------------------------------------------------

def torch_worker(path, repeat, budget_s):
    import torch
    import torch.fx

    baseline_mb = peak_rss_mb()
    dump_tracer = DumpTracer()

    def load_graph(text):
        """Dump text -> (torch.fx.Graph, GraphModule), timing both steps."""
        t0 = time.perf_counter()
        # torch.fx.symbolic_trace(root), spelled out so the Graph can be timed on its own.
        graph, tracer = dump_tracer.trace(text, path)
        t1 = time.perf_counter()
        gm = torch.fx.GraphModule(tracer.root, graph, tracer.root.__class__.__name__)
        t2 = time.perf_counter()
        return graph, gm, t1 - t0, t2 - t0

    graph_s, trace_s, nodes = [], [], None
    started = time.perf_counter()
    for _ in range(repeat):
        # Large graphs take seconds per load: stop repeating once the budget is spent.
        if graph_s and time.perf_counter() - started > budget_s:
            break
        t0 = time.perf_counter()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        read_s = time.perf_counter() - t0
        graph, gm, g_s, s_s = load_graph(text)
        graph_s.append(read_s + g_s)
        trace_s.append(read_s + s_s)
        nodes = len(graph.nodes)
        del graph, gm, text
        gc.collect()  # outside the timed region: each repeat starts from the same heap
    return {"nodes": nodes, "graph_median_s": statistics.median(graph_s), "graph_min_s": min(graph_s),
            "symbolic_trace_median_s": statistics.median(trace_s), "symbolic_trace_min_s": min(trace_s),
            "peak_rss_mb": peak_rss_mb(),
            "baseline_rss_mb": baseline_mb, "torch": torch.__version__, "runs": len(graph_s)}


def ast_worker(path, repeat):
    """Python's own parsing alone. ast.parse builds the Python-object tree a Python-side reader would walk;
    compile() parses and emits bytecode without building Python objects and is the floor of the exec route."""
    result = {}
    for name, job in (("ast_parse", lambda src: ast.parse(src, path)),
                      ("compile", lambda src: compile(src, path, "exec"))):
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            with open(path, encoding="utf-8") as f:
                job(f.read())
            times.append(time.perf_counter() - t0)
            gc.collect()
        result[name] = {"median_s": statistics.median(times), "min_s": min(times)}
    result["peak_rss_mb"] = peak_rss_mb()
    return result


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", help="fxscope-cli, to cross-check node counts with `info --json`")
    ap.add_argument("--bench", default=str(ROOT / "build" / "bin" / "bench_parse"), help="bench_parse executable")
    ap.add_argument("--sizes", help="comma-separated node counts (default 1000,3000,10000,30000,100000)")
    ap.add_argument("--repeat", type=int, default=5, help="loads per file and side; medians are reported")
    ap.add_argument("--fxscope-repeat", type=int,
                    help="loads per file for fxscope (default: max(repeat, 15); its loads take milliseconds)")
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000 and 3 repeats")
    ap.add_argument("--hrnet", default=str(ROOT / "tests" / "data" / "corpus" / "readable" / HRNET_NAME),
                    help="the HRNet joint graph dump ('' to skip)")
    ap.add_argument("--python", help="interpreter with torch >= 2.1 for the PyTorch side (default: the build's "
                    "fxscope-python beside --bench's bin/, else this interpreter)")
    ap.add_argument("--torch-budget", type=float, default=120,
                    help="seconds after which a PyTorch process stops repeating (it always loads once)")
    ap.add_argument("--output", default=str(ROOT / "bench" / "results" / "parse.json"))
    ap.add_argument("--keep", action="store_true", help="keep the generated files (their directory is printed)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds allowed per measurement process")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else QUICK_SIZES if args.quick else DEFAULT_SIZES
    repeat = 3 if args.quick and args.repeat == 5 else args.repeat
    fx_repeat = args.fxscope_repeat or max(repeat, 15)
    bench = shutil.which(args.bench) or args.bench
    if not os.access(bench, os.X_OK):
        raise SystemExit(f"bench_parse not found at {bench}: build it (ninja bench_parse) or pass --bench")
    py = torch_python(args.python, Path(bench).resolve().parent.parent)
    me = str(Path(__file__).resolve())
    load_before = os.getloadavg()

    tmp = Path(tempfile.mkdtemp(prefix="fxscope-bench-parse-"))
    rows = []
    try:
        cases = []
        for n in sizes:
            g = build_transformer(n)
            readable, fx_text = tmp / f"synthetic_{n}.py", tmp / f"synthetic_{n}.txt"
            readable.write_text(g.readable())
            fx_text.write_text(g.fx_text())
            cases.append((f"synthetic {n}", n, readable, fx_text))
        if args.hrnet and Path(args.hrnet).is_file():
            cases.append(("HRNet joint", None, Path(args.hrnet), None))
        elif args.hrnet:
            print(f"note: {args.hrnet} not found; HRNet row skipped", file=sys.stderr)

        for label, expected, readable, fx_text in cases:
            print(f"[{label}] {readable.name} ({readable.stat().st_size / 1e6:.1f} MB)", file=sys.stderr, flush=True)
            fxs = run_json([bench, str(readable), "--repeat", str(fx_repeat)], args.timeout)
            fxs_text = run_json([bench, str(fx_text), "--repeat", str(fx_repeat)], args.timeout) if fx_text else None
            pt = run_json([py, me, "--worker", "torch", str(readable), str(repeat), str(args.torch_budget)],
                          args.timeout)
            # Same interpreter as the exec side, so ast.parse is the parser that side's compile() runs.
            py_parse = run_json([py, me, "--worker", "ast", str(readable), str(repeat)], args.timeout)
            cli_nodes = None
            if args.cli:
                info = run_json([args.cli, "info", "--json", str(readable)], args.timeout)
                cli_nodes = sum(gr["nodes"] for gr in info["graphs"])
            # The comparison only means something if both sides built the same graph.
            counts = {"fxscope": fxs["nodes"], "pytorch": pt["nodes"]}
            if fxs_text:
                counts["fxscope_fx_text"] = fxs_text["nodes"]
            if cli_nodes is not None:
                counts["fxscope_cli"] = cli_nodes
            if expected is not None:
                counts["generated"] = expected
            same = len(set(counts.values())) == 1
            print("    nodes: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ("" if same else "  MISMATCH"),
                  file=sys.stderr, flush=True)
            f_s = fxs["median_s"]
            rows.append({
                "case": label, "file": readable.name, "bytes": readable.stat().st_size, "nodes": fxs["nodes"],
                "node_counts": counts, "same_graph_size": same,
                "fxscope": {k: fxs[k] for k in ("format", "median_s", "min_s", "peak_rss_mb")},
                "fxscope_fx_text": ({k: fxs_text[k] for k in ("format", "median_s", "min_s", "peak_rss_mb")}
                                    | {"bytes": fx_text.stat().st_size}) if fxs_text else None,
                "pytorch": pt, "python_parse": py_parse,
                "ratio": pt["graph_median_s"] / f_s if f_s > 0 else None,
                "ratio_symbolic_trace": pt["symbolic_trace_median_s"] / f_s if f_s > 0 else None,
                "ratio_ast_parse": py_parse["ast_parse"]["median_s"] / f_s if f_s > 0 else None,
                "ratio_compile": py_parse["compile"]["median_s"] / f_s if f_s > 0 else None,
            })
    finally:
        if args.keep:
            print(f"generated files kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    syn = [r for r in rows if r["case"].startswith("synthetic")]
    slopes = {
        "fxscope_readable": slope([(r["nodes"], r["fxscope"]["median_s"]) for r in syn]),
        "fxscope_fx_text": slope([(r["nodes"], r["fxscope_fx_text"]["median_s"]) for r in syn]),
        "pytorch_graph": slope([(r["nodes"], r["pytorch"]["graph_median_s"]) for r in syn]),
        "pytorch_symbolic_trace": slope([(r["nodes"], r["pytorch"]["symbolic_trace_median_s"]) for r in syn]),
        "ast_parse": slope([(r["nodes"], r["python_parse"]["ast_parse"]["median_s"]) for r in syn]),
        "compile": slope([(r["nodes"], r["python_parse"]["compile"]["median_s"]) for r in syn]),
        # Memory growth above each side's smallest case, so constant costs (import torch) do not hide it.
        "fxscope_memory": slope([(r["nodes"], r["fxscope"]["peak_rss_mb"] - syn[0]["fxscope"]["peak_rss_mb"])
                                 for r in syn[1:]]) if len(syn) > 2 else None,
        "pytorch_memory": slope([(r["nodes"], r["pytorch"]["peak_rss_mb"] - syn[0]["pytorch"]["peak_rss_mb"])
                                 for r in syn[1:]]) if len(syn) > 2 else None,
    }

    hdr = ["case", "nodes", "fxscope s", "fx_text s", "PyTorch s", "ratio", "symbolic_trace s", "ast.parse s", "compile s", "fxscope MB", "PyTorch MB"]
    table = []
    for r in rows:
        pt = r["pytorch"]
        runs = "" if pt["runs"] == repeat else f" ({pt['runs']}x)"
        table.append([r["case"], str(r["nodes"]), fmt(r["fxscope"]["median_s"], ".4f"),
                      fmt(r["fxscope_fx_text"]["median_s"] if r["fxscope_fx_text"] else None, ".4f"),
                      fmt(pt["graph_median_s"], ".3f") + runs, fmt(r["ratio"], ".0f") + "x",
                      fmt(pt["symbolic_trace_median_s"], ".3f"),
                      fmt(r["python_parse"]["ast_parse"]["median_s"], ".3f"),
                      fmt(r["python_parse"]["compile"]["median_s"], ".3f"),
                      fmt(r["fxscope"]["peak_rss_mb"], ".0f"), fmt(pt["peak_rss_mb"], ".0f")])
    table.append(["growth exponent", "", fmt(slopes["fxscope_readable"], ".2f"), fmt(slopes["fxscope_fx_text"], ".2f"),
                  fmt(slopes["pytorch_graph"], ".2f"), "",
                  fmt(slopes["pytorch_symbolic_trace"], ".2f"), fmt(slopes["ast_parse"], ".2f"),
                  fmt(slopes["compile"], ".2f"),
                  fmt(slopes["fxscope_memory"], ".2f"), fmt(slopes["pytorch_memory"], ".2f")])
    widths = [max(len(hdr[i]), *(len(t[i]) for t in table)) for i in range(len(hdr))]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    print(line(hdr))
    print("|" + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)) + "|")
    for t in table:
        print(line(t))

    floor = rows[0]["pytorch"]["baseline_rss_mb"] if rows else None
    print(f"\nfxscope s / fx_text s: bench_parse on the readable / print(gm.graph) form, median of {fx_repeat} loads; "
          f"PyTorch: median of {repeat} (fewer where marked: --torch-budget).\n"
          f"PyTorch s: exec + torch.fx Tracer.trace -> torch.fx.Graph with torch {rows[0]['pytorch']['torch']} "
          f"({py});\n"
          f"symbolic_trace s: PyTorch s plus the GraphModule symbolic_trace builds. ratio = PyTorch / fxscope.\n"
          f"ast.parse s / compile s: Python's parser alone, to a Python AST / to bytecode (the exec route's floor).\n"
          f"MB: peak RSS of the process; PyTorch's includes `import torch` ({fmt(floor, '.0f')} MB before any work). "
          f"Growth exponent: log-log slope over the synthetic sizes (memory: above the smallest size).")
    hrnet = next((r for r in rows if r["case"] == "HRNet joint"), None)
    if hrnet:
        ok = hrnet["fxscope"]["median_s"] <= HRNET_TARGET_S
        print(f"target HRNet <= {HRNET_TARGET_S} s: {'met' if ok else 'NOT met'} "
              f"({hrnet['fxscope']['median_s']:.4f} s, {hrnet['nodes']} nodes)")
    mismatched = [r["case"] for r in rows if not r["same_graph_size"]]
    if mismatched:
        print(f"NODE COUNT MISMATCH in: {', '.join(mismatched)} (see node_counts in the JSON)")

    result = {
        "benchmark": "parse", "repeat": repeat, "fxscope_repeat": fx_repeat, "sizes": sizes, "rows": rows,
        "growth_exponents": slopes,
        "hrnet_target_s": HRNET_TARGET_S,
        "hrnet_target_met": (hrnet["fxscope"]["median_s"] <= HRNET_TARGET_S) if hrnet else None,
        "machine": machine() | {"loadavg_before": load_before, "loadavg_after": os.getloadavg(),
                                "python_torch": py},
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = out.with_name(out.name + f".tmp-{os.getpid()}")
    tmp_out.write_text(json.dumps(result, indent=2) + "\n")
    os.replace(tmp_out, out)  # atomic: a killed run never leaves a half-written result
    print(f"wrote {out}", file=sys.stderr)
    return 1 if mismatched else 0


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "--worker":
        kind, file, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
        if kind == "torch":
            print(json.dumps(torch_worker(file, n, float(sys.argv[5]))))
        else:
            print(json.dumps(ast_worker(file, n)))
        sys.exit(0)
    sys.exit(main())
