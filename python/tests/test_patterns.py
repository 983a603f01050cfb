"""export_patterns(): registrations handed to Inductor's own register_replacement (torch._inductor.pattern_matcher),
traced by its fwd_only / joint_fwd_bwd, written as fxscope pattern JSON; fxscope-cli loads the files, builds the same
pattern Inductor built, and accepts and rejects the same matches as Inductor's PatternMatcherPass on the same graphs.
torch_npu and torchair are not installed here: their stand-ins (npu_ops) are used, Inductor is the real one."""

import glob
import os
import re
import runpy
import sys
import tempfile
import textwrap
import unittest

import torch
import torch._inductor.pattern_matcher as pm
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

import fxscope_capture
from fxscope_capture import _serialize
from fxscope_capture._files import write_json

from _support import (ADD_RMS_NORM, PATTERNS_DIR, GraphChecks, call_targets, cli_json, load_json, placeholder_names,
                      require_file)


def node_targets(gm):
    return [_serialize.qualified_name(n.target) for n in gm.graph.nodes if n.op == "call_function"]


def inductor_graph(fn, args):
    """fn's aten graph as Inductor's pattern passes see it: make_fx on fake tensors with Inductor's decompositions,
    dead code removed."""
    with torch.no_grad():
        gm = make_fx(fn, select_decomp_table(), tracing_mode="fake")(*args)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def registered_patterns(pattern_pass):
    """The PatternExprs registered in a PatternMatcherPass, in registration order."""
    entries = [e for es in pattern_pass.patterns.values() for e in es]
    seen, out = set(), []
    for e in entries:  # a multi-output pattern is listed under each of its anchors
        if id(e) not in seen:
            seen.add(id(e))
            out.append(e.pattern)
    return out


class PatternChecks(GraphChecks):
    def load(self, path):
        doc = load_json(path)
        self.assertEqual(doc["fxscope_pattern"], 1)
        for which in ("search", "replace"):
            self.check_graph_structure(doc[which])
        self.assertEqual(doc["graphs"], [{"name": "search", "kind": "pattern_search", "graph": doc["search"]},
                                         {"name": "replace", "kind": "pattern_replace", "graph": doc["replace"]}])
        self.assertEqual(doc["torch_version"], torch.__version__)
        return doc

    def check_cli(self, path, node_counts):
        info = cli_json(self, "info", path)
        self.assertEqual([g["nodes"] for g in info["graphs"]], node_counts)

    def check_fxscope_builds_inductors_pattern(self, path):
        """fxscope's pattern, built from the exported search graph, prints as Inductor's PatternExpr does."""
        doc = load_json(path)
        ours = cli_json(self, "patterns", path)["patterns"]
        self.assertEqual(len(ours), 1)
        inductor = doc["inductor_pattern"]
        # fx_to_pattern gives a single-output pattern's root the output node's user count (0), which repr prints and
        # the matcher ignores for outputs (MatchContext.outputs); fxscope leaves it out. Anything else must be equal.
        if not inductor.startswith("MultiOutputPattern("):
            inductor = re.sub(r", _users=0\)$", ")", inductor)
        self.assertEqual(ours[0]["pattern"], inductor, path)


# --------------------------------------------------------------------------------------------------------------


class TestExportTorchAirPattern(unittest.TestCase, PatternChecks):
    @classmethod
    def setUpClass(cls):
        require_file(ADD_RMS_NORM, "the TorchAir example pattern file")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.modules_before = set(sys.modules)
        cls.empty_before = torch.empty
        cls.pattern_pass = pm.PatternMatcherPass()
        cls.paths = fxscope_capture.export_patterns(ADD_RMS_NORM, cls.tmp.name, pattern_pass=cls.pattern_pass)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_one_pattern_with_search_and_replace_graphs(self):
        self.assertEqual([os.path.basename(p) for p in self.paths], ["torchair_add_rms_norm.search_fn.json"])
        doc = self.load(self.paths[0])
        self.assertEqual(doc["name"], "torchair_add_rms_norm.search_fn")
        self.assertEqual(doc["trace_fn"], "torch._inductor.pattern_matcher.fwd_only")
        self.assertEqual(call_targets(doc["search"]),
                         ["torch.ops.aten.add.Tensor", "torch.ops.npu.npu_rms_norm.default", "operator.getitem"])
        self.assertEqual(call_targets(doc["replace"]), ["torch.ops.npu.npu_add_rms_norm.default", "operator.getitem",
                                                        "operator.getitem"])
        self.assertEqual(placeholder_names(doc["search"]), ["x1", "x2", "gamma"])
        self.assertEqual(placeholder_names(doc["replace"]), ["x1", "x2", "gamma"])
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

    def test_registered_with_inductor_as_exported(self):
        patterns = registered_patterns(self.pattern_pass)
        self.assertEqual(len(patterns), 1)
        self.assertEqual(load_json(self.paths[0])["inductor_pattern"], repr(patterns[0]))
        self.check_fxscope_builds_inductors_pattern(self.paths[0])

    def test_stand_ins_are_removed_afterwards(self):
        added = set(sys.modules) - self.modules_before
        self.assertFalse({m for m in added if m.split(".")[0] in ("torch_npu", "torchair")}, added)
        self.assertIs(torch.empty, self.empty_before)
        self.assertFalse(hasattr(torch.Tensor, "npu"))
        self.assertEqual(pm.register_replacement.__module__, "torch._inductor.pattern_matcher")
        self.assertEqual(pm.gen_pattern_and_search_gm.__module__, "torch._inductor.pattern_matcher")


class TestExportJointPattern(unittest.TestCase, PatternChecks):
    """trace_fn=joint_fwd_bwd: the joint forward + backward graph Inductor's joint_fwd_bwd traces, tangents_1 last."""

    FILE = os.path.join(PATTERNS_DIR, "joint", "addmm_training.py")

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.paths = fxscope_capture.export_patterns(cls.FILE, cls.tmp.name)
        cls.doc = load_json(cls.paths[0])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_joint_graph_is_the_one_inductor_traces(self):
        self.assertEqual([os.path.basename(p) for p in self.paths], ["addmm_training.addmm_training.json"])
        doc = self.load(self.paths[0])
        self.assertEqual(doc["trace_fn"], "torch._inductor.pattern_matcher.joint_fwd_bwd")
        # The file's own functions, traced here by Inductor's joint_fwd_bwd directly.
        module = runpy.run_path(self.FILE, run_name="addmm_training_direct")
        example = [torch.empty(8, 16, requires_grad=True), torch.empty(16, 32, requires_grad=True),
                   torch.empty(32, requires_grad=True)]
        search = pm.joint_fwd_bwd(module["addmm_training"], example)
        replace = pm.joint_fwd_bwd(module["addmm_training_replacement"], example)
        self.assertEqual(call_targets(doc["search"]), node_targets(search))
        self.assertEqual(call_targets(doc["replace"]), node_targets(replace))
        self.assertIn("torch.ops.aten.addmm.default", call_targets(doc["replace"]))
        self.assertEqual(placeholder_names(doc["search"]), ["x", "w", "bias", "tangents_1"])
        output = doc["search"]["nodes"][-1]["args"][0]
        self.assertEqual(len(output.get("list", output.get("tuple"))), 4)  # the result, then x', w', bias' gradients
        self.assertTrue(all(e["requires_grad"] for e in doc["example_inputs"]))
        self.check_cli(self.paths[0], [len(search.graph.nodes), len(replace.graph.nodes)])

    def test_fxscope_builds_inductors_pattern(self):
        self.check_fxscope_builds_inductors_pattern(self.paths[0])


class TestExportOtherRegistrations(unittest.TestCase, PatternChecks):
    """Inductor's register_replacement with scalar_workaround, gen_register_replacement, TorchAir's pass manager,
    closures and module globals read by extra_check, an npu op called through torch.ops, and a registration that
    cannot be traced."""

    FUNCTIONS = textwrap.dedent('''
        import torch

        def scaled_add(x, y, alpha):
            return x * alpha + y

        def fused(x, y, alpha):
            return torch.add(y, x, alpha=alpha)

        def mul_relu(a, b):
            return torch.relu(a * b)

        def mul_relu_fused(a, b):
            return torch.clamp_min(a * b, 0)

        def swiglu_search(x):
            a, b = x.chunk(2, dim=-1)
            return torch.nn.functional.silu(a) * b
        ''')

    PATTERNS = FUNCTIONS + textwrap.dedent('''
        import functools
        import torch_npu
        from torch._inductor.pattern_matcher import (Match, PatternMatcherPass, fwd_only, gen_register_replacement,
                                                     register_replacement)
        from torchair.patterns.pattern_pass_manager import _PatternPassManager

        HIDDEN = 4096

        def check(match: Match):
            return match.kwargs["x"].meta["val"].shape[-1] == HIDDEN

        register_replacement(scaled_add, fused, [torch.empty(2, 8), torch.empty(2, 8)], fwd_only, PatternMatcherPass(),
                             extra_check=check, scalar_workaround={"alpha": 0.5})

        gen_register_replacement("my_mul_relu", mul_relu, mul_relu_fused, [torch.empty(4), torch.empty(4)], fwd_only,
                                 [])

        def make(limit):
            def swiglu_replace(x):
                return torch.ops.npu.npu_swiglu.default(x, -1)

            def swiglu_check(match):
                return match.kwargs["x"].meta["val"].shape[-1] <= limit
            return swiglu_replace, swiglu_check

        replace, check2 = make(limit=8192)
        manager = _PatternPassManager()
        manager.register_pattern(swiglu_search, replace, (torch.empty(4, 16, device="npu", dtype=torch.bfloat16),),
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
        cls.pattern_pass = pm.PatternMatcherPass()
        cls.originals = (pm.register_replacement, pm.gen_register_replacement, pm.gen_pattern_and_search_gm)
        with open(os.path.join(cls.tmp.name, "functions.py"), "w", encoding="utf-8") as f:
            f.write(cls.FUNCTIONS)
        cls.functions = runpy.run_path(os.path.join(cls.tmp.name, "functions.py"))
        try:
            fxscope_capture.export_patterns(cls.pattern_file, cls.out, pattern_pass=cls.pattern_pass)
            cls.error = None
        except fxscope_capture.PatternExportError as e:
            cls.error = e

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.out, name + ".json")

    def test_failed_registration_is_reported_and_the_others_written(self):
        self.assertIsNotNone(self.error)
        self.assertEqual(len(self.error.errors), 1)
        self.assertRegex(self.error.errors[0], r"my_patterns\.py:\d+: broken: AttributeError: .*nonexistent_method")
        self.assertEqual([os.path.basename(p) for p in self.error.written],
                         ["my_patterns.scaled_add.json", "my_mul_relu.json", "my_patterns.swiglu_search.json"])

    def test_inductor_registration_with_scalar_workaround(self):
        doc = self.load(self.path("my_patterns.scaled_add"))
        self.assertEqual(doc["registered_with"], "torch._inductor.pattern_matcher.register_replacement")
        self.assertFalse(doc["stream_check"])
        self.assertEqual(doc["argnames"], ["x", "y", "alpha"])
        self.assertEqual(doc["scalar_workaround"], {"alpha": 0.5})
        self.assertEqual(doc["example_inputs"][2], {"name": "alpha", "value": 0.5})
        self.assertEqual(placeholder_names(doc["search"]), ["x", "y", "alpha"])
        args = [torch.empty(2, 8), torch.empty(2, 8), 0.5]
        self.assertEqual(call_targets(doc["search"]), node_targets(pm.fwd_only(self.functions["scaled_add"], args)))
        self.assertEqual(call_targets(doc["replace"]), node_targets(pm.fwd_only(self.functions["fused"], args)))
        mul = next(n for n in doc["search"]["nodes"] if n["target"] == "torch.ops.aten.mul.Tensor")
        self.assertEqual(mul["args"], [{"node": "x"}, 0.5])
        self.assertEqual(doc["extra_check_globals"], {"HIDDEN": 4096})
        self.check_cli(self.path("my_patterns.scaled_add"),
                       [len(doc["search"]["nodes"]), len(doc["replace"]["nodes"])])
        self.check_fxscope_builds_inductors_pattern(self.path("my_patterns.scaled_add"))

    def test_gen_register_replacement_is_traced_under_its_unique_name(self):
        doc = self.load(self.path("my_mul_relu"))
        self.assertEqual(doc["name"], "my_mul_relu")
        self.assertEqual(doc["registered_with"], "torch._inductor.pattern_matcher.gen_register_replacement")
        self.assertIsNone(doc["search_fn_pattern"])
        self.assertIsNone(doc["extra_check"])
        args = [torch.empty(4), torch.empty(4)]
        self.assertEqual(call_targets(doc["search"]), node_targets(pm.fwd_only(self.functions["mul_relu"], args)))
        self.check_fxscope_builds_inductors_pattern(self.path("my_mul_relu"))

    def test_pass_manager_registration_with_closure_and_npu_op(self):
        doc = self.load(self.path("my_patterns.swiglu_search"))
        self.assertEqual(doc["registered_with"],
                         "torchair.patterns.pattern_pass_manager._PatternPassManager.register_pattern")
        self.assertTrue(doc["stream_check"])
        self.assertEqual(doc["extra_check"], "swiglu_check")
        self.assertEqual(doc["extra_check_qualname"], "make.<locals>.swiglu_check")
        self.assertEqual(doc["extra_check_closure"], {"limit": 8192})
        # Inductor's decompositions apply (silu becomes its aten formula), as in the graphs it matches.
        x = torch.empty(4, 16, dtype=torch.bfloat16)
        self.assertEqual(call_targets(doc["search"]), node_targets(pm.fwd_only(self.functions["swiglu_search"], [x])))
        self.assertEqual(call_targets(doc["replace"]), ["torch.ops.npu.npu_swiglu.default"])
        out = next(n for n in doc["replace"]["nodes"] if n["op"] == "call_function")["meta"]["val"]["tensor"]
        self.assertEqual((out["shape"], out["dtype"]), ([4, 8], "torch.bfloat16"))
        self.assertEqual(doc["example_inputs"][0]["val"]["tensor"]["device"], "npu")
        self.assertEqual(doc["example_inputs"][0]["traced_on"], "cpu")
        self.check_fxscope_builds_inductors_pattern(self.path("my_patterns.swiglu_search"))

    def test_registrations_land_in_the_given_pass_and_nowhere_else(self):
        patterns = registered_patterns(self.pattern_pass)
        docs = [load_json(p) for p in self.error.written]
        self.assertEqual([repr(p) for p in patterns], [d["inductor_pattern"] for d in docs])
        self.assertEqual((pm.register_replacement, pm.gen_register_replacement, pm.gen_pattern_and_search_gm),
                         self.originals)


# --------------------------------------------------------------------------------------------------------------


class TestPatternTextLikeInductor(unittest.TestCase, PatternChecks):
    """Every pattern file of resources/patterns, exported: fxscope's pattern is Inductor's."""

    def test_every_resource_pattern(self):
        files = sorted(glob.glob(os.path.join(PATTERNS_DIR, "*.py"))) + [
            os.path.join(PATTERNS_DIR, "joint", "addmm_training.py")]
        self.assertGreaterEqual(len(files), 7)
        with tempfile.TemporaryDirectory() as tmp:
            for f in files:
                paths = fxscope_capture.export_patterns(f, tmp)
                self.assertTrue(paths, f)
                for p in paths:
                    self.check_fxscope_builds_inductors_pattern(p)


class TestMatchLikeInductor(unittest.TestCase, PatternChecks):
    """fxscope-cli match on a graph against Inductor's PatternMatcherPass (holding the same registrations) applied to
    the same graph: the same number of accepted matches, covering the nodes Inductor replaced."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def export(self, pattern_file):
        pattern_pass = pm.PatternMatcherPass()
        paths = fxscope_capture.export_patterns(pattern_file, os.path.join(self.tmp.name, "patterns"),
                                                pattern_pass=pattern_pass)
        return paths, pattern_pass

    def compare(self, gm, paths, pattern_pass, accepted, rejected_by_check):
        graph_path = os.path.join(self.tmp.name, "graph.json")
        write_json(graph_path, _serialize.document([{"name": "g", "kind": "make_fx",
                                                     "graph": _serialize.graph_json(gm)}]))
        report = cli_json(self, "match", graph_path, "--patterns", *paths)
        candidates = [c for p in report["patterns"] for c in p["candidates"]]
        ours = [set(c["nodes"]) for c in candidates if c["accepted"]]
        checked = [c for c in candidates if not c["accepted"] and c["stage"] == "extra_check"]
        before = {n.name for n in gm.graph.nodes}
        replaced = pattern_pass.apply(gm.graph)
        removed = before - {n.name for n in gm.graph.nodes}
        self.assertEqual(replaced, accepted, "Inductor's matches")
        self.assertEqual(len(ours), accepted, f"fxscope's accepted matches: {candidates}")
        self.assertEqual(set().union(*ours), removed)
        self.assertEqual(len(checked), rejected_by_check, candidates)

    def test_torchair_add_rms_norm(self):
        paths, pattern_pass = self.export(require_file(ADD_RMS_NORM, "the TorchAir example pattern file"))
        fxscope_capture.npu_ops.define_known_ops()

        def program(a1, a2, g1, b1, b2, g2):
            x = a1 + a2
            y, _ = torch.ops.npu.npu_rms_norm(x, g1)
            u = b1 + b2
            v, _ = torch.ops.npu.npu_rms_norm(u, g2)
            return y, x, v, u

        h = torch.float16
        args = [torch.randn(1, 2, 7168, dtype=h), torch.randn(1, 2, 7168, dtype=h), torch.randn(7168, dtype=h),
                torch.randn(1, 2, 4096, dtype=h), torch.randn(1, 2, 4096, dtype=h), torch.randn(4096, dtype=h)]
        # extra_check accepts a hidden size of 7168 only.
        self.compare(inductor_graph(program, args), paths, pattern_pass, accepted=1, rejected_by_check=1)

    def test_addmm_with_a_bias_and_a_shared_output(self):
        paths, pattern_pass = self.export(os.path.join(PATTERNS_DIR, "addmm.py"))

        def program(a, b, bias, c, d, other):
            y = torch.mm(a, b) + bias
            z = torch.mm(c, d) + other  # float32 "bias" on a float16 product: extra_check rejects it
            return y * 2, y, z

        h = torch.float16
        args = [torch.randn(4, 8, dtype=h), torch.randn(8, 16, dtype=h), torch.randn(16, dtype=h),
                torch.randn(4, 8, dtype=h), torch.randn(8, 16, dtype=h), torch.randn(16)]
        self.compare(inductor_graph(program, args), paths, pattern_pass, accepted=1, rejected_by_check=1)

    def test_joint_addmm_training(self):
        paths, pattern_pass = self.export(os.path.join(PATTERNS_DIR, "joint", "addmm_training.py"))

        def mlp(x, w1, b1, w2, b2):
            h = torch.relu(torch.mm(x, w1) + b1)
            return torch.mm(h.double(), w2) + b2  # float64: extra_check rejects the second layer

        torch.manual_seed(0)
        inputs = [torch.randn(4, 16, requires_grad=True), torch.randn(16, 64, requires_grad=True),
                  torch.randn(64, requires_grad=True), torch.randn(64, 8, dtype=torch.float64, requires_grad=True),
                  torch.randn(8, dtype=torch.float64, requires_grad=True)]
        self.compare(pm.joint_fwd_bwd(mlp, inputs), paths, pattern_pass, accepted=1, rejected_by_check=1)


if __name__ == "__main__":
    unittest.main()
