#!/bin/sh
# A "Python" for `match --check-with-torch` that runs the real inductor_check with TorchAir's pipeline
# (remove_noop_ops before the pattern pass): a genuine torch answer that differs from fxscope's on a no-op slice.
exec "$FXSCOPE_TEST_REAL_PYTHON" "$@" --pipeline torchair
