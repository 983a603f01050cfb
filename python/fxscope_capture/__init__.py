"""fxscope_capture: get graphs, inputs, weights and fusion patterns out of PyTorch programs, for fxscope.

    import fxscope_capture
    model = torch.compile(model, backend=fxscope_capture.backend(out_dir="fx"))     # torch >= 2.0
    fxscope_capture.capture(model, x, out_dir="fx", name="model")                   # any torch, via make_fx
    fxscope_capture.export_patterns("my_patterns.py", out_dir="fx/patterns")        # register_replacement files

Depends on torch and the standard library only. See README.md for the files written and their formats.
"""

from ._backend import backend
from ._capture import CaptureResult, capture
from .npu_ops import register_npu_op
from ._patterns import PatternExportError, export_patterns
from .safetensors import load_tensors, save_tensors

__version__ = "0.1.0"
__all__ = ["backend", "capture", "CaptureResult", "export_patterns", "PatternExportError", "register_npu_op",
           "load_tensors", "save_tensors"]
