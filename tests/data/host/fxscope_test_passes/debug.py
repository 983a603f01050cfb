"""The user's few lines for fxscope: `--patterns fxscope_test_passes.debug:register`."""
from .config import FusionConfig
from .pass_manager import FusionPassManager


def register(pm_pass):
    FusionPassManager(FusionConfig(), pm_pass)
