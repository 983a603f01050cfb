"""fxscope_capture._torch_graph (fxscope JSON -> GraphModule) and inductor_check (Inductor's real pass, observed)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

from fxscope_capture import _serialize, _torch_graph, inductor_check
from _support import PATTERNS_DIR, REPO

ORACLE_PATTERNS = os.path.join(REPO, "tests", "oracle", "patterns")


def rms(x, w):
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * h.to(x.dtype)


def dump(fn, args, tmp, symbolic=False):
    gm = make_fx(fn, select_decomp_table(), tracing_mode="symbolic" if symbolic else "fake")(*args)
    path = os.path.join(tmp, "g.json")
    with open(path, "w") as f:
        json.dump(_serialize.document([{"name": "g", "kind": "aten", "graph": _serialize.graph_json(gm)}]), f)
    return gm, path


class LoaderTest(unittest.TestCase):
    def test_round_trip_keeps_names_targets_and_vals(self):
        with tempfile.TemporaryDirectory() as tmp:
            x, w = torch.randn(2, 4, 16, dtype=torch.float16), torch.randn(16, dtype=torch.float16)
            gm, path = dump(rms, (x, w), tmp)
            loaded, syms = _torch_graph.load_graph_module(path)
            self.assertEqual([n.name for n in gm.graph.nodes], [n.name for n in loaded.graph.nodes])
            self.assertEqual([n.target for n in gm.graph.nodes if n.op == "call_function"],
                             [n.target for n in loaded.graph.nodes if n.op == "call_function"])
            self.assertEqual(_torch_graph.canonical(gm, with_meta=True), _torch_graph.canonical(loaded, True))
            for n in loaded.graph.nodes:
                if n.op == "call_function":
                    self.assertIsInstance(n.meta["val"], torch._subclasses.FakeTensor)
                    self.assertEqual(n.meta["tensor_meta"].shape, n.meta["val"].shape)
            ok, _ = _torch_graph.compare_outputs(gm(x, w), _torch_graph.run(loaded, [x, w]))
            self.assertTrue(ok)

    def test_symbolic_sizes_share_one_shape_env(self):
        with tempfile.TemporaryDirectory() as tmp:
            x, w = torch.randn(3, 5, 16, dtype=torch.float16), torch.randn(16, dtype=torch.float16)
            _, path = dump(rms, (x, w), tmp, symbolic=True)
            loaded, syms = _torch_graph.load_graph_module(path)
            vals = [n.meta["val"] for n in loaded.graph.nodes if isinstance(n.meta.get("val"), torch.Tensor)]
            self.assertTrue(any(isinstance(d, torch.SymInt) for d in vals[0].shape))
            envs = {id(d.node.shape_env) for v in vals for d in v.shape if isinstance(d, torch.SymInt)}
            self.assertEqual(len(envs), 1)
            self.assertTrue({3, 5} <= set(syms.hints.values()), syms.hints)

    def test_unknown_op_is_a_clear_error(self):
        doc = {"graphs": [{"name": "g", "graph": {"nodes": [
            {"name": "x", "op": "placeholder", "target": "x", "args": [], "kwargs": {}},
            {"name": "y", "op": "call_function", "target": "torch.ops.nosuch.op.default", "args": [{"node": "x"}],
             "kwargs": {}}]}}]}
        with self.assertRaisesRegex(_torch_graph.GraphLoadError, "nosuch"):
            _torch_graph.load_graph_module(doc)


class InductorCheckTest(unittest.TestCase):
    def run_check(self, fn, args, patterns):
        with tempfile.TemporaryDirectory() as tmp:
            _, path = dump(fn, args, tmp)
            return inductor_check.check(path, patterns)

    def test_rms_norm_replaced_and_second_registration_sees_erased_anchor(self):
        x, w = torch.randn(1, 4, 16, dtype=torch.float16), torch.randn(16, dtype=torch.float16)
        r = self.run_check(rms, (x, w), [os.path.join(PATTERNS_DIR, "rms_norm.py")])
        self.assertIsNone(r["error"])
        first, second = r["patterns"]
        self.assertEqual([c["stage"] for c in first["candidates"] if c["anchor"] == "mul_1"], ["replaced"])
        self.assertEqual({c["stage"] for c in second["candidates"]}, {"erased"})
        self.assertTrue(any("npu_rms_norm" in line for line in r["graph_after"]))
        self.assertTrue(r["outputs"]["ran"] and r["outputs"]["match"])

    def test_extra_check_false_and_generic_reasons(self):
        x, w = torch.randn(1, 4, 8, dtype=torch.float16), torch.randn(8, dtype=torch.float16)
        r = self.run_check(rms, (x, w), [os.path.join(PATTERNS_DIR, "rms_norm.py")])
        stages = {c["anchor"]: c for c in r["patterns"][0]["candidates"]}
        self.assertEqual(stages["mul"]["stage"], "generic")
        self.assertIn("function_mismatch", stages["mul"]["reason"])
        # 8 f16 values are 16 bytes, not a multiple of 32: the extra_check decides (the specific pattern matched)
        self.assertEqual(stages["mul_1"]["stage"], "extra_check")

    def test_scalar_workaround_keeps_the_matched_value(self):
        r = self.run_check(lambda x: torch.relu(x + 0.5), (torch.randn(4, 4),),
                           [os.path.join(ORACLE_PATTERNS, "eps_workaround.py")])
        self.assertTrue(any("aten.sub.Tensor(%0, -0.5)" in line for line in r["graph_after"]), r["graph_after"])

    def test_raising_extra_check_is_an_error_with_its_line(self):
        r = self.run_check(lambda x: 0.5 * x * (1.0 + torch.erf(x * 0.7071067811865476)), (torch.randn(4, 8),),
                           [os.path.join(ORACLE_PATTERNS, "raising_check.py")])
        self.assertEqual(r["error"]["type"], "KeyError")
        self.assertIn("raising_check.py:", r["error"]["where"])
        self.assertIn("error", {c["stage"] for c in r["patterns"][0]["candidates"]})

    def test_command_line_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, path = dump(lambda x: torch.relu(x + 0.5), (torch.randn(4, 4),), tmp)
            p = subprocess.run([sys.executable, "-m", "fxscope_capture.inductor_check", path, "--patterns",
                                os.path.join(ORACLE_PATTERNS, "eps_workaround.py"), "--json"],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            doc = json.loads(p.stdout)
            self.assertEqual(doc["patterns"][0]["candidates"][0]["stage"], "replaced")


if __name__ == "__main__":
    unittest.main()
