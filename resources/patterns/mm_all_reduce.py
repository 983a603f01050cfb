"""mm + all_reduce (+ its wait) -> npu_mm_all_reduce_base: the row-parallel linear of a tensor-parallel MLP, fused
with the reduction of its partial sums so the NPU overlaps the matmul with the communication (torch_npu's
MatmulAllReduce). The group is the world group as torch.distributed names it ("0"); wait_tensor is part of the
pattern, since only after it may the reduced result be read."""
import torch, torchair
from torch._inductor.pattern_matcher import Match
from torch._subclasses.fake_tensor import FakeTensorMode
from torchair.core.utils import logger


def mm_all_reduce(x1, x2):
    partial = torch.mm(x1, x2)
    reduced = torch.ops._c10d_functional.all_reduce(partial, "sum", "0")
    return torch.ops._c10d_functional.wait_tensor(reduced)


def mm_all_reduce_replacement(x1, x2):
    return torch.ops.npu.npu_mm_all_reduce_base(x1, x2, "0", reduce_op="sum")


def extra_check(match: Match):
    # MatmulAllReduce takes float16, bfloat16 (and float32 in fxscope's reference kernel) operands of one dtype.
    x1 = match.kwargs["x1"].meta.get("val")
    x2 = match.kwargs["x2"].meta.get("val")
    if x1 is None or x2 is None:
        logger.debug("x1 or x2 has no meta['val']")
        return False
    if x1.dtype != x2.dtype:
        logger.debug("x1 %s and x2 %s differ in dtype", x1.dtype, x2.dtype)
        return False
    return x1.dtype in [torch.float16, torch.bfloat16, torch.float32]


with FakeTensorMode():
    x1 = torch.empty(32, 128, dtype=torch.float16)
    x2 = torch.empty(128, 64, dtype=torch.float16)
    torchair.register_replacement(
        search_fn=mm_all_reduce,
        replace_fn=mm_all_reduce_replacement,
        example_inputs=(x1, x2),
        extra_check=extra_check,
    )
