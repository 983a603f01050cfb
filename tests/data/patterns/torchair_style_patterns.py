__all__ = []
"""
Test data in the style of TorchAir's built-in pattern files (python/torchair/patterns/): registration happens in
`_register_*` functions that only a pass manager calls, guarded by `'torch_npu' in sys.modules`, cached with
functools.lru_cache, some with a hand-built search_fn_pattern.
"""

import functools
import operator
import sys
import torch

from torch._inductor.pattern_matcher import Match, MultiOutputPattern, CallFunction, KeywordArg, Ignored
from torch._subclasses.fake_tensor import FakeTensorMode

from torchair.core.utils import logger
from torchair.patterns.pattern_pass_manager import _PatternPassManager


def _check_cast(match: Match) -> bool:
    """The cast must keep the norm's last dim."""
    from torch._inductor.fx_passes.post_grad import same_meta

    norm = None
    for node in match.nodes:
        if node.target == torch.ops.npu.npu_add_rms_norm.default:
            norm = node
    x1_val = norm.args[0].meta['val']
    if x1_val.ndim == 0 or (x1_val.shape[-1] * x1_val.element_size()) % 32 != 0:
        logger.debug(f"last dim {x1_val.shape[-1]} of {x1_val.dtype} is not 32-byte aligned")
        return False
    return same_meta(norm.args[0], norm.args[1])


def _build_search_pattern(with_epsilon=False) -> MultiOutputPattern:
    """y, _, x_out = npu_add_rms_norm(x1, x2, gamma[, epsilon]); return y, x_out, y.view(-1, h).to(float32)"""
    norm_args = [torch.ops.npu.npu_add_rms_norm.default, KeywordArg('x1'), KeywordArg('x2'), KeywordArg('gamma')]
    if with_epsilon:
        norm_args.append(KeywordArg('epsilon'))
    norm = CallFunction(*norm_args, _users=2)
    y = CallFunction(operator.getitem, norm, 0, _users=2)
    x_out = CallFunction(operator.getitem, norm, 2)
    cast = CallFunction(
        torch.ops.aten._to_copy.default,
        CallFunction(torch.ops.aten.view.default, y, [-1, Ignored()]),
        dtype=torch.float32,
    )
    return MultiOutputPattern([y, x_out, cast])


@functools.lru_cache(None)
def _register_cast_pattern(pattern_pass_manager: _PatternPassManager, with_epsilon=False):
    if 'torch_npu' not in sys.modules:
        logger.info(f'no torch_npu, skip')
        return

    def search_fn(x1, x2, gamma):
        pass

    def replace_fn(x1, x2, gamma):
        y_cast, y, _, x_out = torch.ops.npu.npu_add_rms_norm_cast.default(x1, x2, gamma)
        h = y.size(-1)
        return y, x_out, y_cast.view(-1, h)

    with FakeTensorMode():
        t = functools.partial(torch.empty, (1, 1, 16), dtype=torch.float16)
        g = functools.partial(torch.empty, 16, dtype=torch.float16)
        pattern_pass_manager.register_pattern(
            search_fn=search_fn,
            replace_fn=replace_fn,
            example_inputs=(t(), t(), g()),
            extra_check=_check_cast,
            search_fn_pattern=_build_search_pattern(with_epsilon),
        )


def _get_inputs():
    """example inputs: x1, x2, gamma, scales"""
    xshape = [2, 16]
    x1 = torch.rand(xshape, dtype=torch.float16)
    x2 = torch.rand(xshape, dtype=torch.float16)
    gamma = torch.ones([16], dtype=torch.float16)
    scales = torch.tensor([16], dtype=torch.float32)
    return (x1, x2, gamma, scales)


@functools.lru_cache(None)
def _register_quant_pattern(pattern_pass_manager, div_mode):
    def search_fn(x1, x2, gamma, scales, epsilon, dtype):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, epsilon)
        y_out = torch.ops.npu.npu_quantize.default(y, scales, None, dtype=dtype, axis=-1, div_mode=div_mode)
        return y_out, x_out

    def replace_fn(x1, x2, gamma, scales, epsilon, _):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, gamma, scales, axis=-1, epsilon=epsilon)
        return y, x_out

    with FakeTensorMode():
        pattern_pass_manager.register_pattern(
            search_fn=search_fn,
            replace_fn=replace_fn,
            example_inputs=_get_inputs(),
            scalar_workaround={"epsilon": 2e-6, "dtype": 1},
            skip_duplicates=True,
        )


@functools.lru_cache(None)
def _register_all_patterns(pattern_pass_manager: _PatternPassManager):
    # The loader calls this one and _register_cast_pattern itself; lru_cache makes the repeated calls no-ops (no
    # duplicate registration), as in TorchAir, where several entry points reach the same helper.
    _register_cast_pattern(pattern_pass_manager)
    _register_cast_pattern(pattern_pass_manager)
    _register_quant_pattern(pattern_pass_manager, div_mode=True)


def _register_transpose_pattern(pattern_pass_manager: _PatternPassManager, dim0, dim1):
    # Nothing calls this: the loader cannot guess dim0/dim1 and skips it with a warning.
    pass
