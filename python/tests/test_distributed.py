"""fxscope_capture.distributed: a tensor-parallel MLP captured on 2 Gloo ranks (torch.multiprocessing), one graph,
inputs and outputs file per rank, whose collectives are the graph's own nodes; fxscope-cli runs both ranks on its own
process group and gets PyTorch's outputs on each, unfused and fused with the mm + all_reduce pattern."""

import json
import os
import tempfile
import unittest

import torch

from fxscope_capture.distributed import capture_ranks
from fxscope_capture.examples.tp_mlp import build
from fxscope_capture.npu_ops import npu_op

from _support import PATTERNS_DIR, cli


class TestDistributedCapture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.results = capture_ranks(build, world_size=2, out_dir=cls.dir.name, name="tp_mlp")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_one_graph_per_rank_with_its_collectives(self):
        self.assertEqual(len(self.results), 2)
        for rank, result in enumerate(self.results):
            self.assertTrue(result["graph_matches_eager"])
            self.assertEqual(result["group_name"], "0")
            with open(result["json_path"]) as f:
                text = f.read()
            self.assertIn("_c10d_functional.all_reduce.default", text)
            self.assertIn("_c10d_functional.wait_tensor.default", text)
            self.assertTrue(os.path.exists(result["tensors_path"]))

    def test_ranks_hold_different_shards_and_equal_outputs(self):
        from safetensors.torch import load_file
        w = [load_file(r["tensors_path"])["w1"] for r in self.results]
        self.assertFalse(torch.equal(w[0], w[1]))  # column shards
        out = [load_file(r["outputs_path"])["output_0"] for r in self.results]
        torch.testing.assert_close(out[0], out[1])  # replicated after the all_reduce

    def test_fxscope_runs_both_ranks_unfused_and_fused(self):
        stem = os.path.join(self.dir.name, "tp_mlp_rank{r}")
        run = cli("profile", stem + ".json", "--ranks", "2", "--inputs", stem + ".safetensors", "--expected",
                  stem + ".outputs.safetensors", "--patterns", os.path.join(PATTERNS_DIR, "mm_all_reduce.py"),
                  "--iters", "2", "--json", timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        report = json.loads(run.stdout)
        self.assertTrue(report["expected_match"])
        self.assertTrue(report["outputs_match"])
        self.assertEqual([r["rank"] for r in report["per_rank"]], [0, 1])

    def test_npu_stand_in_traces_under_fake_tensors(self):
        op = npu_op("npu_mm_all_reduce_base")
        from torch._subclasses.fake_tensor import FakeTensorMode
        with FakeTensorMode():
            y = op(torch.empty(4, 8), torch.empty(8, 3), "0", reduce_op="sum")
        self.assertEqual(tuple(y.shape), (4, 3))


if __name__ == "__main__":
    unittest.main()
