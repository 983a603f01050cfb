"""Tests of fxscope_capture.capture (make_fx), its tensor files and its JSON serializer, with every file written also
read by fxscope-cli (FXSCOPE_CLI; ctest sets it).

    FXSCOPE_CLI=build/bin/fxscope-cli PYTHONPATH=python .venv/bin/python -m unittest discover -s python/tests -v
"""

import ast
import collections
import json
import math
import operator
import os
import re
import subprocess
import sys
import tempfile
import unittest

import torch
from safetensors import safe_open
from safetensors.torch import load_file

import fxscope_capture
from fxscope_capture import _serialize
from fxscope_capture.examples.tiny_block import make_tiny_block

from _support import GraphChecks, REPO, cli, cli_json, read_safetensors, run_graph


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

    def test_fxscope_cli_loads_and_converts(self):
        graphs = cli_json(self, "info", self.result.json_path)["graphs"]
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

    def test_fxscope_executor_runs_it_on_the_captured_inputs(self):
        report = cli_json(self, "profile", self.result.json_path, "--inputs", self.result.tensors_path,
                          "--iters", "1", "--warmup", "0")
        self.assertEqual(report["unfused"]["outputs"], [{"dtype": "Float", "shape": list(self.expected.shape)}])
        self.assertEqual(len(report["unfused"]["nodes"]), sum(n["op"] == "call_function" for n in self.graph["nodes"]))


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


class TestTensorFiles(unittest.TestCase):
    """save_tensors writes with PyPI's safetensors (atomically, after making what save_file refuses acceptable);
    safetensors' own reader, an independent struct reader and load_tensors read the same tensors back."""

    CASES = {
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
        "transposed": torch.randn(4, 6).t(),  # not contiguous: save_file refuses it as it is
        "slice": torch.arange(20.0)[3:15:2],
    }

    def test_dtypes_shapes_and_layouts_round_trip(self):
        base = torch.randn(4, 4)
        cases = dict(self.CASES, row0=base[0], row1=base[1])  # two views of one storage: save_file refuses those
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.safetensors")
            self.assertEqual(fxscope_capture.save_tensors(path, cases, metadata={"k": "v", "n": 3}), path)
            theirs = load_file(path)
            with safe_open(path, framework="pt") as f:
                their_metadata = f.metadata()
            raw, raw_metadata, header_len, data_end, data_len = read_safetensors(path)
            ours, our_metadata = fxscope_capture.load_tensors(path)
            self.assertEqual(os.listdir(tmp), ["t.safetensors"])  # the temporary file was renamed over it
        self.assertEqual(their_metadata, {"k": "v", "n": "3"})
        self.assertEqual(raw_metadata, their_metadata)
        self.assertEqual(our_metadata, their_metadata)
        self.assertEqual(header_len % 8, 0)
        self.assertEqual(data_end, data_len)
        for loaded in (theirs, raw, ours):
            self.assertEqual(set(loaded), set(cases))
            for name, t in cases.items():
                self.assertEqual(loaded[name].dtype, t.dtype, name)
                self.assertTrue(torch.equal(loaded[name], t), name)

    def test_refuses_tensors_without_data(self):
        from torch._subclasses.fake_tensor import FakeTensorMode
        with FakeTensorMode():
            fake = torch.empty(2, 3)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.safetensors")
            for t in (torch.empty(2, device="meta"), fake):
                with self.assertRaisesRegex(ValueError, "m: a .* has no data to save"):
                    fxscope_capture.save_tensors(path, {"m": t})
            with self.assertRaisesRegex(TypeError, "n: expected a tensor, found int"):
                fxscope_capture.save_tensors(path, {"n": 3})
            self.assertEqual(os.listdir(tmp), [])  # nothing half-written left behind

    def test_fxscope_reads_the_file_as_graph_inputs(self):
        # A graph whose input comes from a tensor file written here: fxscope's reader (optimizer/runtime) loads it.
        def scale(x):
            return x * 2

        x = torch.arange(6.0).reshape(2, 3).t()
        with tempfile.TemporaryDirectory() as tmp:
            r = fxscope_capture.capture(scale, x, out_dir=tmp)
            inputs = os.path.join(tmp, "mine.safetensors")
            fxscope_capture.save_tensors(inputs, {"x": torch.ones(3, 2)})
            report = cli_json(self, "profile", r.json_path, "--inputs", inputs, "--iters", "1", "--warmup", "0")
        self.assertEqual(report["unfused"]["outputs"], [{"dtype": "Float", "shape": [3, 2]}])


class TestTorchVersion(unittest.TestCase):
    def test_older_torch_is_refused_at_import_with_a_clear_message(self):
        code = "import torch; torch.__version__ = '1.13.1'; import fxscope_capture"
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")))
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("ImportError: fxscope_capture needs torch >= 2.1", run.stderr)
        self.assertIn("this interpreter has torch 1.13.1", run.stderr)


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
            cli_json(self, "info", r.json_path)

    def test_output_val_is_made_from_what_the_output_returns(self):
        graph = torch.fx.Graph()
        x = graph.placeholder("x")
        x.meta["val"] = torch.empty(2, 3)
        y = graph.call_function(torch.ops.aten.relu.default, (x,))
        y.meta["val"] = torch.empty(2, 3)
        graph.output((y, x))
        out = _serialize.graph_json(graph)["nodes"][-1]
        self.assertEqual(out["meta"]["val"], {"tuple": [
            {"tensor": {"dtype": "torch.float32", "shape": [2, 3], "stride": [3, 1], "device": "cpu"}}] * 2})


if __name__ == "__main__":
    unittest.main()
