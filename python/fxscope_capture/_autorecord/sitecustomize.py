"""Put on PYTHONPATH by `python -m fxscope_capture.record` (or its --print-env): every Python process the recorded
program starts records too, into $FXSCOPE_RECORD. The environment's own sitecustomize, if any, still runs."""

import importlib
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_saved_path = list(sys.path)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
_self = sys.modules.pop("sitecustomize")
try:
    importlib.import_module("sitecustomize")  # the one this file shadows
except ImportError:
    pass
finally:
    sys.path[:] = _saved_path
    # With none to shadow, this module must stay: site's import of it fails (KeyError) without its entry.
    sys.modules.setdefault("sitecustomize", _self)


def _start():
    try:
        import fxscope_capture.record as _record

        _record.start_from_env()
    except Exception as error:  # never stop the program: say why nothing is recorded
        print(f"fxscope_capture.record: not recording in process {os.getpid()}: {error}", file=sys.stderr)


class _StartAfterTorch:
    """Starts the recorder once the process has imported torch: the Python processes that never do (Inductor's
    vector-ISA probes, a launcher's helpers) start as fast as without recording, not a torch import later each."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        exec_module = getattr(spec and spec.loader, "exec_module", None)
        if exec_module is not None:
            def exec_then_record(module):
                exec_module(module)
                _start()

            spec.loader.exec_module = exec_then_record
        return spec


if os.environ.get("FXSCOPE_RECORD"):
    if "torch" in sys.modules:
        _start()
    else:
        sys.meta_path.insert(0, _StartAfterTorch())
