"""Example programs captured by fxscope_capture's demo, tests and README."""
