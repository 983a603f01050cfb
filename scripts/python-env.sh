#!/usr/bin/env bash
# Chooses the Python environment whose torch fxscope builds against (LibTorch) and tests with, and writes its
# interpreter to BUILD_DIR/fxscope-python (cmake/FxscopeTorch.cmake reads it; a change re-runs CMake).
#   FXSCOPE_PYTHON=/path/to/python  that interpreter; its torch must be >= 2.1. Nothing is installed into it.
#   otherwise                       .venv in the checkout, with torch 2.13.0 and python/ (fxscope_capture and
#                                   what it needs), created or completed with pip.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
torch_pin="torch==2.13.0"
torch_ok='import sys, torch; v = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]); sys.exit(v < (2, 1))'

if [ -n "${FXSCOPE_PYTHON:-}" ]; then
  python="$FXSCOPE_PYTHON"
  if ! "$python" -c "$torch_ok" 2>/dev/null; then
    echo "FXSCOPE_PYTHON=$python: no torch >= 2.1 there ($("$python" -c 'import torch; print(torch.__version__)' 2>&1 | tail -n1))" >&2
    exit 1
  fi
  if ! "$python" -c 'import safetensors' 2>/dev/null; then
    echo "note: the capture tests need fxscope_capture's dependencies in that environment: $python -m pip install ./python" >&2
  fi
else
  python="$PWD/.venv/bin/python"
  if [ ! -x "$python" ]; then
    echo "Creating .venv (python3 -m venv) for torch" >&2
    python3 -m venv .venv
  fi
  # Both checks pass on every run after the first, so nothing is asked of pip then.
  if ! "$python" -c "$torch_ok" 2>/dev/null; then
    echo "Installing $torch_pin into .venv" >&2
    "$python" -m pip install --disable-pip-version-check -q "$torch_pin"
  fi
  if ! "$python" -c 'import fxscope_capture, safetensors, numpy' 2>/dev/null; then
    echo "Installing python/ (fxscope_capture) into .venv" >&2
    "$python" -m pip install --disable-pip-version-check -q -e ./python numpy
  fi
fi

mkdir -p "$build_dir"
# Rewritten only when it changes, so an unchanged environment does not re-run CMake.
if [ "$(cat "$build_dir/fxscope-python" 2>/dev/null)" != "$python" ]; then
  echo "$python" > "$build_dir/fxscope-python"
fi
echo "torch $("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null) from $python" >&2
