"""Put on PYTHONPATH by `python -m fxscope_capture.record` (or its --print-env): every Python process the recorded
program starts records too, into $FXSCOPE_RECORD. The environment's own sitecustomize, if any, still runs."""

import importlib
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_saved_path = list(sys.path)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
del sys.modules["sitecustomize"]
try:
    importlib.import_module("sitecustomize")  # the one this file shadows
except ImportError:
    pass
finally:
    sys.path[:] = _saved_path

if os.environ.get("FXSCOPE_RECORD"):
    try:
        import fxscope_capture.record as _record

        _record.start_from_env()
    except Exception as error:  # never stop the program: say why nothing is recorded
        print(f"fxscope_capture.record: not recording in process {os.getpid()}: {error}", file=sys.stderr)
