"""Tests of fxscope_capture under whatever torch is installed (Debian's 1.13: make_fx paths; torch >= 2.0 also runs
the torch.compile backend tests).

    PYTHONPATH=python python3 -m unittest discover -s python/tests -v

FXSCOPE_CLI=<path to fxscope-cli> (ctest sets it) adds checks that fxscope itself loads every file written.
"""

import ast
import collections
import json
import math
import operator
import os
import re
import struct
import subprocess
import sys
import tempfile
import textwrap
import unittest

import torch

import fxscope_capture
from fxscope_capture import _serialize
from fxscope_capture.examples.tiny_block import make_tiny_block

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.environ.get("FXSCOPE_SHARED_DIR", os.path.join(REPO, "..", "shared"))
ADD_RMS_NORM = os.path.join(SHARED, "examples", "torchair_add_rms_norm.py")
CLI = os.environ.get("FXSCOPE_CLI")


# --------------------------------------------------------------------------------------------------------------
# Independent readers: the safetensors layout with struct + json + torch.frombuffer, and the fxscope JSON graph
# executed by resolving its qualified targets, so the tests do not trust the code they test.

DTYPES = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
          "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
          "BOOL": torch.bool}


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    metadata = header.pop("__metadata__", {})
    tensors, end = {}, 0
    for name, info in header.items():
        begin, stop = info["data_offsets"]
        end = max(end, stop)
        raw = bytearray(data[begin:stop])
        dtype = DTYPES[info["dtype"]]
        t = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        tensors[name] = t.reshape(info["shape"])
    return tensors, metadata, n, end, len(data)


def resolve_target(target):
    if target.startswith("operator."):
        return getattr(operator, target.split(".", 1)[1])
    obj = torch
    for atom in target.split(".")[1:]:
        obj = getattr(obj, atom)
    return obj


def decode(arg, env):
    if isinstance(arg, dict):
        (key, value), = arg.items()
        if key == "node":
            return env[value]
        if key == "list":
            return [decode(a, env) for a in value]
        if key == "tuple":
            return tuple(decode(a, env) for a in value)
        if key == "float":
            return float(value)
        if key == "dtype":
            return getattr(torch, value.split(".")[1])
        if key == "device":
            return torch.device(value)
        if key in ("memory_format", "layout"):
            return getattr(torch, value.split(".")[1])
        raise AssertionError(f"unexpected argument kind {key}")
    return arg


def run_graph(graph, tensors):
    env = {}
    for node in graph["nodes"]:
        op = node["op"]
        if op in ("placeholder", "get_attr"):
            env[node["name"]] = tensors[node["name"]]
        elif op == "call_function":
            fn = resolve_target(node["target"])
            args = [decode(a, env) for a in node["args"]]
            kwargs = {k: decode(v, env) for k, v in node["kwargs"].items()}
            env[node["name"]] = fn(*args, **kwargs)
        elif op == "output":
            return decode(node["args"][0], env)
    raise AssertionError("graph without an output node")


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def node_refs(arg):
    if isinstance(arg, dict):
        if set(arg) == {"node"}:
            yield arg["node"]
        else:
            for v in arg.values():
                yield from node_refs(v)
    elif isinstance(arg, list):
        for v in arg:
            yield from node_refs(v)


class GraphChecks:
    def check_graph_structure(self, graph):
        seen = set()
        for node in graph["nodes"]:
            self.assertEqual(set(node) - {"meta"}, {"name", "op", "target", "args", "kwargs"})
            self.assertIn(node["op"], {"placeholder", "get_attr", "call_function", "call_method", "call_module",
                                       "output"})
            self.assertIsInstance(node["target"], str)
            self.assertNotIn(node["name"], seen)
            for ref in node_refs([node["args"], node["kwargs"]]):
                self.assertIn(ref, seen, f"{node['name']} refers to {ref} before it is defined")
            seen.add(node["name"])
        self.assertEqual(graph["nodes"][-1]["op"], "output")


# --------------------------------------------------------------------------------------------------------------


class TestTinyBlockCapture(unittest.TestCase, GraphChecks):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.block, cls.x = make_tiny_block(seed=0)
        cls.result = fxscope_capture.capture(cls.block, cls.x, out_dir=cls.tmp.name, name="tiny_block")
        with open(cls.result.json_path, encoding="utf-8") as f:
            cls.doc = json.load(f)
        cls.graph = cls.doc["graphs"][0]["graph"]
        cls.nodes = {n["name"]: n for n in cls.graph["nodes"]}
        with torch.no_grad():
            cls.expected = cls.block(cls.x)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_document_structure(self):
        self.assertEqual(self.doc["fxscope"], 1)
        self.assertEqual(len(self.doc["graphs"]), 1)
        entry = self.doc["graphs"][0]
        self.assertEqual((entry["name"], entry["kind"]), ("tiny_block", "make_fx"))
        self.assertEqual(entry["tensors"], "tiny_block.safetensors")
        self.check_graph_structure(self.graph)
        self.assertTrue(self.doc["capture"]["graph_matches_eager"])

    def test_nodes_and_targets_match_the_traced_graph(self):
        gm_graph = self.result.graph_module.graph
        self.assertEqual(len(self.graph["nodes"]), len(gm_graph.nodes))
        self.assertEqual(collections.Counter(n["op"] for n in self.graph["nodes"]),
                         collections.Counter(n.op for n in gm_graph.nodes))
        printed = re.findall(r"= call_function\[target=([^\]]+)\]", str(gm_graph))
        self.assertEqual([n["target"] for n in self.graph["nodes"] if n["op"] == "call_function"], printed)
        self.assertIn("torch.ops.aten.mm.default", printed)
        self.assertIn("torch.ops.aten._softmax.default", printed)

    def test_weights_are_get_attr_nodes_named_by_module_path(self):
        get_attrs = {n["target"]: n for n in self.graph["nodes"] if n["op"] == "get_attr"}
        self.assertEqual(set(get_attrs), {name for name, _ in self.block.named_parameters()})
        for name, p in self.block.named_parameters():
            self.assertEqual(get_attrs[name]["meta"]["val"]["tensor"]["shape"], list(p.shape))
        placeholders = [n["name"] for n in self.graph["nodes"] if n["op"] == "placeholder"]
        self.assertEqual(placeholders, ["x"])  # named after forward's parameter

    def test_meta_val_shape_dtype_stride_device(self):
        for node in self.graph["nodes"]:
            if node["op"] in ("placeholder", "get_attr", "call_function", "output"):
                t = node["meta"]["val"]["tensor"]
                self.assertEqual(set(t), {"dtype", "shape", "stride", "device"}, node["name"])
                self.assertEqual(t["dtype"], "torch.float32")
                self.assertEqual(t["device"], "cpu")
                self.assertEqual(len(t["shape"]), len(t["stride"]))
        out = self.nodes["output"]["meta"]["val"]["tensor"]
        self.assertEqual(out["shape"], list(self.expected.shape))
        self.assertEqual(out["stride"], list(self.expected.stride()))
        transpose = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.transpose.int")
        self.assertEqual(transpose["meta"]["val"]["tensor"]["stride"], [256, 8, 32, 1])  # a real non-contiguous view

    def test_stack_traces_and_sources_point_at_the_model(self):
        model_file = sys.modules[type(self.block).__module__].__file__
        with open(model_file, encoding="utf-8") as f:
            lines = f.read().splitlines()
        calls = [n for n in self.graph["nodes"] if n["op"] == "call_function"]
        for node in calls:
            meta = node["meta"]
            self.assertIn(os.path.basename(model_file), meta["stack_trace"])
            self.assertNotIn("fxscope_capture/capture.py", meta["stack_trace"])
            self.assertNotIn("torch/fx", meta["stack_trace"])
            src = meta["source"]
            self.assertEqual(os.path.abspath(src["file"]), os.path.abspath(model_file))
            self.assertEqual(lines[src["line"] - 1].strip(), src["code"])
        softmax = next(n for n in calls if n["target"] == "torch.ops.aten._softmax.default")
        self.assertIn("F.softmax", softmax["meta"]["source"]["code"])
        self.assertEqual(softmax["meta"]["source"]["function"], "forward")

    def test_nn_module_stack(self):
        mm_paths = [[e["path"] for e in n["meta"]["nn_module_stack"]]
                    for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.mm.default"]
        self.assertEqual(mm_paths, [["attn", "attn.wq"], ["attn", "attn.wk"], ["attn", "attn.wv"], ["attn", "attn.wo"],
                                    ["mlp", "mlp.w1"], ["mlp", "mlp.w3"], ["mlp", "mlp.w2"]])
        wq = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.mm.default")
        self.assertEqual(wq["meta"]["nn_module_stack"][1]["type"], "torch.nn.modules.linear.Linear")
        self.assertEqual(wq["meta"]["nn_module_stack"][0]["type"], "fxscope_capture.examples.tiny_block.Attention")
        pow_node = self.nodes["pow_1"]
        self.assertEqual([e["path"] for e in pow_node["meta"]["nn_module_stack"]], ["attn_norm"])

    def test_argument_encodings(self):
        full = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.full.default")
        self.assertEqual(full["args"], [{"list": [8, 8]}, {"float": "-inf"}])
        self.assertEqual(full["kwargs"]["device"], {"device": "cpu"})
        mean = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.mean.dim")
        self.assertEqual(mean["args"][1:], [{"list": [-1]}, True])
        clone = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.clone.default")
        self.assertEqual(clone["kwargs"], {"memory_format": {"memory_format": "torch.contiguous_format"}})
        div = next(n for n in self.graph["nodes"] if n["target"] == "torch.ops.aten.div.Tensor")
        self.assertIsInstance(div["args"][1], float)
        with open(self.result.json_path, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("2.8284271247461903", text)  # floats keep their '.' and full precision

    def test_safetensors_round_trip(self):
        tensors, metadata, header_len, data_end, data_len = read_safetensors(self.result.tensors_path)
        self.assertEqual(header_len % 8, 0)
        self.assertEqual(data_end, data_len)
        names = [n["name"] for n in self.graph["nodes"] if n["op"] in ("placeholder", "get_attr")]
        self.assertEqual(sorted(tensors), sorted(names))
        self.assertTrue(torch.equal(tensors["x"], self.x))
        by_target = {n["target"]: n["name"] for n in self.graph["nodes"] if n["op"] == "get_attr"}
        for name, p in self.block.named_parameters():
            self.assertTrue(torch.equal(tensors[by_target[name]], p.detach()), name)
        self.assertEqual(metadata["placeholders"], "x")
        self.assertEqual(metadata["graph"], "tiny_block")
        ours, our_metadata = fxscope_capture.load_tensors(self.result.tensors_path)
        self.assertEqual(our_metadata, metadata)
        for name, t in tensors.items():
            self.assertTrue(torch.equal(ours[name], t))

    def test_reference_outputs_are_what_pytorch_computed(self):
        outputs, metadata, *_ = read_safetensors(self.result.outputs_path)
        self.assertEqual(list(outputs), ["output_0"])
        self.assertTrue(torch.equal(outputs["output_0"], self.expected))
        self.assertEqual(metadata["graph_matches_eager"], "true")

    def test_json_graph_executes_to_the_same_outputs(self):
        # What fxscope's executor will do: run the JSON graph on the captured inputs and weights.
        tensors, *_ = read_safetensors(self.result.tensors_path)
        with torch.no_grad():
            out = run_graph(self.graph, tensors)
        self.assertTrue(torch.allclose(out, self.expected, rtol=1e-5, atol=1e-6))

    def test_writes_are_atomic_leaving_no_temporary_files(self):
        leftovers = [f for f in os.listdir(self.tmp.name) if f.endswith(".tmp")]
        self.assertEqual(leftovers, [])
        self.assertEqual(os.stat(self.result.json_path).st_mode & 0o777, 0o666 & ~self._umask())

    @staticmethod
    def _umask():
        mask = os.umask(0)
        os.umask(mask)
        return mask

    @unittest.skipUnless(CLI, "FXSCOPE_CLI not set (ctest sets it to the built fxscope-cli)")
    def test_fxscope_cli_loads_and_converts(self):
        info = cli("info", "--json", self.result.json_path)
        self.assertEqual(info.returncode, 0, info.stderr)
        graphs = json.loads(info.stdout)["graphs"]
        self.assertEqual(graphs[0]["nodes"], len(self.graph["nodes"]))
        self.assertEqual(graphs[0]["ops"]["get_attr"], 9)
        out = os.path.join(self.tmp.name, "tiny_block.py")
        conv = cli("convert", self.result.json_path, "-o", out)
        self.assertEqual(conv.returncode, 0, conv.stderr)
        with open(out, encoding="utf-8") as f:
            code = f.read()
        ast.parse(code)
        self.assertIn("torch.ops.aten.mm.default(", code)
        self.assertIn('x: "f32[2, 8, 32][256, 32, 1]cpu"', code)


class TestDemo(unittest.TestCase):
    def test_demo_writes_capture_and_summary(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
            run = subprocess.run([sys.executable, "-m", "fxscope_capture.demo", tmp], capture_output=True, text=True,
                                 env=env, timeout=300)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(tmp, "tiny_block.summary.json"), encoding="utf-8") as f:
                summary = json.load(f)
            with open(os.path.join(tmp, "tiny_block.json"), encoding="utf-8") as f:
                nodes = json.load(f)["graphs"][0]["graph"]["nodes"]
            self.assertEqual(summary["nodes"], len(nodes))
            self.assertEqual(summary["output_shape"], [2, 8, 32])
            self.assertEqual(sum(summary["call_function_targets"].values()), summary["ops"]["call_function"])
            block, x = make_tiny_block(seed=0)
            with torch.no_grad():
                self.assertAlmostEqual(summary["output_sum"], float(block(x).double().sum()), places=9)

    def test_demo_without_arguments_prints_usage(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
        run = subprocess.run([sys.executable, "-m", "fxscope_capture.demo"], capture_output=True, text=True, env=env,
                             timeout=120)
        self.assertEqual(run.returncode, 1)
        self.assertIn("python3 -m fxscope_capture.demo OUT_DIR", run.stderr)


class TestCaptureFunctions(unittest.TestCase, GraphChecks):
    def test_function_with_nested_inputs_kwargs_scalars_and_a_repeated_tensor(self):
        def program(a, pair, scale, *, bias):
            return (a * scale + pair[0]) @ pair[1].t() + bias, a.sum()

        a, b, c = torch.randn(3, 4), torch.randn(3, 4), torch.randn(5, 4)
        with tempfile.TemporaryDirectory() as tmp:
            r = fxscope_capture.capture(program, a, [b, c], 2.5, kwargs={"bias": a[0, 0].clone()}, out_dir=tmp)
            with open(r.json_path, encoding="utf-8") as f:
                doc = json.load(f)
            graph = doc["graphs"][0]["graph"]
            self.check_graph_structure(graph)
            self.assertEqual(doc["graphs"][0]["name"], "program")
            placeholders = [n["name"] for n in graph["nodes"] if n["op"] == "placeholder"]
            self.assertEqual(placeholders, ["a", "pair_0", "pair_1", "bias"])
            mul = next(n for n in graph["nodes"] if n["target"] == "torch.ops.aten.mul.Tensor")
            self.assertEqual(mul["args"], [{"node": "a"}, 2.5])  # the Python scalar is a constant
            out = next(n for n in graph["nodes"] if n["op"] == "output")
            self.assertEqual(len(out["meta"]["val"]["tuple"]), 2)
            self.assertEqual(out["meta"]["val"]["tuple"][1]["tensor"]["shape"], [])
            tensors, *_ = read_safetensors(r.tensors_path)
            self.assertEqual(sorted(tensors), sorted(placeholders))
            expected = program(a, [b, c], 2.5, bias=a[0, 0].clone())
            got = run_graph(graph, tensors)
            for e, g in zip(expected, got):
                self.assertTrue(torch.allclose(e, g))

    def test_same_tensor_twice_gives_two_inputs(self):
        def add(x, y):
            return x + y

        t = torch.randn(4)
        with tempfile.TemporaryDirectory() as tmp:
            r = fxscope_capture.capture(add, t, t, out_dir=tmp)
            with open(r.json_path, encoding="utf-8") as f:
                graph = json.load(f)["graphs"][0]["graph"]
        add_node = next(n for n in graph["nodes"] if n["op"] == "call_function")
        self.assertEqual(add_node["args"], [{"node": "x"}, {"node": "y"}])

    def test_buffers_and_bound_methods(self):
        class Scaled(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.full((4,), 3.0))
                self.inner = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.inner(x) * self.scale

            def half(self, x):
                return self(x) / 2

        m = Scaled()
        x = torch.randn(2, 4)
        with tempfile.TemporaryDirectory() as tmp:
            r = fxscope_capture.capture(m.half, x, out_dir=tmp)
            with open(r.json_path, encoding="utf-8") as f:
                graph = json.load(f)["graphs"][0]["graph"]
            tensors, *_ = read_safetensors(r.tensors_path)
        targets = {n["target"] for n in graph["nodes"] if n["op"] == "get_attr"}
        self.assertEqual(targets, {"scale", "inner.weight", "inner.bias"})
        self.assertTrue(torch.equal(tensors["scale"], m.scale))
        self.assertTrue(torch.allclose(run_graph(graph, tensors), m.half(x).detach()))


class TestSafetensors(unittest.TestCase):
    def test_dtypes_shapes_and_layouts_round_trip(self):
        cases = {
            "f32": torch.randn(3, 5),
            "f16": torch.randn(7).half(),
            "bf16": torch.randn(2, 3).bfloat16(),
            "f64": torch.randn(2).double(),
            "i64": torch.arange(10),
            "i32": torch.arange(6, dtype=torch.int32).reshape(2, 3),
            "i8": torch.tensor([-128, 0, 127], dtype=torch.int8),
            "u8": torch.tensor([0, 255], dtype=torch.uint8),
            "bool": torch.tensor([True, False, True]),
            "scalar": torch.tensor(3.5),
            "empty": torch.empty(0, 4),
            "transposed": torch.randn(4, 6).t(),
            "slice": torch.arange(20.0)[3:15:2],
        }
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.safetensors")
            fxscope_capture.save_tensors(path, cases, metadata={"k": "v"})
            theirs, metadata, header_len, data_end, data_len = read_safetensors(path)
            ours, our_metadata = fxscope_capture.load_tensors(path)
        self.assertEqual(metadata, {"k": "v"})
        self.assertEqual(our_metadata, {"k": "v"})
        self.assertEqual(header_len % 8, 0)
        self.assertEqual(data_end, data_len)
        self.assertEqual(list(theirs), list(cases))
        for name, t in cases.items():
            self.assertEqual(theirs[name].dtype, t.dtype, name)
            self.assertTrue(torch.equal(theirs[name], t), name)
            self.assertTrue(torch.equal(ours[name], t), name)

    def test_refuses_tensors_without_data(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.safetensors")
            with self.assertRaisesRegex(ValueError, "no data"):
                fxscope_capture.save_tensors(path, {"m": torch.empty(2, device="meta")})
            self.assertEqual(os.listdir(tmp), [])  # nothing half-written left behind


class TestSerialize(unittest.TestCase):
    def test_argument_kinds(self):
        enc = lambda a: _serialize.argument(a, {})  # noqa: E731
        self.assertEqual(enc(slice(1, None, 2)), {"slice": [1, None, 2]})
        self.assertEqual(enc(Ellipsis), {"ellipsis": True})
        self.assertEqual(enc(float("nan")), {"float": "nan"})
        self.assertEqual(enc(-math.inf), {"float": "-inf"})
        self.assertEqual(enc(1.0), 1.0)
        self.assertEqual(enc(torch.float16), {"dtype": "torch.float16"})
        self.assertEqual(enc(torch.device("cpu")), {"device": "cpu"})
        self.assertEqual(enc(torch.strided), {"layout": "torch.strided"})
        self.assertEqual(enc({"a": [1, (2, 3)]}), {"dict": [["a", {"list": [1, {"tuple": [2, 3]}]}]]})
        self.assertEqual(enc(torch.Size([2, 3])), {"tuple": [2, 3]})
        self.assertEqual(enc(True), True)
        self.assertEqual(enc(torch.ops.aten.add.Tensor), {"repr": "torch.ops.aten.add.Tensor"})

    def test_qualified_names_as_fx_prints_them(self):
        self.assertEqual(_serialize.qualified_name(operator.getitem), "operator.getitem")
        self.assertEqual(_serialize.qualified_name(torch.ops.aten.add.Tensor), "torch.ops.aten.add.Tensor")
        self.assertEqual(_serialize.qualified_name(torch.nn.functional.relu), "torch.nn.functional.relu")
        self.assertEqual(_serialize.qualified_name(getattr), "getattr")

    def test_non_ascii_source_survives(self):
        def f(x):
            return x + 1  # 中文注释

        with tempfile.TemporaryDirectory() as tmp:
            r = fxscope_capture.capture(f, torch.ones(2), out_dir=tmp)
            with open(r.json_path, encoding="utf-8") as fh:
                add = json.load(fh)["graphs"][0]["graph"]["nodes"][1]
            self.assertIn("中文注释", add["meta"]["source"]["code"])
            if CLI:
                info = cli("info", "--json", r.json_path)
                self.assertEqual(info.returncode, 0, info.stderr)


# --------------------------------------------------------------------------------------------------------------


class PatternChecks(GraphChecks):
    def load(self, path):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["fxscope_pattern"], 1)
        for which in ("search", "replace"):
            self.check_graph_structure(doc[which])
        self.assertEqual(doc["graphs"], [{"name": "search", "kind": "pattern_search", "graph": doc["search"]},
                                         {"name": "replace", "kind": "pattern_replace", "graph": doc["replace"]}])
        return doc

    @staticmethod
    def targets(graph):
        return [n["target"] for n in graph["nodes"] if n["op"] == "call_function"]

    @staticmethod
    def placeholders(graph):
        return [n["name"] for n in graph["nodes"] if n["op"] == "placeholder"]

    def check_cli(self, path, node_counts):
        if not CLI:
            return
        info = cli("info", "--json", path)
        self.assertEqual(info.returncode, 0, info.stderr)
        self.assertEqual([g["nodes"] for g in json.loads(info.stdout)["graphs"]], node_counts)
        out = path + ".py"
        conv = cli("convert", path, "--graph", "search", "-o", out)
        self.assertEqual(conv.returncode, 0, conv.stderr)


class TestExportJointPattern(unittest.TestCase, PatternChecks):
    """trace_fn=joint_fwd_bwd: the joint forward + backward graph, with tangents_* inputs, traced by PyTorch."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.paths = fxscope_capture.export_patterns(
            os.path.join(REPO, "resources", "patterns", "joint", "addmm_training.py"), cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_joint_graph(self):
        self.assertEqual([os.path.basename(p) for p in self.paths], ["addmm_training.addmm_training.json"])
        doc = self.load(self.paths[0])
        self.assertIn("joint_fwd_bwd", doc["trace_fn"])
        self.assertEqual(self.placeholders(doc["search"]), ["x", "w", "bias", "tangents_1"])
        self.assertEqual(sorted(self.targets(doc["search"])),
                         sorted(["torch.ops.aten.mm.default", "torch.ops.aten.add.Tensor",
                                 "torch.ops.aten.sum.dim_IntList", "torch.ops.aten.view.default",
                                 "torch.ops.aten.t.default", "torch.ops.aten.mm.default", "torch.ops.aten.t.default",
                                 "torch.ops.aten.mm.default"]))
        self.assertIn("torch.ops.aten.addmm.default", self.targets(doc["replace"]))
        output = [n for n in doc["search"]["nodes"] if n["op"] == "output"][0]
        self.assertEqual(len(output["args"][0]["list"] if "list" in output["args"][0] else output["args"][0]["tuple"]),
                         4)  # the forward result, then the gradients of x, w and bias
        self.assertTrue(all(e["requires_grad"] for e in doc["example_inputs"]))
        self.check_cli(self.paths[0], [13, 12])  # 4 placeholders, 8 or 7 calls, the output


@unittest.skipUnless(os.path.exists(ADD_RMS_NORM), f"{ADD_RMS_NORM} not found")
class TestExportTorchAirPattern(unittest.TestCase, PatternChecks):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.modules_before = set(sys.modules)
        cls.empty_before = torch.empty
        cls.paths = fxscope_capture.export_patterns(ADD_RMS_NORM, cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_one_pattern_with_search_and_replace_graphs(self):
        self.assertEqual([os.path.basename(p) for p in self.paths], ["torchair_add_rms_norm.search_fn.json"])
        doc = self.load(self.paths[0])
        self.assertEqual(doc["name"], "torchair_add_rms_norm.search_fn")
        self.assertEqual(self.targets(doc["search"]), ["torch.ops.aten.add.Tensor", "torch.ops.npu.npu_rms_norm.default",
                                                       "operator.getitem"])
        self.assertEqual(self.targets(doc["replace"]), ["torch.ops.npu.npu_add_rms_norm.default", "operator.getitem",
                                                        "operator.getitem"])
        self.assertEqual(self.placeholders(doc["search"]), ["x1", "x2", "gamma"])
        self.assertEqual(self.placeholders(doc["replace"]), ["x1", "x2", "gamma"])
        search = {n["name"]: n for n in doc["search"]["nodes"]}
        self.assertEqual(search["add"]["args"], [{"node": "x1"}, {"node": "x2"}])
        self.assertEqual(search["npu_rms_norm"]["args"], [{"node": "add"}, {"node": "gamma"}])
        self.assertEqual(search["output"]["args"], [{"tuple": [{"node": "getitem"}, {"node": "add"}]}])
        rstd = search["npu_rms_norm"]["meta"]["val"]["tuple"][1]["tensor"]
        self.assertEqual((rstd["dtype"], rstd["shape"]), ("torch.float32", [1, 1, 1]))
        replace = {n["name"]: n for n in doc["replace"]["nodes"]}
        self.assertEqual([replace[n]["args"][1] for n in ("getitem", "getitem_2")], [0, 2])
        self.assertEqual(search["add"]["meta"]["source"]["function"], "search_fn")
        self.assertEqual(search["add"]["meta"]["source"]["code"], "xOut = torch.add(x1, x2)")
        self.check_cli(self.paths[0], [7, 7])

    def test_registration_details(self):
        doc = self.load(self.paths[0])
        self.assertEqual(doc["registered_with"], "torchair.register_replacement")
        self.assertTrue(doc["stream_check"])
        self.assertEqual(os.path.abspath(doc["source_file"]), os.path.abspath(ADD_RMS_NORM))
        with open(ADD_RMS_NORM, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertIn("register_replacement(", lines[doc["source_line"] - 1])
        self.assertEqual(doc["argnames"], ["x1", "x2", "gamma"])
        self.assertEqual(doc["extra_check"], "extra_check")
        self.assertTrue(doc["extra_check_source"].startswith("def extra_check(match: Match):"))
        self.assertIn("a_shape[-1] == 7168", doc["extra_check_source"])
        self.assertIn("def extra_check", lines[doc["extra_check_line"] - 1])
        shapes = [(e["name"], e["val"]["tensor"]["shape"], e["val"]["tensor"]["dtype"], e["val"]["tensor"]["device"])
                  for e in doc["example_inputs"]]
        self.assertEqual(shapes, [("x1", [1, 1, 2], "torch.float16", "npu"), ("x2", [1, 1, 2], "torch.float16", "npu"),
                                  ("gamma", [2], "torch.float16", "npu")])

    def test_stand_ins_are_removed_afterwards(self):
        added = set(sys.modules) - self.modules_before
        self.assertFalse({m for m in added if m.split(".")[0] in ("torch_npu", "torchair")}, added)
        self.assertIs(torch.empty, self.empty_before)
        if not TORCH_2:
            self.assertNotIn("torch._inductor", sys.modules)
            self.assertFalse(hasattr(torch, "_inductor"))
        self.assertFalse(hasattr(torch.Tensor, "npu"))


class TestExportOtherRegistrations(unittest.TestCase, PatternChecks):
    """Inductor's register_replacement with scalar_workaround, TorchAir's pass manager, closures and module globals
    read by extra_check, an npu op called through torch.ops, and a registration that cannot be traced."""

    PATTERNS = textwrap.dedent('''
        import functools
        import torch
        import torch_npu
        from torch._inductor.pattern_matcher import register_replacement, fwd_only, Match
        from torchair.patterns.pattern_pass_manager import _PatternPassManager

        HIDDEN = 4096

        def scaled_add(x, y, alpha):
            return x * alpha + y

        def fused(x, y, alpha):
            return torch.add(y, x, alpha=alpha)

        def check(match: Match):
            return match.kwargs["x"].meta["val"].shape[-1] == HIDDEN

        register_replacement(scaled_add, fused, [torch.empty(2, 8), torch.empty(2, 8)], fwd_only, [],
                             extra_check=check, scalar_workaround={"alpha": 0.5})

        def make(limit):
            def swiglu_search(x):
                a, b = x.chunk(2, dim=-1)
                return torch.nn.functional.silu(a) * b

            def swiglu_replace(x):
                return torch.ops.npu.npu_swiglu.default(x, -1)

            def swiglu_check(match):
                return match.kwargs["x"].meta["val"].shape[-1] <= limit
            return swiglu_search, swiglu_replace, swiglu_check

        search, replace, check2 = make(limit=8192)
        manager = _PatternPassManager()
        manager.register_pattern(search, replace, (torch.empty(4, 16, device="npu", dtype=torch.bfloat16),),
                                 extra_check=check2)

        def broken(x):
            return x.nonexistent_method()

        register_replacement(broken, broken, [torch.empty(2)], fwd_only, [])

        if __name__ == "__main__":
            raise SystemExit("the pattern file's main block must not run")
        ''')

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.pattern_file = os.path.join(cls.tmp.name, "my_patterns.py")
        with open(cls.pattern_file, "w", encoding="utf-8") as f:
            f.write(cls.PATTERNS)
        cls.out = os.path.join(cls.tmp.name, "out")
        try:
            fxscope_capture.export_patterns(cls.pattern_file, cls.out)
            cls.error = None
        except fxscope_capture.PatternExportError as e:
            cls.error = e

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_failed_registration_is_reported_and_the_others_written(self):
        self.assertIsNotNone(self.error)
        self.assertEqual(len(self.error.errors), 1)
        self.assertRegex(self.error.errors[0], r"my_patterns\.py:\d+: broken: .*nonexistent_method")
        self.assertEqual([os.path.basename(p) for p in self.error.written],
                         ["my_patterns.scaled_add.json", "my_patterns.swiglu_search.json"])

    def test_inductor_registration_with_scalar_workaround(self):
        doc = self.load(os.path.join(self.out, "my_patterns.scaled_add.json"))
        self.assertEqual(doc["registered_with"], "torch._inductor.pattern_matcher.register_replacement")
        self.assertFalse(doc["stream_check"])
        self.assertEqual(doc["argnames"], ["x", "y", "alpha"])
        self.assertEqual(doc["scalar_workaround"], {"alpha": 0.5})
        self.assertEqual(doc["example_inputs"][2], {"name": "alpha", "value": 0.5})
        self.assertEqual(self.placeholders(doc["search"]), ["x", "y", "alpha"])
        self.assertEqual(self.targets(doc["search"]), ["torch.ops.aten.mul.Tensor", "torch.ops.aten.add.Tensor"])
        mul = next(n for n in doc["search"]["nodes"] if n["target"] == "torch.ops.aten.mul.Tensor")
        self.assertEqual(mul["args"], [{"node": "x"}, 0.5])
        add = next(n for n in doc["replace"]["nodes"] if n["op"] == "call_function")
        self.assertEqual((add["target"], add["kwargs"]), ("torch.ops.aten.add.Tensor", {"alpha": 0.5}))
        self.assertEqual(doc["extra_check_globals"], {"HIDDEN": 4096})
        self.check_cli(os.path.join(self.out, "my_patterns.scaled_add.json"), [6, 5])

    def test_pass_manager_registration_with_closure_and_npu_op(self):
        doc = self.load(os.path.join(self.out, "my_patterns.swiglu_search.json"))
        self.assertEqual(doc["registered_with"],
                         "torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern")
        self.assertTrue(doc["stream_check"])
        self.assertEqual(doc["extra_check"], "make.<locals>.swiglu_check")
        self.assertEqual(doc["extra_check_closure"], {"limit": 8192})
        self.assertIn("torch.ops.aten.silu.default", self.targets(doc["search"]))
        self.assertEqual(self.targets(doc["replace"]), ["torch.ops.npu.npu_swiglu.default"])
        out = next(n for n in doc["replace"]["nodes"] if n["op"] == "call_function")["meta"]["val"]["tensor"]
        self.assertEqual((out["shape"], out["dtype"]), ([4, 8], "torch.bfloat16"))
        self.assertEqual(doc["example_inputs"][0]["val"]["tensor"]["device"], "npu")


@unittest.skipUnless(TORCH_2, f"torch.compile needs torch >= 2.0; this is torch {torch.__version__}")
class TestCompileBackend(unittest.TestCase, GraphChecks):
    def test_dynamo_and_aot_graphs_written_and_program_carries_on(self):
        block, x = make_tiny_block(seed=0)
        with tempfile.TemporaryDirectory() as tmp:
            compiled = torch.compile(block, backend=fxscope_capture.backend(out_dir=tmp, name="tiny"))
            with torch.no_grad():
                out = compiled(x)
                expected = block(x)
            self.assertTrue(torch.allclose(out, expected, rtol=1e-5, atol=1e-6))
            with open(os.path.join(tmp, "tiny_0.json"), encoding="utf-8") as f:
                doc = json.load(f)
            names = [g["name"] for g in doc["graphs"]]
            self.assertEqual(names[0], "dynamo")
            self.assertIn("inference", names)
            for g in doc["graphs"]:
                self.check_graph_structure(g["graph"])
                self.assertIn("tensors", g)
            aten = next(g for g in doc["graphs"] if g["name"] == "inference")["graph"]
            self.assertTrue(any(n["target"].startswith("torch.ops.aten.") for n in aten["nodes"]))
            tensors, *_ = read_safetensors(os.path.join(tmp, next(
                g for g in doc["graphs"] if g["name"] == "inference")["tensors"]))
            placeholders = [n["name"] for n in aten["nodes"] if n["op"] == "placeholder"]
            self.assertEqual(sorted(tensors), sorted(placeholders))

    def test_training_writes_forward_and_backward(self):
        block, x = make_tiny_block(seed=0)
        block.train()
        with tempfile.TemporaryDirectory() as tmp:
            compiled = torch.compile(block, backend=fxscope_capture.backend(out_dir=tmp, name="train"))
            compiled(x.requires_grad_()).sum().backward()
            with open(os.path.join(tmp, "train_0.json"), encoding="utf-8") as f:
                names = [g["name"] for g in json.load(f)["graphs"]]
            self.assertEqual(names, ["dynamo", "forward", "backward"])

    def test_wraps_an_inner_backend(self):
        seen = []

        def inner(gm, example_inputs):
            from torch._dynamo.backends.common import aot_autograd
            from torch._functorch.aot_autograd import make_boxed_func

            def fw(g, _):
                seen.append(len(g.graph.nodes))
                return make_boxed_func(g.forward)
            return aot_autograd(fw_compiler=fw)(gm, example_inputs)

        block, x = make_tiny_block(seed=0)
        with tempfile.TemporaryDirectory() as tmp:
            compiled = torch.compile(block, backend=fxscope_capture.backend(out_dir=tmp, inner=inner, name="wrapped"))
            with torch.no_grad():
                compiled(x)
            with open(os.path.join(tmp, "wrapped_0.json"), encoding="utf-8") as f:
                graphs = json.load(f)["graphs"]
        self.assertEqual(seen and len(seen), 1)
        aot = next(g for g in graphs if g["name"] == "inference")
        self.assertEqual(len(aot["graph"]["nodes"]), seen[0])


def _functorch_aot():
    try:
        import functorch._src.aot_autograd as aot  # torch 1.13's aot_autograd, before it moved into torch
        return aot
    except ImportError:
        return None


@unittest.skipIf(TORCH_2 or _functorch_aot() is None, "simulates torch 2.x's aot entry points with 1.13's functorch")
class TestBackendLogicWithSimulatedAot(unittest.TestCase, GraphChecks):
    """Exercises FxscopeBackend where torch.compile is missing: torch._functorch.aot_autograd and
    torch._dynamo.backends.common are stood in by thin adapters over functorch 1.13's aot_module_simplified, and the
    backend is called as Dynamo would call it. Covers the graph records, the first-call tensor files, the wrapping
    of an inner backend's aot compilers and its undoing; TestCompileBackend covers the real thing on torch 2.x."""

    def setUp(self):
        import types
        aot = _functorch_aot()

        def aot_module_simplified(mod, args, fw_compiler, bw_compiler=None, partition_fn=None, decompositions=None,
                                  keep_inference_input_mutations=False, inference_compiler=None):
            grad = torch.is_grad_enabled() and any(p.requires_grad for p in mod.parameters())
            fw = fw_compiler if grad else (inference_compiler or fw_compiler)
            return aot.aot_module_simplified(mod, fw_compiler=fw, bw_compiler=bw_compiler or fw_compiler)

        self.aot_module_simplified = aot_module_simplified
        self.functorch = types.ModuleType("torch._functorch.aot_autograd")
        self.functorch.aot_module_simplified = aot_module_simplified
        self.functorch.make_boxed_func = aot.make_boxed_func
        self.common = types.ModuleType("torch._dynamo.backends.common")
        self.common.aot_module_simplified = aot_module_simplified
        common = self.common
        self.common.aot_autograd = lambda **kw: (lambda gm, ex: common.aot_module_simplified(
            gm, ex, **{k: v for k, v in kw.items() if v is not None}))
        installed = {"torch._functorch": types.ModuleType("torch._functorch"),
                     "torch._dynamo": types.ModuleType("torch._dynamo"),
                     "torch._dynamo.backends": types.ModuleType("torch._dynamo.backends"),
                     "torch._functorch.aot_autograd": self.functorch,
                     "torch._dynamo.backends.common": self.common}
        installed["torch._functorch"].aot_autograd = self.functorch
        for name, module in installed.items():
            self.assertNotIn(name, sys.modules)
            sys.modules[name] = module
            self.addCleanup(sys.modules.pop, name, None)
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.w = torch.nn.Parameter(torch.randn(4, 4))
                self.register_buffer("b", torch.ones(4))
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x):
                return (torch.relu(self.lin(x @ self.w + self.b)),)  # functorch 1.13 wants tuple outputs

        torch.manual_seed(0)
        self.model, self.x = Model(), torch.randn(2, 4)
        self.gm = torch.fx.symbolic_trace(self.model)

    def load(self, stem):
        with open(os.path.join(self.tmp.name, stem + ".json"), encoding="utf-8") as f:
            doc = json.load(f)
        for g in doc["graphs"]:
            self.check_graph_structure(g["graph"])
        return doc

    def test_dynamo_forward_and_backward_graphs_with_their_tensors(self):
        from fxscope_capture._backend import FxscopeBackend
        compiled = FxscopeBackend(self.tmp.name, name="sim")(self.gm, [self.x])
        out, = compiled(self.x)
        self.assertTrue(torch.allclose(out, self.model(self.x)[0]))
        out.sum().backward()
        doc = self.load("sim_0")
        self.assertEqual([(g["name"], g["kind"]) for g in doc["graphs"]],
                         [("dynamo", "dynamo_output_graph"), ("forward", "aot_forward_graph"),
                          ("backward", "aot_backward_graph")])
        dynamo, forward, backward = doc["graphs"]
        tensors, metadata, *_ = read_safetensors(os.path.join(self.tmp.name, dynamo["tensors"]))
        self.assertTrue(torch.equal(tensors["x"], self.x))
        self.assertTrue(torch.equal(tensors["w"], self.model.w.detach()))
        self.assertEqual(metadata["when"], "compile")
        for entry in (forward, backward):
            tensors, metadata, *_ = read_safetensors(os.path.join(self.tmp.name, entry["tensors"]))
            placeholders = [n["name"] for n in entry["graph"]["nodes"] if n["op"] == "placeholder"]
            self.assertEqual(sorted(tensors), sorted(placeholders))
            self.assertEqual(metadata["when"], "first call")
        self.assertTrue(any(t.startswith("torch.ops.aten.threshold_backward")
                            for t in (n["target"] for n in backward["graph"]["nodes"])))
        if CLI:
            info = cli("info", "--json", os.path.join(self.tmp.name, "sim_0.json"))
            self.assertEqual(info.returncode, 0, info.stderr)
            self.assertEqual([g["nodes"] for g in json.loads(info.stdout)["graphs"]],
                             [len(g["graph"]["nodes"]) for g in doc["graphs"]])

    def test_inner_backend_compilers_are_recorded_and_unwrapped_afterwards(self):
        from fxscope_capture._backend import FxscopeBackend
        seen = []
        make_boxed_func = self.functorch.make_boxed_func
        common = self.common

        def inner(gm, example_inputs):
            def fw(g, _):
                seen.append(len(g.graph.nodes))
                return make_boxed_func(g.forward)
            return common.aot_module_simplified(gm, example_inputs, fw_compiler=fw)

        compiled = FxscopeBackend(self.tmp.name, inner=inner, name="inner")(self.gm, [self.x])
        self.assertIs(self.common.aot_module_simplified, self.aot_module_simplified)
        self.assertIs(self.functorch.aot_module_simplified, self.aot_module_simplified)
        out, = compiled(self.x)
        self.assertTrue(torch.allclose(out, self.model(self.x)[0]))
        doc = self.load("inner_0")
        self.assertEqual([g["name"] for g in doc["graphs"]], ["dynamo", "forward"])
        self.assertEqual(seen, [len(doc["graphs"][1]["graph"]["nodes"])])
        self.assertEqual(doc["capture"]["inner"].rsplit(".", 1)[-1], "inner")

    def test_a_failing_write_warns_and_the_program_carries_on(self):
        from fxscope_capture._backend import FxscopeBackend
        blocker = os.path.join(self.tmp.name, "not_a_directory")
        with open(blocker, "w", encoding="utf-8") as f:
            f.write("x")
        with self.assertWarnsRegex(RuntimeWarning, "could not write the Dynamo graph"):
            compiled = FxscopeBackend(os.path.join(blocker, "out"), name="sim")(self.gm, [self.x])
        with self.assertWarns(RuntimeWarning):
            out, = compiled(self.x)
        self.assertTrue(torch.allclose(out, self.model(self.x)[0]))


@unittest.skipIf(TORCH_2, "checks the message given on torch < 2.0")
class TestBackendNeedsTorch2(unittest.TestCase):
    def test_clear_error(self):
        with self.assertRaisesRegex(RuntimeError, "needs torch >= 2.0.*capture"):
            fxscope_capture.backend(out_dir="unused")


if __name__ == "__main__":
    unittest.main()
