"""torch.compile(model, backend=fxscope_capture.backend(out_dir=...)): the Dynamo and AOT graphs of the tiny
transformer block, with their inputs and first-call outputs, checked against what torch computes eagerly, and loaded
and run by fxscope-cli (FXSCOPE_CLI). Static shapes, dynamic=True (symbols with hints), training, an inner backend.
fxscope's executor's output values are compared with eager ones by tests/tst_capture.cpp (runtimeProfile)."""

import os
import tempfile
import unittest
import warnings

import torch

import fxscope_capture
from fxscope_capture.examples.tiny_block import make_tiny_block

from _support import GraphChecks, cli_json, load_json, placeholder_names, read_safetensors, run_graph


def _profile(test, path, graph, inputs=None):
    args = ["profile", path, "--graph", graph, "--iters", "1", "--warmup", "0"]
    if inputs:
        args += ["--inputs", inputs]
    return cli_json(test, *args)


class CompiledCapture(GraphChecks):
    """Shared checks of one backend capture (cls.out_dir/<stem>.json)."""

    stem = None

    @classmethod
    def doc(cls):
        return load_json(os.path.join(cls.out_dir, cls.stem + ".json"))

    def entry(self, name):
        return next(g for g in self.doc()["graphs"] if g["name"] == name)

    def tensors(self, name, key="tensors"):
        return read_safetensors(os.path.join(self.out_dir, self.entry(name)[key]))

    def outputs(self, name):
        """The graph's first-call outputs, in output order (output_0, output_1, ..., output_10)."""
        outputs, *_ = self.tensors(name, "outputs")
        return [outputs[k] for k in sorted(outputs, key=lambda k: int(k.rsplit("_", 1)[1]))]

    def check_entries(self, names):
        doc = self.doc()
        self.assertEqual(doc["fxscope"], 1)
        self.assertEqual([g["name"] for g in doc["graphs"]], names)
        for g in doc["graphs"]:
            self.check_graph_structure(g["graph"])
            self.assertEqual(g["tensors"], f"{self.stem}.{g['name']}.safetensors")
            self.assertEqual(g["outputs"], f"{self.stem}.{g['name']}.outputs.safetensors")
            tensors, metadata, *_ = self.tensors(g["name"])
            self.assertEqual(sorted(tensors), sorted(placeholder_names(g["graph"])), g["name"])
            self.assertEqual(metadata["placeholders"], ",".join(placeholder_names(g["graph"])))
        # fxscope reads every graph of the file, node for node.
        info = cli_json(self, "info", os.path.join(self.out_dir, self.stem + ".json"))
        self.assertEqual([(g["name"], g["nodes"]) for g in info["graphs"]],
                         [(g["name"], len(g["graph"]["nodes"])) for g in doc["graphs"]])


class TestCompileStatic(unittest.TestCase, CompiledCapture):
    stem = "tiny_0"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out_dir = cls.tmp.name
        cls.block, cls.x = make_tiny_block(seed=0)
        compiled = torch.compile(cls.block, backend=fxscope_capture.backend(out_dir=cls.out_dir, name="tiny"))
        with torch.no_grad():
            cls.out = compiled(cls.x)
            cls.expected = cls.block(cls.x)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_program_carries_on_with_eager_results(self):
        self.assertClose(self.out, self.expected, "compiled output")

    def test_dynamo_and_inference_graphs_with_inputs_and_outputs(self):
        self.check_entries(["dynamo", "inference"])
        doc = self.doc()
        self.assertEqual([g["kind"] for g in doc["graphs"]], ["dynamo_output_graph", "aot_inference_graph"])
        self.assertEqual(doc["capture"]["tool"], "fxscope_capture.backend")
        self.assertEqual(doc["capture"]["torch_version"], torch.__version__)
        dynamo = self.entry("dynamo")["graph"]
        self.assertTrue(any(n["op"] == "call_method" for n in dynamo["nodes"]))
        self.assertIn("torch._C._nn.linear", [n["target"] for n in dynamo["nodes"]])
        aten = self.entry("inference")["graph"]
        self.assertTrue(all(n["target"].startswith("torch.ops.") for n in aten["nodes"] if n["op"] == "call_function"))
        self.assertNotIn("symbol_hints", aten)  # static shapes: no symbols
        # Dynamo's inputs at compile time are the input and the weights by their Dynamo names.
        tensors, metadata, *_ = self.tensors("dynamo")
        self.assertEqual(metadata["when"], "compile")
        self.assertTrue(torch.equal(tensors["l_x_"], self.x))
        self.assertTrue(torch.equal(tensors["l_self_modules_attn_modules_wq_parameters_weight_"],
                                    self.block.attn.wq.weight.detach()))

    def test_outputs_files_hold_the_eager_result(self):
        for name in ("dynamo", "inference"):
            outputs, metadata, *_ = self.tensors(name, "outputs")
            self.assertEqual(list(outputs), ["output_0"], name)
            self.assertEqual(metadata["when"], "first call")
            self.assertClose(outputs["output_0"], self.expected, name)

    def test_json_graphs_run_in_torch_to_the_eager_result(self):
        # The JSON alone, run op by op in torch on the saved inputs, gives what the model gives.
        for name in ("dynamo", "inference"):
            tensors, *_ = self.tensors(name)
            with torch.no_grad():
                out, = run_graph(self.entry(name)["graph"], tensors)
            self.assertClose(out, self.expected, name)

    def test_fxscope_runs_both_graphs_on_the_saved_inputs(self):
        for name in ("dynamo", "inference"):
            report = _profile(self, os.path.join(self.out_dir, "tiny_0.json"), name,
                              os.path.join(self.out_dir, self.entry(name)["tensors"]))
            self.assertEqual(report["unfused"]["outputs"], [{"dtype": "Float", "shape": [2, 8, 32]}], name)


class TestCompileDynamic(unittest.TestCase, CompiledCapture):
    """dynamic=True: sizes are symbols (s27, s77, ...); each graph's symbol_hints give their values at trace time, so
    fxscope can run the graph without being told them."""

    stem = "dyn_0"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out_dir = cls.tmp.name
        cls.block, cls.x = make_tiny_block(seed=0)
        cls.x2 = torch.randn(3, 5, 32)
        compiled = torch.compile(cls.block, backend=fxscope_capture.backend(out_dir=cls.out_dir, name="dyn"),
                                 dynamic=True)
        with torch.no_grad():
            cls.out = compiled(cls.x)
            cls.out2 = compiled(cls.x2)  # other sizes, same graphs: no recompile
            cls.expected, cls.expected2 = cls.block(cls.x), cls.block(cls.x2)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_one_graph_serves_every_size(self):
        self.assertClose(self.out, self.expected, "first call")
        self.assertClose(self.out2, self.expected2, "second call, other sizes")
        self.assertEqual(sorted(f for f in os.listdir(self.out_dir) if f.endswith(".json")), ["dyn_0.json"])

    def test_symbol_hints_are_the_traced_sizes(self):
        self.check_entries(["dynamo", "inference"])
        dynamo = self.entry("dynamo")["graph"]
        x_node = next(n for n in dynamo["nodes"] if n["name"] == "l_x_")
        batch, seq, dim = x_node["meta"]["val"]["tensor"]["shape"]
        self.assertIsInstance(batch, str)
        self.assertIsInstance(seq, str)
        self.assertEqual(dim, 32)
        for name in ("dynamo", "inference"):
            self.assertEqual(self.entry(name)["graph"]["symbol_hints"], {batch: 2, seq: 8}, name)
        # The SymInt inputs are saved as 0-d int64 tensors, listed in the metadata's scalars, holding the same sizes.
        tensors, metadata, *_ = self.tensors("inference")
        scalars = metadata["scalars"].split(",")
        self.assertEqual(sorted(int(tensors[s]) for s in scalars), [2, 8])
        aten = self.entry("inference")["graph"]
        self.assertEqual([n["meta"]["val"] for n in aten["nodes"] if n["name"] in scalars],
                         [{"sym_int": batch}, {"sym_int": seq}])

    def test_outputs_and_json_graphs_give_the_eager_result(self):
        for name in ("dynamo", "inference"):
            self.assertClose(self.outputs(name)[0], self.expected, name)
            tensors, metadata, *_ = self.tensors(name)
            with torch.no_grad():
                out, = run_graph(self.entry(name)["graph"], tensors, scalars=metadata["scalars"].split(","))
            self.assertClose(out, self.expected, name)

    def test_fxscope_runs_the_aot_graph_from_its_hints_alone(self):
        # No inputs given: fxscope generates them from meta, sized by the symbol hints.
        report = _profile(self, os.path.join(self.out_dir, "dyn_0.json"), "inference")
        self.assertEqual(report["unfused"]["outputs"], [{"dtype": "Float", "shape": [2, 8, 32]}])

    def test_fxscope_runs_both_graphs_on_the_saved_inputs(self):
        for name in ("inference", "dynamo"):
            report = _profile(self, os.path.join(self.out_dir, "dyn_0.json"), name,
                              os.path.join(self.out_dir, self.entry(name)["tensors"]))
            self.assertEqual(report["unfused"]["outputs"], [{"dtype": "Float", "shape": [2, 8, 32]}], name)


class TestCompileTraining(unittest.TestCase, CompiledCapture):
    stem = "train_0"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out_dir = cls.tmp.name
        block, x = make_tiny_block(seed=0)
        block.train()
        compiled = torch.compile(block, backend=fxscope_capture.backend(out_dir=cls.out_dir, name="train"))
        cls.x = x.clone().requires_grad_()
        cls.out = compiled(cls.x)
        cls.out.sum().backward()
        eager_x = x.clone().requires_grad_()
        eager_block, _ = make_tiny_block(seed=0)
        cls.expected = eager_block.train()(eager_x)
        cls.expected.sum().backward()
        cls.expected_grad = eager_x.grad

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_forward_and_backward_graphs(self):
        self.check_entries(["dynamo", "forward", "backward"])
        self.assertEqual([g["kind"] for g in self.doc()["graphs"]],
                         ["dynamo_output_graph", "aot_forward_graph", "aot_backward_graph"])
        self.assertClose(self.out.detach(), self.expected.detach(), "compiled output")
        self.assertClose(self.x.grad, self.expected_grad, "input gradient")
        self.assertClose(self.outputs("forward")[0], self.expected.detach(), "forward graph's first output")
        # The backward graph returns the gradients of the forward graph's inputs; x's is among them.
        self.assertTrue(any(t.shape == self.x.shape and torch.allclose(t, self.expected_grad, rtol=1e-4, atol=1e-4)
                            for t in self.outputs("backward")))

    def test_fxscope_runs_forward_and_backward_on_the_saved_inputs(self):
        for name in ("forward", "backward"):
            report = _profile(self, os.path.join(self.out_dir, "train_0.json"), name,
                              os.path.join(self.out_dir, self.entry(name)["tensors"]))
            # Outputs that are None (gradients of inputs that need none) are not in the file; fxscope lists tensors.
            self.assertEqual([o["shape"] for o in report["unfused"]["outputs"]],
                             [list(t.shape) for t in self.outputs(name)], name)


class TestBackendOptions(unittest.TestCase, GraphChecks):
    """Small programs: an inner backend whose aot compilers are recorded, and write failures that must not stop the
    program."""

    @staticmethod
    def program(x, w):
        return torch.relu(x @ w) * 2

    def setUp(self):
        torch._dynamo.reset()
        self.x, self.w = torch.randn(4, 8), torch.randn(8, 3)
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_wraps_an_inner_backend(self):
        from torch._dynamo.backends.common import aot_autograd
        from torch._functorch import aot_autograd as aot_module
        from torch._functorch.aot_autograd import make_boxed_func

        seen = []

        def fw(g, _):
            seen.append(len(g.graph.nodes))
            return make_boxed_func(g.forward)

        def inner(gm, example_inputs):
            return aot_autograd(fw_compiler=fw)(gm, example_inputs)

        original = aot_module.aot_module_simplified
        compiled = torch.compile(self.program,
                                 backend=fxscope_capture.backend(out_dir=self.tmp.name, inner=inner, name="wrapped"))
        with torch.no_grad():
            out = compiled(self.x, self.w)
        self.assertTrue(torch.allclose(out, self.program(self.x, self.w)))
        self.assertIs(aot_module.aot_module_simplified, original)  # unwrapped after compiling
        doc = load_json(os.path.join(self.tmp.name, "wrapped_0.json"))
        self.assertEqual([g["name"] for g in doc["graphs"]], ["dynamo", "inference"])
        self.assertEqual(seen, [len(doc["graphs"][1]["graph"]["nodes"])])
        self.assertEqual(doc["capture"]["inner"].rsplit(".", 1)[-1], "inner")

    def test_a_failing_write_warns_and_the_program_carries_on(self):
        blocker = os.path.join(self.tmp.name, "not_a_directory")
        with open(blocker, "w", encoding="utf-8") as f:
            f.write("x")
        compiled = torch.compile(self.program, backend=fxscope_capture.backend(out_dir=os.path.join(blocker, "out")))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with torch.no_grad():
                out = compiled(self.x, self.w)
        self.assertTrue(torch.allclose(out, self.program(self.x, self.w)))
        messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
        self.assertTrue(any("could not write the Dynamo graph" in m for m in messages), messages)

    def test_save_tensors_false_writes_graphs_only(self):
        compiled = torch.compile(self.program,
                                 backend=fxscope_capture.backend(out_dir=self.tmp.name, save_tensors=False))
        with torch.no_grad():
            compiled(self.x, self.w)
        self.assertEqual(os.listdir(self.tmp.name), ["graph_0.json"])
        doc = load_json(os.path.join(self.tmp.name, "graph_0.json"))
        self.assertEqual([("tensors" in g, "outputs" in g) for g in doc["graphs"]], [(False, False)] * 2)


if __name__ == "__main__":
    unittest.main()
