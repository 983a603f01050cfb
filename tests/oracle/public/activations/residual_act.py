"""Residual add + activation chains (ResNet/T5 blocks: relu(x + residual), tanh(x + residual)) and leaky_relu as
Inductor decomposes it, written as Inductor's serialized patterns are: search_fn_pattern built from CallFunction /
KeywordArg (and Ignored() for a leaky slope), with the search_fn kept for the re-trace."""
import torch
import torch.nn.functional as F
from torch._inductor.pattern_matcher import (CallFunction, Ignored, KeywordArg, PatternMatcherPass, fwd_only,
                                             register_replacement)

import activations_ops  # noqa: F401

aten = torch.ops.aten
residual_pass = PatternMatcherPass(pass_name="residual_activation")

add_pattern = CallFunction(aten.add.Tensor, KeywordArg("x"), KeywordArg("residual"), _users=1)
add_relu_pattern = CallFunction(aten.relu.default, add_pattern)
add_tanh_pattern = CallFunction(aten.tanh.default, add_pattern)
leaky_pattern = CallFunction(aten.where.self, CallFunction(aten.gt.Scalar, KeywordArg("x"), 0), KeywordArg("x"),
                             CallFunction(aten.mul.Tensor, KeywordArg("x"), Ignored()))


def add_relu(x, residual):
    return torch.relu(x + residual)


def add_relu_fused(x, residual):
    return torch.ops.fxscope_act.add_relu.default(x, residual)


def add_tanh(x, residual):
    return torch.tanh(x + residual)


def add_tanh_fused(x, residual):
    return torch.ops.fxscope_act.add_tanh.default(x, residual)


def leaky(x):
    return F.leaky_relu(x, 0.01)


def leaky_fused(x):
    return torch.ops.fxscope_act.leaky_relu.default(x, 0.01)


t = torch.empty(4, 16)
register_replacement(add_relu, add_relu_fused, [t, t], fwd_only, residual_pass, search_fn_pattern=add_relu_pattern)
register_replacement(add_tanh, add_tanh_fused, [t, t], fwd_only, residual_pass, search_fn_pattern=add_tanh_pattern)
register_replacement(leaky, leaky_fused, [t], fwd_only, residual_pass, search_fn_pattern=leaky_pattern)
