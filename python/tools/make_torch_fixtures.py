#!/usr/bin/env python3
"""Writes tests/data/torch2/: graph dumps that a real torch 2.x wrote, and what torch reported about each graph.

    .venv/bin/python python/tools/make_torch_fixtures.py            # regenerate tests/data/torch2/
    .venv/bin/python python/tools/make_torch_fixtures.py OUT_DIR    # or elsewhere
    python3 python/tools/make_torch_fixtures.py --check             # is the committed data stale? (no torch needed)

What is written (see tests/data/torch2/README.md):

* export/<model>.pt2 (torch.export.save), export/<model>.json (the archive's models/model.json),
  export/<model>.readable.py (ep.graph_module.print_readable()) and export/<model>.ep.txt (print(ep)) for a
  transformer block with a dynamic batch (torch.export.Dim), a conv net, the conv net decomposed to core ATen
  (ep.run_decompositions()), a model with torch.cond and one with data-dependent (unbacked) sizes; readable/transformer_unlifted.py (ep.module(), pytree codegen).
* trace/<torch's log name>: the TORCH_TRACE directory of torch.compile(backend="inductor") on CPU for a small MLP
  trained one step (Dynamo graph, AOT joint/forward/backward, pre- and post-grad graphs, Inductor's provenance).
* logs/post_grad_graphs.log: TORCH_LOGS=post_grad_graphs output of the same run (TORCH_LOGS_OUT).
* summary.json: for every fixture, every graph it holds as torch itself reported it: the GraphModule's node count,
  op counts, call_function targets (as FX prints them), node names, nested GraphModules, and for the trace the
  record's line, kind and compile id. This script writes its own sha256 there and each data file's, so
  `--check` and tests/tst_torch2_fixtures.cpp tell when the data is stale.

The numbers never come from parsing the dumps: export graphs are counted on torch.export.load()'s result; trace
and log graphs on the GraphModule whose print_readable() produced the payload (GraphModule.print_readable is wrapped
in the child process and each result's md5 is matched with the record's "has_payload", which is torch's own md5
of the payload).
"""

import argparse
import collections
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tests", "data", "torch2")
SCRIPT_REL = "python/tools/make_torch_fixtures.py"
SUMMARY = "summary.json"


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def script_sha256():
    return sha256_file(os.path.abspath(__file__))


# --------------------------------------------------------------------------------------------------------------
# What torch reports about a GraphModule


def graph_stats(gm):
    """Counts on the torch.fx.GraphModule itself; nested GraphModules (cond branches) by attribute name."""
    import torch.fx

    nodes = list(gm.graph.nodes)
    ops = collections.Counter(n.op for n in nodes)
    targets = collections.Counter(
        torch.fx.Node._pretty_print_target(n.target) for n in nodes if n.op == "call_function"
    )
    subgraphs = {}
    for name, child in gm.named_children():
        if isinstance(child, torch.fx.GraphModule):
            subgraphs[name] = graph_stats(child)
    return {
        "nodes": len(nodes),
        "ops": dict(sorted(ops.items())),
        "call_function_targets": dict(sorted(targets.items())),
        "names": [n.name for n in nodes],
        "placeholders": [n.name for n in nodes if n.op == "placeholder"],
        "subgraphs": subgraphs,
    }


# --------------------------------------------------------------------------------------------------------------
# torch.export models


def export_models():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class TransformerBlock(nn.Module):
        """Pre-norm block: causal self-attention (SDPA) and a GELU MLP."""

        def __init__(self, d=16, heads=2, ff=32):
            super().__init__()
            self.heads = heads
            self.ln1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ln2 = nn.LayerNorm(d)
            self.ff1 = nn.Linear(d, ff)
            self.ff2 = nn.Linear(ff, d)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(c, dim=-1)
            q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
            return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))

    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
            self.bn1 = nn.BatchNorm2d(4)
            self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
            x = F.relu(self.conv2(x))
            x = F.adaptive_avg_pool2d(x, 1).flatten(1)
            return self.fc(x)

    class CondModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x, y):
            def true_fn(x, y):
                return self.lin(x).relu() + y

            def false_fn(x, y):
                return x.cos() * 2 - y

            return torch.cond(x.sum() > 0, true_fn, false_fn, (x, y))

    class Unbacked(nn.Module):
        """Data-dependent sizes: .item() and nonzero() give unbacked symbols, torch._check an _assert_scalar."""

        def forward(self, x):
            n = (x > 0).sum().item()
            torch._check(n <= x.shape[0] * x.shape[1])
            return x.flatten()[:n].cos() * 2, torch.nonzero(x)

    torch.manual_seed(0)
    batch = torch.export.Dim("batch", min=2, max=64)
    block = torch.export.export(TransformerBlock().eval(), (torch.randn(4, 8, 16),), dynamic_shapes={"x": {0: batch}})
    convnet = ConvNet().eval()
    conv = torch.export.export(convnet, (torch.randn(2, 3, 16, 16),))
    conv_core = torch.export.export(convnet, (torch.randn(2, 3, 16, 16),)).run_decompositions()
    cond = torch.export.export(CondModel().eval(), (torch.randn(3, 4), torch.randn(3, 4)))
    unbacked = torch.export.export(Unbacked(), (torch.randn(3, 4),))
    return [
        ("transformer", "transformer block (LayerNorm, SDPA, GELU MLP), dynamic batch Dim('batch', 2..64)", block),
        ("convnet", "conv/BatchNorm(eval)/ReLU/max_pool/adaptive_avg_pool/Linear, training IR as exported", conv),
        ("convnet_core", "the same conv net after ep.run_decompositions() (core ATen, multi-output ops)", conv_core),
        ("cond", "torch.cond with a Linear in the true branch (true_graph_0/false_graph_0)", cond),
        ("unbacked", "item() and nonzero() (unbacked symbols), torch._check (_assert_scalar), two outputs", unbacked),
    ]


def model_json_entry(archive_path):
    with zipfile.ZipFile(archive_path) as z:
        names = [n for n in z.namelist() if "/models/" in n and n.endswith(".json") and "_config" not in n]
        if len(names) != 1:
            raise SystemExit(f"{archive_path}: expected one models/<model>.json entry, found {names}")
        return names[0], z.read(names[0])


def write_exports(out, fixtures):
    import torch

    for d in ("export", "readable"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
        os.makedirs(os.path.join(out, d))
    models = export_models()
    for name, what, ep in models:
        pt2 = os.path.join(out, "export", name + ".pt2")
        torch.export.save(ep, pt2)
        entry, model_json = model_json_entry(pt2)
        with open(os.path.join(out, "export", name + ".json"), "wb") as f:
            f.write(model_json)
        # What torch's deserializer reads back from the archive is what fxscope must read too. It can differ from
        # the graph saved: unused outputs of multi-output ops get getitem nodes named <op>_unused_<i>.
        loaded = torch.export.load(pt2)
        stats = graph_stats(loaded.graph_module)
        signature = {
            "inputs": [[s.kind.name, s.arg.name if hasattr(s.arg, "name") else None, s.target]
                       for s in loaded.graph_signature.input_specs],
            "outputs": [[s.kind.name, s.arg.name if hasattr(s.arg, "name") else None, s.target]
                        for s in loaded.graph_signature.output_specs],
        }
        ranges = {str(k): [str(v.lower), str(v.upper)] for k, v in loaded.range_constraints.items()}
        graph = dict(stats, signature=signature, range_constraints=ranges)
        fixtures.append({"file": f"export/{name}.pt2", "format": "pt2", "about": what,
                         "model_json_entry": entry, "graphs": [graph]})
        fixtures.append({"file": f"export/{name}.json", "format": "export_json", "about": what,
                         "graphs": [graph]})

        readable = ep.graph_module.print_readable(print_output=False)
        rel = f"export/{name}.readable.py"
        with open(os.path.join(out, rel), "w") as f:
            f.write(readable)
        fixtures.append({"file": rel, "format": "readable", "about": "ep.graph_module.print_readable()",
                         "graphs": [graph_stats(ep.graph_module)]})
        rel = f"export/{name}.ep.txt"
        with open(os.path.join(out, rel), "w") as f:
            f.write(str(ep))
        fixtures.append({"file": rel, "format": "readable", "about": "print(exported_program)",
                         "graphs": [graph_stats(ep.graph_module)]})

    # The unlifted module: parameters as get_attr, pytree flatten/unflatten in the generated code.
    block = models[0][2]
    unlifted = block.module()
    rel = "readable/transformer_unlifted.py"
    with open(os.path.join(out, rel), "w") as f:
        f.write(unlifted.print_readable(print_output=False, include_stride=True, include_device=True))
    fixtures.append({"file": rel, "format": "readable",
                     "about": "ep.module().print_readable(include_stride=True, include_device=True)",
                     "graphs": [graph_stats(unlifted)]})


# --------------------------------------------------------------------------------------------------------------
# torch.compile(backend="inductor") under TORCH_TRACE and TORCH_LOGS=post_grad_graphs, in a child process (both
# are read from the environment when torch is imported)


def trace_child(record_path):
    import logging

    import torch
    import torch.fx
    from torch import nn

    printed = {}  # md5 of a print_readable() result -> stats of the GraphModule that printed it
    original = torch.fx.GraphModule.print_readable

    def print_readable(self, *args, **kwargs):
        text = original(self, *args, **kwargs)
        printed[hashlib.md5(text.encode("utf-8")).hexdigest()] = (text, graph_stats(self))
        return text

    torch.fx.GraphModule.print_readable = print_readable

    messages = []

    class Capture(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    # The artifact's own logger: torch's registered loggers do not propagate to "torch".
    logging.getLogger("torch._inductor.compile_fx.__post_grad_graphs").addHandler(Capture())
    torch._inductor.config.trace.provenance_tracking_level = 1

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 16)
            self.ln = nn.LayerNorm(16)
            self.fc2 = nn.Linear(16, 4)

        def forward(self, x):
            return self.fc2(nn.functional.gelu(self.ln(self.fc1(x))))

    torch.manual_seed(0)
    model = MLP()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    compiled = torch.compile(model, backend="inductor")
    loss = compiled(torch.randn(4, 8)).square().mean()
    loss.backward()
    opt.step()

    # Each post_grad_graphs message holds one print_readable() result.
    logged = []
    for message in messages:
        hits = [md5 for md5, (text, _) in printed.items() if text.rstrip("\n") in message]
        if len(hits) != 1:
            raise SystemExit(f"a post_grad_graphs message matched {len(hits)} printed graphs")
        logged.append(printed[hits[0]][1])
    with open(record_path, "w") as f:
        json.dump({"printed": {md5: {"text": text, "stats": stats} for md5, (text, stats) in printed.items()},
                   "logged": logged}, f)


def trace_records(path):
    """(line, kind, envelope, payload) of every record; kind is the artifact's name for `artifact` records."""
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("\t"):
                records[-1][3].append(line[1:])
                continue
            if not line.strip():
                continue
            envelope = json.loads(line[line.index("] {") + 2:])
            kind = next(iter(envelope))
            if kind == "artifact":
                kind = envelope["artifact"]["name"]
            records.append((number, kind, envelope, []))
    return [(n, k, e, "\n".join(p)) for n, k, e, p in records]


def write_trace(out, fixtures):
    trace_dir = os.path.join(out, "trace")
    logs_dir = os.path.join(out, "logs")
    for d in (trace_dir, logs_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    log_path = os.path.join(logs_dir, "post_grad_graphs.log")
    with tempfile.TemporaryDirectory(prefix="fxscope-torch2-") as tmp:
        record_path = os.path.join(tmp, "printed.json")
        env = dict(os.environ,
                   TORCH_TRACE=trace_dir,
                   TORCH_LOGS="post_grad_graphs",
                   TORCH_LOGS_OUT=log_path,
                   TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "inductor"),
                   TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                   TORCHINDUCTOR_AUTOGRAD_CACHE="0",
                   PYTHONHASHSEED="0")
        print("torch.compile(backend='inductor') in a child process (a C++ compiler runs; this takes minutes)...")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--trace-child", record_path],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        with open(record_path) as f:
            child = json.load(f)

    logs = sorted(os.listdir(trace_dir))
    if len(logs) != 1:
        raise SystemExit(f"{trace_dir}: expected one TORCH_TRACE log, found {logs}")
    rel = f"trace/{logs[0]}"
    graphs = []
    for line, kind, envelope, payload in trace_records(os.path.join(trace_dir, logs[0])):
        printed = child["printed"].get(envelope.get("has_payload"))
        how = "print_readable()"
        if printed is None and "has_payload" in envelope:
            # before/after_pre_grad_graph append "\n\n # graph id: <id>" to the printed graph.
            starts = [p for p in child["printed"].values() if payload.startswith(p["text"].rstrip("\n"))]
            if starts:
                printed = max(starts, key=lambda p: len(p["text"]))
                how = "print_readable() + " + repr(payload[len(printed["text"].rstrip("\n")):][:40])
        if printed is None:
            continue  # no GraphModule printed this payload
        graphs.append(dict(printed["stats"], line=line, kind=kind, payload=how, frame_id=envelope.get("frame_id"),
                           frame_compile_id=envelope.get("frame_compile_id"), attempt=envelope.get("attempt")))
    kinds = {g["kind"] for g in graphs}
    for wanted in ("dynamo_output_graph", "aot_forward_graph", "aot_backward_graph", "inductor_post_grad_graph"):
        if wanted not in kinds:
            raise SystemExit(f"{rel}: torch wrote no {wanted} graph (found {sorted(kinds)})")
    fixtures.append({"file": rel, "format": "torch_trace",
                     "about": "TORCH_TRACE of torch.compile(backend='inductor') on CPU, MLP trained one step",
                     "graphs": graphs})
    if not child["logged"]:
        raise SystemExit(f"{log_path}: TORCH_LOGS=post_grad_graphs wrote no graph")
    fixtures.append({"file": "logs/post_grad_graphs.log", "format": "readable",
                     "about": "TORCH_LOGS=post_grad_graphs of the same run (TORCH_LOGS_OUT)",
                     "graphs": child["logged"]})


# --------------------------------------------------------------------------------------------------------------


def check(out):
    """Nonzero when the data in `out` was not written by this script as it is now, or was edited since."""
    path = os.path.join(out, SUMMARY)
    if not os.path.exists(path):
        print(f"{path}: missing; run {SCRIPT_REL}")
        return 1
    with open(path) as f:
        summary = json.load(f)
    problems = []
    if summary["generator"]["sha256"] != script_sha256():
        problems.append(f"{SCRIPT_REL} changed since the data was written (sha256 "
                        f"{summary['generator']['sha256'][:12]}... in {SUMMARY}, now {script_sha256()[:12]}...)")
    for rel, digest in summary["files"].items():
        p = os.path.join(out, rel)
        if not os.path.exists(p):
            problems.append(f"{rel}: missing")
        elif sha256_file(p) != digest:
            problems.append(f"{rel}: changed since it was written")
    for p in problems:
        print(p)
    if problems:
        print(f"stale: rerun .venv/bin/python {SCRIPT_REL}")
        return 1
    print(f"{out}: up to date (torch {summary['generator']['torch_version']})")
    return 0


def generate(out):
    import torch

    os.makedirs(out, exist_ok=True)
    fixtures = []
    write_exports(out, fixtures)
    write_trace(out, fixtures)
    files = {}
    for root, _, names in os.walk(out):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), out)
            if rel not in (SUMMARY, "README.md"):
                files[rel] = sha256_file(os.path.join(root, n))
    listed = {fx["file"] for fx in fixtures}
    summary = {
        "generator": {"script": SCRIPT_REL, "sha256": script_sha256(), "torch_version": torch.__version__,
                      "python": sys.version.split()[0]},
        "files": dict(sorted(files.items())),
        "fixtures": fixtures,
    }
    unlisted = sorted(set(files) - listed)
    if unlisted:
        raise SystemExit(f"files written without a summary entry: {unlisted}")
    with open(os.path.join(out, SUMMARY), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=False)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(out, r)) for r in files)
    print(f"wrote {len(files)} files ({total // 1024} KiB) and {SUMMARY} to {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="say whether the data is stale; exit 1 if so")
    parser.add_argument("--trace-child", metavar="RECORD", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.trace_child:
        trace_child(args.trace_child)
        return 0
    if args.check:
        return check(args.out)
    generate(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
