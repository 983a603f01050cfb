from torch._inductor.pattern_matcher import PatternMatcherPass

from .config import FusionConfig
from .patterns import RMSNormPattern, SiluMulPattern


class FusionPassManager:
    """Builds every enabled pattern from the config and registers it into its own pass, as a serving engine's
    post-grad custom pass does."""

    def __init__(self, config: FusionConfig, pm_pass: PatternMatcherPass = None):
        self.config = config
        self.patterns = pm_pass if pm_pass is not None else PatternMatcherPass(pass_name="fxscope_test_fusions")
        for dtype in config.dtypes:
            if config.enable_rms_norm:
                RMSNormPattern(config, dtype).register(self.patterns)
            if config.enable_silu_mul:
                SiluMulPattern(config, dtype).register(self.patterns)

    def __call__(self, graph):
        return self.patterns.apply(graph)
