import dataclasses

import torch


@dataclasses.dataclass
class FusionConfig:
    """What a serving engine's compilation config decides: which fusions run, for which sizes and dtypes."""
    enable_rms_norm: bool = True
    enable_silu_mul: bool = True
    epsilon: float = 1e-6
    dtypes: tuple = (torch.float16, torch.bfloat16)
    # The fused kernel needs the hidden size to be a multiple of this many elements.
    hidden_multiple: int = 32
