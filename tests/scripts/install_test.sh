#!/usr/bin/env bash
# The install (issue 23, item 3): `cmake --install BUILD --prefix TMP`, then the installed programs run from a
# folder outside the source and build trees and use the installed files, not the build tree's.
# usage: install_test.sh BUILD_DIR GUI(0|1)
set -euo pipefail
build=$(cd "$1" && pwd)
gui=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
cd "$work"
cli=$prefix/bin/fxscope-cli

for f in bin/fxscope-cli lib/fxscope/libfxscope_runtime.so lib/fxscope/libfxscope_emulated_npu.so \
         share/fxscope/samples/llama_block.py share/fxscope/patterns/rms_norm.py \
         share/fxscope/python/fxscope_capture/__init__.py share/applications/fxscope.desktop \
         share/icons/hicolor/scalable/apps/fxscope.svg; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ "$gui" = 1 ] && { [ -x "$prefix/bin/fxscope" ] || fail "not installed: bin/fxscope"; }
# Nothing of the build tree's paths may be left in the installed programs' search (RUNPATH).
if readelf -d "$cli" >runpath.txt && grep -q "$build" runpath.txt; then fail "fxscope-cli's RUNPATH names the build tree"; fi

# --version: fxscope's version, its LibTorch, its Python, and the installed files it found.
"$cli" --version >version.txt
cat version.txt
grep -Eq '^fxscope-cli [0-9]+\.[0-9]+\.[0-9]+' version.txt || fail "--version names no version"
grep -Eq '^LibTorch [0-9]+\.[0-9]+' version.txt || fail "--version names no LibTorch"
grep -q '^Python /' version.txt || fail "--version names no Python"
grep -qx "runtime module $prefix/lib/fxscope/libfxscope_runtime.so" version.txt || fail "not the installed runtime module"
grep -qx "data $prefix/share/fxscope" version.txt || fail "not the installed data"
if [ "$gui" = 1 ]; then
  "$prefix/bin/fxscope" --version >gui_version.txt
  grep -q '^fxscope [0-9]' gui_version.txt && grep -q '^LibTorch ' gui_version.txt || fail "fxscope --version"
fi

# The installed sample.
"$cli" info "$prefix/share/fxscope/samples/llama_block.py" >info.txt
grep -q 'nodes    107' info.txt || { cat info.txt; fail "info on the installed sample"; }
# The installed runtime module loads (LibTorch through the module's install RUNPATH).
"$cli" devices --json >devices.json || { cat devices.json; fail "devices with the installed runtime module"; }
grep -q '"cpu' devices.json || fail "devices lists no cpu"

# The capture package: the folder on PYTHONPATH is the one Python finds (found, not imported: it imports torch), and
# the wheel holds the package.
python=$(sed -n 's/^Python \([^ ]*\).*/\1/p' version.txt)
PYTHONPATH=$prefix/share/fxscope/python "$python" -c 'import importlib.util, sys
sys.exit(0 if importlib.util.find_spec("fxscope_capture").origin.startswith(sys.argv[1]) else 1)' "$prefix" \
  || fail "Python does not find fxscope_capture in the install"
wheel=$(ls "$prefix"/share/fxscope/python/fxscope_capture-*-py3-none-any.whl) || fail "no wheel installed"
# The listing goes to a file first: grep -q closing the pipe early is a BrokenPipeError in zipfile, fatal under pipefail.
"$python" -m zipfile -l "$wheel" >wheel.txt || fail "cannot list the wheel"
grep -q 'fxscope_capture/__init__.py' wheel.txt || fail "the wheel lacks the package"

desktop-file-validate "$prefix/share/applications/fxscope.desktop" || fail "desktop-file-validate"
echo "install test passed: $prefix"
