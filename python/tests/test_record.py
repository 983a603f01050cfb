"""fxscope_capture.record on real torch.compile runs, each checked against torch's own numbers: the replacements
recorded against Inductor's pattern_matcher_count and its per-pattern counter, the last recorded graph of each stream
against the graph Inductor lowered, fuse_attention's patterns on an attention module, the command line with a child
process, two Gloo ranks whose custom pattern fires on one rank only, and a run that exits in the middle."""

import collections
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import textwrap
import unittest

import torch
from torch._dynamo.utils import counters

from fxscope_capture.examples.tiny_block import make_tiny_block
from fxscope_capture.record import MAX_ANCHORS_PER_PATTERN, recording

from _support import node_refs

PYTHON_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
STEP_FILE = re.compile(r"\d{3}\.json")
# torch counts replacements per pattern while this is set; its value also names the nodes it logs (none here)
PER_PATTERN_DEBUG = "TORCHINDUCTOR_PATTERN_MATCH_DEBUG"


def read_recording(test, out_dir):
    """{"rank0/0_0.forward": [step documents in order]}, after checking what a reader of the folder relies on: only
    rank folders and recording.json at the top, only NNN.json files in a stream (no temporary file left), each one
    parses, says its own index, and the indices run from 000 without a gap; step 000 holds the graph."""
    with open(os.path.join(out_dir, "recording.json"), encoding="utf-8") as f:
        info = json.load(f)
    test.assertEqual(info["torch"], torch.__version__)
    streams = {}
    for rank in sorted(os.listdir(out_dir)):
        if rank == "recording.json":
            continue
        test.assertRegex(rank, r"^rank\d+$")
        for name in sorted(os.listdir(os.path.join(out_dir, rank))):
            folder = os.path.join(out_dir, rank, name)
            files = sorted(os.listdir(folder))
            strays = [f for f in files if not STEP_FILE.fullmatch(f)]
            test.assertEqual(strays, [], f"{rank}/{name} holds files that are not steps")
            test.assertEqual(files, [f"{i:03d}.json" for i in range(len(files))], f"{rank}/{name}: a gap")
            steps = []
            for i, f in enumerate(files):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    doc = json.load(fh)
                test.assertEqual(doc["fxscope_recording_step"]["index"], i)
                test.assertEqual(doc["graphs"] != [], doc["fxscope_recording_step"]["changed"])
                steps.append(doc)
            test.assertTrue(steps, f"{rank}/{name} is empty")
            test.assertEqual(steps[0]["fxscope_recording_step"]["kind"], "start")
            test.assertEqual(len(steps[0]["graphs"]), 1)
            streams[f"{rank}/{name}"] = steps
    return streams


def pattern_passes(steps):
    for doc in steps:
        yield from doc["fxscope_recording_step"].get("pattern_passes", [])


def patterns(steps):
    for applied in pattern_passes(steps):
        yield from applied["patterns"]


def replaced_total(streams):
    """(the sum of PatternMatcherPass.apply's returns, the sum of the replacements the recorder saw per pattern)."""
    every = [s for steps in streams.values() for s in steps]
    return (sum(p["replaced"] for p in pattern_passes(every)), sum(p["replaced"] for p in patterns(every)))


def last_graph(steps):
    return [doc for doc in steps if doc["graphs"]][-1]["graphs"][0]["graph"]


def first_targets(steps):
    return " ".join(n["target"] for n in steps[0]["graphs"][0]["graph"]["nodes"])


def target_text(node):
    """A node's target as fxscope JSON writes it (print(gm.graph)'s spelling: torch.ops.aten.mm.default)."""
    target = node.target
    if node.op != "call_function":
        return str(target)
    if isinstance(target, torch._ops.OpOverload):
        return f"torch.ops.{target}"
    module = getattr(target, "__module__", None) or "builtins"
    module = "operator" if module == "_operator" else module
    return target.__name__ if module == "builtins" else f"{module}.{target.__name__}"


def node_rows(gm):
    return [(n.name, n.op, target_text(n), [a.name for a in n.all_input_nodes]) for n in gm.graph.nodes]


def recorded_rows(graph):
    return [(n["name"], n["op"], n["target"], list(dict.fromkeys(node_refs([n["args"], n["kwargs"]]))))
            for n in graph["nodes"]]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def python_env(**extra):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [PYTHON_DIR, os.environ.get("PYTHONPATH")])),
               TORCHINDUCTOR_COMPILE_THREADS="1")  # no compile-worker pool to start: 2 cores
    env.pop(PER_PATTERN_DEBUG, None)
    env.update(extra)
    return env


def write_script(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(text))
    return path


def printed(stdout):
    """The JSON lines a test script printed."""
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


class RecordTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.out = os.path.join(self.dir.name, "rec")


class TrainingStepTest(unittest.TestCase):
    """The tiny block's forward and backward, recorded in-process; torch's counters and the graphs GraphLowering runs
    are collected alongside by the test itself."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.dir.name, "rec")
        from torch._inductor.graph import GraphLowering

        cls.lowered = []
        original_run = GraphLowering.run

        def run(graph_lowering, *args, **kwargs):
            cls.lowered.append(node_rows(graph_lowering.module))
            return original_run(graph_lowering, *args, **kwargs)

        block, x = make_tiny_block()
        block.train()
        torch._dynamo.reset()
        counters.clear()
        saved_debug = os.environ.get(PER_PATTERN_DEBUG)
        os.environ[PER_PATTERN_DEBUG] = "fxscope_no_such_node"
        GraphLowering.run = run
        try:
            compiled = torch.compile(block, backend="inductor", dynamic=False)
            with recording(cls.out):
                compiled(x.requires_grad_()).pow(2).mean().backward()
        finally:
            GraphLowering.run = original_run
            if saved_debug is None:
                del os.environ[PER_PATTERN_DEBUG]
            else:
                os.environ[PER_PATTERN_DEBUG] = saved_debug
        cls.count = counters["inductor"]["pattern_matcher_count"]
        cls.per_pattern = dict(counters["inductor_pattern_matcher_per_pattern"])

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def setUp(self):
        self.streams = read_recording(self, self.out)

    def test_streams_of_the_training_step(self):
        self.assertEqual(sorted(self.streams), ["rank0/0_0.backward", "rank0/0_0.dynamo", "rank0/0_0.forward",
                                                "rank0/0_0.joint"])

    def test_replacements_sum_to_pattern_matcher_count(self):
        self.assertGreater(self.count, 0)
        self.assertEqual(replaced_total(self.streams), (self.count, self.count))
        # a step whose passes replaced something in its graph has the graph after it
        for name, steps in self.streams.items():
            for doc in steps:
                step = doc["fxscope_recording_step"]
                if any(p["replaced"] for p in step.get("pattern_passes", []) if not p.get("other_graph")):
                    self.assertTrue(step["changed"], f"{name} {step['index']:03d} {step['pass']}")

    def test_per_pattern_counts_are_torchs(self):
        recorded = collections.Counter()
        for steps in self.streams.values():
            for p in patterns(steps):
                self.assertEqual(sum(p["replaced_targets"].values()), p["replaced"], p["name"])
                if p["pattern_name"]:
                    recorded[p["pattern_name"]] += p["replaced"]
                else:  # torch's key for an entry without a pattern_name
                    for target, n in p["replaced_targets"].items():
                        recorded[f"{p['pattern_class']}_{target}"] += n
        self.assertEqual({k: v for k, v in recorded.items() if v}, self.per_pattern)
        self.assertGreater(len(self.per_pattern), 2)

    def test_each_anchor_is_reported_once_per_pattern_application(self):
        # torch's loop tries each pattern once per anchor node; a check that re-matches (register_replacement's,
        # with real shapes) is part of that one try
        for name, steps in self.streams.items():
            for p in patterns(steps):
                what = f"{name}: {p['name']}"
                self.assertEqual(p["matched"], p["replaced"] + p["extra_check_false"] + p["discarded"], what)
                self.assertLessEqual(p["matched"], p["tried"], what)
                self.assertEqual(len(p["anchors"]), min(p["tried"], MAX_ANCHORS_PER_PATTERN), what)
                anchors = [a["anchor"] for a in p["anchors"]]
                self.assertEqual(len(anchors), len(set(anchors)), what)
                self.assertEqual(sum(a["verdict"] == "replaced" for a in p["anchors"]), p["replaced"], what)

    def test_patterns_are_named_by_their_search_function_or_handler(self):
        names = {p["name"] for steps in self.streams.values() for p in patterns(steps)}
        self.assertIn("torch._inductor.fx_passes.joint_graph.pointless_view", names)
        self.assertFalse([n for n in names if n.startswith("fxscope_capture.")], names)

    def test_last_graph_of_each_stream_is_the_lowered_graph(self):
        by_kind = {"backward" if any(name.startswith("tangents_") for name, op, _, _ in rows if op == "placeholder")
                   else "forward": rows for rows in self.lowered}
        self.assertEqual(len(self.lowered), 2)
        self.assertEqual(sorted(by_kind), ["backward", "forward"])
        for kind, rows in by_kind.items():
            self.assertEqual(recorded_rows(last_graph(self.streams[f"rank0/0_0.{kind}"])), rows, kind)


class Attention(torch.nn.Module):
    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.q, self.k, self.v = (torch.nn.Linear(dim, dim) for _ in range(3))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = (p(x).view(b, s, self.heads, self.head_dim).transpose(1, 2) for p in (self.q, self.k, self.v))
        probs = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.head_dim), dim=-1)
        return (probs @ v).transpose(1, 2).reshape(b, s, d)


class AttentionTest(RecordTest):
    def test_fuse_attention_replaces_the_attention(self):
        torch.manual_seed(0)
        model, x = Attention().eval(), torch.randn(2, 8, 16)
        torch._dynamo.reset()
        counters.clear()
        with recording(self.out), torch.no_grad():
            torch.compile(model, backend="inductor", dynamic=False)(x)
        streams = read_recording(self, self.out)
        self.assertEqual(sorted(streams), ["rank0/0_0.dynamo", "rank0/0_0.inference"])
        count = counters["inductor"]["pattern_matcher_count"]
        self.assertGreater(count, 0)
        self.assertEqual(replaced_total(streams), (count, count))
        sfdp = [p for p in patterns(streams["rank0/0_0.inference"]) if p["replaced"] and (
            "_sfdp_pattern" in p["name"] or (p["source"] or "").split(":")[0].endswith("fuse_attention.py"))]
        self.assertTrue(sfdp)
        final = " ".join(n["target"] for n in last_graph(streams["rank0/0_0.inference"])["nodes"])
        self.assertIn("scaled_dot_product", final)
        self.assertNotIn("softmax", final)


class CommandLineTest(RecordTest):
    def test_script_and_the_process_it_starts(self):
        child = write_script(self.dir.name, "child.py", """
            import json
            import torch
            from torch._dynamo.utils import counters

            with torch.no_grad():
                torch.compile(lambda x: (x.view(4, 8).view(8, 4) * 2).cos(), backend="inductor")(torch.randn(8, 4))
            print(json.dumps({"process": "child", "count": counters["inductor"]["pattern_matcher_count"]}))
            """)
        script = write_script(self.dir.name, "parent.py", f"""
            import json, subprocess, sys
            import torch
            from torch._dynamo.utils import counters

            with torch.no_grad():
                torch.compile(lambda x: (x.view(2, 16).view(8, 4) + 1).relu(), backend="inductor")(torch.randn(8, 4))
            print(json.dumps({{"process": "parent", "count": counters["inductor"]["pattern_matcher_count"]}}),
                  flush=True)
            subprocess.run([sys.executable, {child!r}], check=True)
            """)
        run = subprocess.run([sys.executable, "-m", "fxscope_capture.record", "-o", self.out, script],
                             capture_output=True, text=True, env=python_env(), timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("fxscope_capture.record", run.stderr)  # neither process said it records nothing
        counts = {p["process"]: p["count"] for p in printed(run.stdout)}
        self.assertGreater(counts["child"], 0)
        streams = read_recording(self, self.out)
        by_process = {"parent": {}, "child": {}}
        for name, steps in streams.items():
            first = first_targets(steps)
            by_process["child" if "cos" in first else "parent"][name] = steps
        self.assertIn("relu", " ".join(first_targets(s) for s in by_process["parent"].values()))
        for process, own in by_process.items():
            self.assertEqual(sorted(n.split("/")[1].split(".")[1] for n in own), ["dynamo", "inference"], process)
            self.assertEqual(replaced_total(own), (counts[process], counts[process]), process)


class TwoRanksTest(RecordTest):
    def test_a_shape_dependent_pattern_fires_on_one_rank(self):
        script = write_script(self.dir.name, "rank.py", """
            import json
            import torch
            import torch.distributed as dist
            from torch._dynamo.utils import counters
            from torch._inductor import config
            from torch._inductor.custom_graph_pass import CustomGraphPass
            from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement


            def mm_relu(x, w):
                return torch.relu(torch.mm(x, w))


            def mm_clamp(x, w):
                return torch.clamp_min(torch.mm(x, w), 0.0)


            # vLLM's way: a pass of its own, whose replacement depends on the shapes it sees
            fusion = PatternMatcherPass(pass_name="test_mm_relu")
            register_replacement(mm_relu, mm_clamp, [torch.empty(4, 4), torch.empty(4, 4)], fwd_only, fusion,
                                 extra_check=lambda m: m.kwargs["x"].meta["val"].shape[0] > 4)


            class Fusion(CustomGraphPass):
                def __call__(self, graph):
                    fusion.apply(graph)

                def uuid(self):
                    return "test_record.mm_relu"


            config.post_grad_custom_post_pass = Fusion()
            dist.init_process_group("gloo")
            rank = dist.get_rank()
            x, w = torch.randn(4 if rank == 0 else 8, 8), torch.randn(8, 8)
            with torch.no_grad():
                y = torch.compile(mm_relu, backend="inductor", dynamic=False)(x, w)
            rows = torch.tensor([y.shape[0]])
            dist.all_reduce(rows)
            print(json.dumps({"rank": rank, "rows": int(rows), "count": counters["inductor"]["pattern_matcher_count"]}))
            dist.destroy_process_group()
            """)
        shell = subprocess.run([sys.executable, "-m", "fxscope_capture.record", "-o", self.out, "--print-env"],
                               capture_output=True, text=True, env=python_env(), timeout=120, check=True).stdout
        port = str(free_port())
        ranks = [subprocess.Popen(["bash", "-c", 'eval "$RECORD_ENV" && exec "$0" "$1"', sys.executable, script],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=python_env(RECORD_ENV=shell, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE="2",
                                                 MASTER_ADDR="127.0.0.1", MASTER_PORT=port))
                 for r in range(2)]
        results = {}
        for r, process in enumerate(ranks):
            stdout, stderr = process.communicate(timeout=300)
            self.assertEqual(process.returncode, 0, f"rank {r}:\n{stderr}")
            self.assertNotIn("sitecustomize", stderr)
            self.assertNotIn("fxscope_capture.record", stderr)
            (result,) = printed(stdout)
            self.assertEqual(result["rows"], 12)
            results[result["rank"]] = result
        streams = read_recording(self, self.out)
        self.assertEqual(sorted({name.split("/")[0] for name in streams}), ["rank0", "rank1"])
        ours = {}
        for r in range(2):
            own = {name: steps for name, steps in streams.items() if name.startswith(f"rank{r}/")}
            self.assertEqual(replaced_total(own), (results[r]["count"], results[r]["count"]), f"rank {r}")
            (applied,) = [p for steps in own.values() for p in pattern_passes(steps) if p["pass_name"] == "test_mm_relu"]
            (pattern,) = applied["patterns"]
            self.assertEqual(pattern["name"], "__main__.mm_relu")
            self.assertEqual(applied["created_at"].rsplit(":", 1)[0], script)
            ours[r] = pattern
        self.assertEqual((ours[0]["tried"], ours[0]["matched"], ours[0]["replaced"], ours[0]["extra_check_false"]),
                         (1, 1, 0, 1))
        (row,) = ours[0]["anchors"]
        self.assertEqual((row["verdict"], row["reason"]), ("extra_check", "extra_check returned False"))
        self.assertEqual((ours[1]["replaced"], ours[1]["extra_check_false"]), (1, 0))
        self.assertEqual(ours[1]["anchors"][0]["verdict"], "replaced")
        self.assertEqual(results[1]["count"], results[0]["count"] + 1)
        # fxscope's fusion matrix shows exactly that: the one pattern whose counts differ, marked on both ranks.
        cli = os.environ.get("FXSCOPE_CLI")
        if cli:
            info = json.loads(subprocess.run([cli, "info", self.out, "--json"], capture_output=True, text=True,
                                             timeout=120, check=True).stdout)
            matrix = info["recording"]["fusion_matrix"]
            marked = {(row["pattern"], matrix["columns"][i]["rank"])
                      for row in matrix["rows"] for i, cell in enumerate(row["cells"]) if cell["disagrees"]}
            self.assertEqual(marked, {("__main__.mm_relu", 0), ("__main__.mm_relu", 1)})


class CrashTest(RecordTest):
    def test_steps_before_an_exit_in_the_middle_are_readable(self):
        script = write_script(self.dir.name, "crash.py", """
            import os
            import torch
            from torch._inductor import config
            from torch._inductor.custom_graph_pass import CustomGraphPass

            calls = []


            class ExitInSecondCompile(CustomGraphPass):
                def __call__(self, graph):
                    calls.append(graph)
                    if len(calls) == 2:
                        os._exit(3)  # no atexit, no finally: as a killed process

                def uuid(self):
                    return "test_record.exit"


            config.post_grad_custom_post_pass = ExitInSecondCompile()
            with torch.no_grad():
                torch.compile(lambda x: (x.view(4, 8).view(8, 4) + 1).relu(), backend="inductor")(torch.randn(8, 4))
                torch.compile(lambda x: (x.view(2, 16).view(8, 4) * 2).cos(), backend="inductor")(torch.randn(8, 4))
            print("not reached")
            """)
        run = subprocess.run([sys.executable, "-m", "fxscope_capture.record", "-o", self.out, script],
                             capture_output=True, text=True, env=python_env(), timeout=300)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertNotIn("not reached", run.stdout)
        streams = read_recording(self, self.out)  # parses all, no temporary file, no gap
        self.assertEqual(sorted(streams), ["rank0/0_0.dynamo", "rank0/0_0.inference", "rank0/1_0.dynamo",
                                           "rank0/1_0.inference"])
        # the compile that exited wrote its steps up to the pass it exited in
        crashed = streams["rank0/1_0.inference"]
        self.assertIn("cos", first_targets(crashed))
        self.assertGreater(sum(p["replaced"] for p in patterns(crashed)), 0)
        self.assertGreater(sum(p["replaced"] for p in patterns(streams["rank0/0_0.inference"])), 0)


if __name__ == "__main__":
    unittest.main()


class TorchAirPipelineTest(RecordTest):
    def test_passes_and_pattern_pass_in_torchairs_order(self):
        # TorchAir's stand-in backend (torchair_pipeline.backend) with a user pattern registered as TorchAir users
        # register theirs: the recording shows its passes in _optimize_fx's order, around the pattern pass.
        from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement
        from fxscope_capture import torchair_pipeline

        patterns = PatternMatcherPass(pass_name="torchair_pattern_pass")

        def add_rms_norm(x, residual, weight):
            h = x + residual
            return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * weight

        def fused(x, residual, weight):
            h = x + residual
            return torch.nn.functional.rms_norm(h, (h.shape[-1],), weight, 1e-6)

        register_replacement(add_rms_norm, fused, [torch.empty(2, 8), torch.empty(2, 8), torch.empty(8)], fwd_only,
                             patterns)

        def program(x, residual, weight):
            x = x[:, :]  # a full slice: remove_noop_ops' to remove
            return add_rms_norm(x, residual, weight).view(2, 2, 4)  # a view: view_to_reshape's to change

        torch._dynamo.reset()
        out = self.out
        with torch.no_grad(), recording(out):
            args = (torch.randn(2, 8), torch.randn(2, 8), torch.randn(8))
            result = torch.compile(program, backend=torchair_pipeline.backend(patterns))(*args)
        torch.testing.assert_close(result, program(*args))
        streams = read_recording(self, out)
        aot = [steps for name, steps in streams.items() if not name.endswith(".dynamo")]
        self.assertEqual(len(aot), 1)
        passes = [s["fxscope_recording_step"]["pass"] for s in aot[0]]
        self.assertEqual(passes, ["as the first pass saw it", "remove_noop_ops", "torchair_pattern_pass",
                                  "view_to_reshape"])
        pattern_step = aot[0][2]["fxscope_recording_step"]
        self.assertEqual(pattern_step["pattern_passes"][0]["replaced"], 1)
        self.assertEqual(pattern_step["pattern_passes"][0]["patterns"][0]["name"].rsplit(".", 1)[-1], "add_rms_norm")
