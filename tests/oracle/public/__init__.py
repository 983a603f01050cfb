"""The oracle's public-style suites (issue 22): pattern files written the way public pass code is written
(Inductor's fx_passes, vLLM, vLLM-Ascend, TorchAir), each run on several graphs.

A suite is a module here, SUITE.py, with its pattern files in the folder SUITE/:
    GRAPHS = {"suite_graph_name": builder}   # builder(symbolic=False, **kw) -> GraphModule with meta["val"]
    def cases(): ...                          # oracle cases (cases._c), ids starting with "SUITE."
Graph names are global: prefix them with the suite's name. models.build() finds them here."""

import importlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def suite_names():
    return sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))


def suites():
    return [importlib.import_module(f"public.{name}") for name in suite_names()]


def graph_builder(name):
    """(builder, the defining module's file) for a suite's graph, or (None, None)."""
    for module in suites():
        builder = getattr(module, "GRAPHS", {}).get(name)
        if builder is not None:
            return builder, module.__file__
    return None, None


def cases():
    out = []
    for module in suites():
        prefix = module.__name__.split(".")[-1] + "."
        for c in module.cases():
            if not c["id"].startswith(prefix):
                raise SystemExit(f"case {c['id']} of suite {prefix[:-1]} must start with {prefix!r}")
            out.append(c)
    return out


def pattern_dir(suite):
    """The suite's pattern files, as a path from the repository root (cases name files relative to it)."""
    return f"tests/oracle/public/{suite}/"
