"""fxscope_capture: get graphs, inputs, weights and fusion patterns out of PyTorch 2.x programs, for fxscope.

    import fxscope_capture
    model = torch.compile(model, backend=fxscope_capture.backend(out_dir="fx"))     # Dynamo + AOT graphs
    fxscope_capture.capture(model, x, out_dir="fx", name="model")                   # one aten graph, via make_fx
    fxscope_capture.export_patterns("my_patterns.py", out_dir="fx/patterns")        # register_replacement files

Needs torch >= 2.1 and safetensors (pip install ./python from the fxscope checkout). See README.md for the files
written and their formats.
"""

import torch as _torch


def _torch_version():
    try:
        return tuple(int(part) for part in _torch.__version__.split("+")[0].split(".")[:2])
    except ValueError:  # a development build ("2.14.0a0+git...") still parses; anything else is let through
        return (99, 0)


if _torch_version() < (2, 1):
    raise ImportError(
        f"fxscope_capture needs torch >= 2.1 (torch.compile, torch._inductor.pattern_matcher); this interpreter has "
        f"torch {_torch.__version__} from {_torch.__file__}. Install torch 2.x into the environment you capture with "
        f"(pip install 'torch>=2.1'), or use fxscope's .venv (scripts/python-env.sh).")

from ._backend import backend  # noqa: E402
from ._capture import CaptureResult, capture  # noqa: E402
from ._patterns import PatternExportError, export_patterns  # noqa: E402
from ._tensors import load_tensors, save_tensors  # noqa: E402
from .npu_ops import register_npu_op  # noqa: E402

__version__ = "0.2.0"
__all__ = ["backend", "capture", "CaptureResult", "export_patterns", "PatternExportError", "register_npu_op",
           "load_tensors", "save_tensors"]
