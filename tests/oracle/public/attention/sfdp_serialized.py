"""Inductor's pre-generated ("serialized") pattern form, as torch/_inductor/fx_passes/serialized_patterns/
_sfdp_pattern_5.py is written by torchgen/fuse/gen_patterns.py: the inference pattern spelled out as
CallFunction/KeywordArg/Ignored() expressions and handed to register_replacement as search_fn_pattern (one per
dtype: the half form carries the softmax's convert_element_type nodes), search_fn kept for the re-trace."""
import functools

import torch
from torch._inductor.pattern_matcher import (
    CallFunction,
    Ignored,
    KeywordArg,
    PatternMatcherPass,
    fwd_only,
    register_replacement,
)

aten = torch.ops.aten
prims = torch.ops.prims

serialized_pass = PatternMatcherPass()

# _sfdp_pattern_5_inference
expand_default = CallFunction(aten.expand.default, KeywordArg('query'), Ignored())
view_default = CallFunction(aten.view.default, expand_default, Ignored())
permute_default = CallFunction(aten.permute.default, KeywordArg('key'), Ignored())
expand_default_1 = CallFunction(aten.expand.default, permute_default, Ignored())
view_default_1 = CallFunction(aten.view.default, expand_default_1, Ignored())
bmm_default = CallFunction(aten.bmm.default, view_default, view_default_1)
view_default_2 = CallFunction(aten.view.default, bmm_default, Ignored())
div_Tensor = CallFunction(aten.div.Tensor, view_default_2, KeywordArg('inv_scale'))
add_Tensor = CallFunction(aten.add.Tensor, div_Tensor, KeywordArg('attn_mask'), _users=2)
amax_default = CallFunction(aten.amax.default, add_Tensor, Ignored(), True)
sub_Tensor = CallFunction(aten.sub.Tensor, add_Tensor, amax_default)
exp_default = CallFunction(aten.exp.default, sub_Tensor, _users=2)
sum_dim_IntList = CallFunction(aten.sum.dim_IntList, exp_default, Ignored(), True)
div_Tensor_1 = CallFunction(aten.div.Tensor, exp_default, sum_dim_IntList)
expand_default_2 = CallFunction(aten.expand.default, div_Tensor_1, Ignored())
view_default_3 = CallFunction(aten.view.default, expand_default_2, Ignored())
expand_default_3 = CallFunction(aten.expand.default, KeywordArg('value'), Ignored())
view_default_4 = CallFunction(aten.view.default, expand_default_3, Ignored())
bmm_default_1 = CallFunction(aten.bmm.default, view_default_3, view_default_4)
_sfdp_pattern_5_inference = CallFunction(aten.view.default, bmm_default_1, Ignored(), _users=0)

# _sfdp_pattern_5_half_inference
expand_default = CallFunction(aten.expand.default, KeywordArg('query'), Ignored())
view_default = CallFunction(aten.view.default, expand_default, Ignored())
permute_default = CallFunction(aten.permute.default, KeywordArg('key'), Ignored())
expand_default_1 = CallFunction(aten.expand.default, permute_default, Ignored())
view_default_1 = CallFunction(aten.view.default, expand_default_1, Ignored())
bmm_default = CallFunction(aten.bmm.default, view_default, view_default_1)
view_default_2 = CallFunction(aten.view.default, bmm_default, Ignored())
div_Tensor = CallFunction(aten.div.Tensor, view_default_2, KeywordArg('inv_scale'))
add_Tensor = CallFunction(aten.add.Tensor, div_Tensor, KeywordArg('attn_mask'))
convert_element_type_default = CallFunction(prims.convert_element_type.default, add_Tensor, Ignored(), _users=2)
amax_default = CallFunction(aten.amax.default, convert_element_type_default, Ignored(), True)
sub_Tensor = CallFunction(aten.sub.Tensor, convert_element_type_default, amax_default)
exp_default = CallFunction(aten.exp.default, sub_Tensor, _users=2)
sum_dim_IntList = CallFunction(aten.sum.dim_IntList, exp_default, Ignored(), True)
div_Tensor_1 = CallFunction(aten.div.Tensor, exp_default, sum_dim_IntList)
convert_element_type_default_1 = CallFunction(prims.convert_element_type.default, div_Tensor_1, Ignored())
expand_default_2 = CallFunction(aten.expand.default, convert_element_type_default_1, Ignored())
view_default_3 = CallFunction(aten.view.default, expand_default_2, Ignored())
expand_default_3 = CallFunction(aten.expand.default, KeywordArg('value'), Ignored())
view_default_4 = CallFunction(aten.view.default, expand_default_3, Ignored())
bmm_default_1 = CallFunction(aten.bmm.default, view_default_3, view_default_4)
_sfdp_pattern_5_half_inference = CallFunction(aten.view.default, bmm_default_1, Ignored(), _users=0)


def _sfdp_pattern_5(query, key, value, attn_mask, inv_scale):
    attn_weight = torch.softmax((query @ key.transpose(-2, -1) / (inv_scale)) + attn_mask, dim=-1)
    return attn_weight @ value


def _sfdp_replacement_5(query, key, value, attn_mask, inv_scale):
    return aten.scaled_dot_product_attention(query, key, value, attn_mask=attn_mask.to(dtype=query.dtype),
                                             dropout_p=0.0, scale=1.0 / inv_scale, is_causal=False)


def _sfdp_params_check(match):
    query = match.kwargs["query"].meta["val"]
    key = match.kwargs["key"].meta["val"]
    value = match.kwargs["value"].meta["val"]
    if not (query.dtype == key.dtype == value.dtype) or not (query.device == key.device == value.device):
        return False
    attn_mask = match.kwargs["attn_mask"].meta["val"]
    # attn_mask must be a tensor that broadcasts to the scores' shape
    return isinstance(attn_mask, torch.Tensor) and attn_mask.dim() <= 4


for dtype, serialized in ((torch.float, _sfdp_pattern_5_inference), (torch.half, _sfdp_pattern_5_half_inference)):
    g = functools.partial(torch.empty, (2, 4, 8, 16), device="cpu", dtype=dtype)
    b = functools.partial(torch.empty, (1, 1, 8, 8), device="cpu", dtype=dtype)
    register_replacement(_sfdp_pattern_5, _sfdp_replacement_5, [g(), g(), g(), b()], fwd_only, serialized_pass,
                         extra_check=_sfdp_params_check, scalar_workaround={"inv_scale": 0.66666},
                         search_fn_pattern=serialized)
