"""`pip install ./python` into a fresh environment that has only torch, then the README's capture lines: the package
must bring everything the capture needs (safetensors.torch needs numpy), so every graph's tensors are written, and
fxscope-cli (FXSCOPE_CLI) reads them back.

The fresh environment is `python -m venv` (no system site packages) from the interpreter that runs this file, the
Python whose torch fxscope links. Its torch is not installed again (a CPU wheel is 190 MB, a CUDA one several GB):
a .pth file adds a folder holding links to torch and the distributions torch requires, nothing else, so pip sees
torch installed and must fetch whatever else fxscope_capture declares, from the package index pip is configured with
(as scripts/python-env.sh fetches torch for .venv). python/ is copied first: an in-tree build would write into the
checkout. Run by ctest as python_fresh_install; not named test_*.py, so python_capture's discovery leaves it out.
"""

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The README's lines (README.md, "Capture your own graphs"), around a small model of the user's.
CAPTURE = """
import torch, fxscope_capture

model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8))
model = torch.compile(model, backend=fxscope_capture.backend(out_dir="fx"))   # Dynamo + AOT graphs, inputs, outputs
with torch.no_grad():
    model(torch.randn(4, 16))
"""


def _requirement_name(text):
    """The distribution a requirement names, or None when only an extra asks for it."""
    if re.search(r"extra\s*==", text):
        return None
    return re.match(r"[A-Za-z0-9._-]+", text).group(0)


def _marker_holds(text):
    """Whether a requirement's environment marker holds here; True where no packaging module is at hand to say."""
    try:
        from packaging.requirements import Requirement
    except ImportError:
        try:
            from pip._vendor.packaging.requirements import Requirement
        except ImportError:
            return True
    req = Requirement(text)
    return req.marker is None or req.marker.evaluate({"extra": ""})


def torch_closure():
    """torch and every installed distribution it requires, transitively."""
    seen, todo = {}, ["torch"]
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a requirement whose marker excludes this platform or Python
        seen[key] = dist
        for req in dist.requires or []:
            dep = _requirement_name(req)
            if dep and _marker_holds(req):
                todo.append(dep)
    return list(seen.values())


def link_distributions(dists, folder):
    """Links each distribution's top-level files and folders (its packages, modules and .dist-info) into folder."""
    os.makedirs(folder)
    for dist in dists:
        root = dist.locate_file("")
        tops = {str(f).replace("\\", "/").split("/")[0] for f in dist.files or []}
        for top in sorted(t for t in tops if t and t != ".."):
            src, dst = os.path.join(root, top), os.path.join(folder, top)
            if os.path.exists(src) and not os.path.lexists(dst):
                os.symlink(src, dst)


class FreshInstall(unittest.TestCase):
    def test_pip_install_then_capture_writes_tensors_fxscope_reads(self):
        cli = os.environ.get("FXSCOPE_CLI") or os.path.join(REPO, "build", "bin", "fxscope-cli")
        self.assertTrue(os.access(cli, os.X_OK), f"fxscope-cli not found at {cli} (ctest sets FXSCOPE_CLI)")
        closure = torch_closure()
        names = sorted(d.metadata["Name"].lower() for d in closure)
        self.assertIn("torch", names)
        # The environment must lack what is under test, or it proves nothing.
        for absent in ("numpy", "safetensors", "fxscope-capture"):
            self.assertNotIn(absent, names, f"torch requires {absent} here: the fresh environment would have it")

        with tempfile.TemporaryDirectory(prefix="fxscope_fresh_") as tmp:
            link_distributions(closure, os.path.join(tmp, "torch-only"))
            venv = os.path.join(tmp, "venv")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True, timeout=300)
            python = os.path.join(venv, "bin", "python")
            site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  check=True, capture_output=True, text=True).stdout.strip()
            with open(os.path.join(site, "torch_only.pth"), "w", encoding="utf-8") as f:
                f.write(os.path.join(tmp, "torch-only") + "\n")
            env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
            env["PYTHONNOUSERSITE"] = "1"
            found = subprocess.run([python, "-c", "import torch, importlib.util as u; "
                                    "print(u.find_spec('numpy') is None and u.find_spec('safetensors') is None)"],
                                   capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(found.stdout.strip(), "True", found.stderr)

            package = os.path.join(tmp, "python")
            shutil.copytree(os.path.join(REPO, "python"), package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "tests"))
            pip = subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", package],
                                 capture_output=True, text=True, env=env, cwd=tmp, timeout=900)
            self.assertEqual(pip.returncode, 0, f"pip install ./python failed:\n{pip.stdout[-3000:]}{pip.stderr}")

            work = os.path.join(tmp, "work")
            os.makedirs(work)
            run = subprocess.run([python, "-W", "always", "-c", CAPTURE], capture_output=True, text=True, env=env,
                                 cwd=work, timeout=600)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertNotIn("could not write", run.stderr)

            out = os.path.join(work, "fx")
            with open(os.path.join(out, "graph_0.json"), encoding="utf-8") as f:
                doc = json.load(f)
            graphs = [g["name"] for g in doc["graphs"]]
            self.assertIn("inference", graphs)
            for g in doc["graphs"]:
                for key in ("tensors", "outputs"):
                    self.assertIn(key, g, f"graph {g['name']}: no {key} file written:\n{run.stderr}")
                    self.assertTrue(os.path.getsize(os.path.join(out, g[key])) > 0)

            # fxscope reads what was captured: the graphs, then the inference graph run on its captured inputs
            # with the outputs PyTorch gave as the expected ones.
            info = subprocess.run([cli, "info", os.path.join(out, "graph_0.json"), "--json"], capture_output=True,
                                  text=True, timeout=300)
            self.assertEqual(info.returncode, 0, info.stderr)
            self.assertEqual([g["name"] for g in json.loads(info.stdout)["graphs"]], graphs)
            entry = next(g for g in doc["graphs"] if g["name"] == "inference")
            profile = subprocess.run([cli, "profile", os.path.join(out, "graph_0.json"), "--graph", "inference",
                                      "--inputs", os.path.join(out, entry["tensors"]),
                                      "--expected", os.path.join(out, entry["outputs"]),
                                      "--iters", "1", "--warmup", "0", "--json"],
                                     capture_output=True, text=True, timeout=300)
            self.assertEqual(profile.returncode, 0, profile.stderr)
            report = json.loads(profile.stdout)
            self.assertIs(report["expected"]["outputs_match"], True, profile.stdout[:3000])


if __name__ == "__main__":
    unittest.main(verbosity=2)
