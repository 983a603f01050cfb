#!/bin/sh
# A "Python" for `match --check-with-torch` that runs the real inductor_check under Inductor's pipeline even for a
# TorchAir pattern file (no remove_noop_ops before the pattern pass): a genuine torch answer that differs from
# fxscope's, which follows TorchAir for such a file, on a no-op slice.
exec "$FXSCOPE_TEST_REAL_PYTHON" "$@" --pipeline inductor
