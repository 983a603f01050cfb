"""The torch host's pattern cache (fxscope_capture.pattern_cache): a second load of the same source answers from disk
without tracing, the first check then registers it for real, and its decision is the one an uncached host gives;
a change to the source is a miss."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from _support import REPO
from fxscope_capture import host as host_module

PATTERN = os.path.join(REPO, "tests", "data", "host", "patterns", "linear_t.py")
GRAPH = os.path.join(REPO, "tests", "data", "host", "linear_t.json")


OWN_OP_SOURCE = '''
import torch
from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, register_replacement


@torch.library.custom_op("fxscope_cache_test::scale", mutates_args=())
def scale(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@scale.register_fake
def _(x):
    return torch.empty_like(x)


pm_pass = PatternMatcherPass()


def search(x):
    return x * 2


def replace(x):
    return torch.ops.fxscope_cache_test.scale(x)


register_replacement(search, replace, [torch.empty(4, 8)], fwd_only, pm_pass)
'''


class HostCacheTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fxscope_cache_test_")
        self.cache = os.path.join(self.dir, "cache")
        self.source = os.path.join(self.dir, "src", "linear_t.py")
        os.makedirs(os.path.dirname(self.source))
        shutil.copy(PATTERN, self.source)
        self.saved = os.environ.get("FXSCOPE_PATTERN_CACHE")
        os.environ["FXSCOPE_PATTERN_CACHE"] = self.cache
        with open(GRAPH, encoding="utf-8") as f:
            self.graph = json.load(f)["graphs"][0]["graph"]

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("FXSCOPE_PATTERN_CACHE", None)
        else:
            os.environ["FXSCOPE_PATTERN_CACHE"] = self.saved
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_host(self):
        """A fresh host: load, mirror, and a check of every pattern at the graph's output anchor ("add")."""
        h = host_module.Host()
        load = h.handle({"id": 1, "cmd": "load", "sources": [self.source]})
        self.assertTrue(load["ok"], load.get("error"))
        registered_at_load = len(h.patterns)
        self.assertTrue(h.handle({"id": 2, "cmd": "mirror", "graph": self.graph})["ok"])
        checks = [h.handle({"id": 3, "cmd": "check", "pattern": p["index"], "anchor": "add"})
                  for p in load["patterns"]]
        for c in checks:
            self.assertTrue(c["ok"], c.get("error"))
            c.pop("seconds", None)
            c.pop("id", None)
        return load, registered_at_load, checks

    def test_second_load_comes_from_the_cache(self):
        first, registered, checks = self.run_host()
        self.assertFalse(first.get("cached", False))
        self.assertEqual(registered, len(first["patterns"]))  # traced at load
        self.assertEqual(len(os.listdir(self.cache)), 1)

        second, registered, cached_checks = self.run_host()
        self.assertTrue(second["cached"])
        self.assertEqual(registered, 0)  # nothing traced until a check needed it
        self.assertEqual([p["pattern"] for p in second["patterns"]], [p["pattern"] for p in first["patterns"]])
        self.assertEqual(cached_checks, checks)  # the check registered the file and decided as before
        self.assertEqual([c["stage"] for c in checks], ["accepted"])

        with open(self.source, "a", encoding="utf-8") as f:
            f.write("\n# changed\n")
        third, registered, _ = self.run_host()
        self.assertFalse(third.get("cached", False))
        self.assertEqual(registered, len(third["patterns"]))

    def test_graph_with_the_sources_own_ops_after_a_cached_load(self):
        """A graph whose nodes are torch.library ops the pattern file defines mirrors from a cached load too (the
        sources run before the graph is rebuilt), in a fresh process each time as the CLI starts it."""
        source = os.path.join(self.dir, "src", "own_op.py")
        with open(source, "w", encoding="utf-8") as f:
            f.write(OWN_OP_SOURCE)
        graph = {"nodes": [
            {"name": "x", "op": "placeholder", "target": "x", "args": [], "kwargs": {},
             "meta": {"val": {"tensor": {"dtype": "torch.float32", "shape": [4, 8], "stride": [8, 1]}}}},
            {"name": "scaled", "op": "call_function", "target": "torch.ops.fxscope_cache_test.scale.default",
             "args": [{"node": "x"}], "kwargs": {},
             "meta": {"val": {"tensor": {"dtype": "torch.float32", "shape": [4, 8], "stride": [8, 1]}}}},
            {"name": "output", "op": "output", "target": "output", "args": [{"node": "scaled"}], "kwargs": {}}]}
        requests = [{"id": 1, "cmd": "load", "sources": [source]}, {"id": 2, "cmd": "mirror", "graph": graph},
                    {"id": 3, "cmd": "shutdown"}]
        for cached in (False, True):
            p = subprocess.run([sys.executable, "-m", "fxscope_capture.host"], capture_output=True, text=True,
                               input="".join(json.dumps(r) + "\n" for r in requests), timeout=300,
                               env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")))
            replies = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
            by_id = {r.get("id"): r for r in replies}
            self.assertEqual(by_id[1].get("cached", False), cached)
            self.assertTrue(by_id[2]["ok"], by_id[2].get("error"))

    def test_turned_off(self):
        os.environ["FXSCOPE_PATTERN_CACHE"] = "0"
        self.run_host()
        second, _, _ = self.run_host()
        self.assertFalse(second.get("cached", False))
        self.assertFalse(os.path.exists(self.cache))


if __name__ == "__main__":
    unittest.main()
