"""A pass package laid out like class-based pass code (vLLM, vLLM-Ascend's compilation/passes): patterns are classes
built from a config object, the fused kernel is a custom op defined with torch.library, and a pass manager registers
every pattern into its PatternMatcherPass. fxscope debugs it through `--patterns fxscope_test_passes.debug:register`
(a few lines of the user's own, debug.py) with this folder on PYTHONPATH."""
