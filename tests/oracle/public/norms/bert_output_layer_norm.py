"""BERT/DeBERTa output block: LayerNorm(dropout(hidden) + input_tensor) written with torch.nn.functional, as in
HF's BertSelfOutput/BertOutput, -> one add_layer_norm custom op. Registered by a loop over the epsilons those
models use and the dtypes (F.layer_norm's decomposition upcasts f16/bf16), the check on hidden size and dtype."""
import itertools

import torch
import torch.nn.functional as F
from torch._inductor import pattern_matcher as pm

import norms_ops  # noqa: F401

PASS = pm.PatternMatcherPass(pass_name="bert_add_layer_norm")

LAYER_NORM_EPS = {"bert": 1e-12, "deberta": 1e-7}


def _check_hidden(match):
    hidden = match.kwargs["hidden_states"].meta["val"]
    residual = match.kwargs["input_tensor"].meta["val"]
    # The kernel keeps a row in registers: hidden a multiple of 8 and at most 4096, no broadcast of the residual.
    return hidden.shape == residual.shape and hidden.shape[-1] % 8 == 0 and hidden.shape[-1] <= 4096


def _make(eps):
    def add_layer_norm(hidden_states, input_tensor, weight, bias):
        hidden_states = F.dropout(hidden_states, p=0.1, training=False)
        return F.layer_norm(hidden_states + input_tensor, (hidden_states.shape[-1],), weight, bias, eps)

    def add_layer_norm_replacement(hidden_states, input_tensor, weight, bias):
        return torch.ops.fxnorms.add_layer_norm.default(hidden_states, input_tensor, weight, bias, eps)

    return add_layer_norm, add_layer_norm_replacement


for (model, eps), dtype in itertools.product(LAYER_NORM_EPS.items(), (torch.float32, torch.float16)):
    search, replace = _make(eps)
    hidden, vector = (2, 8, 32), (32,)
    example_inputs = [torch.empty(hidden, dtype=dtype), torch.empty(hidden, dtype=dtype),
                      torch.empty(vector, dtype=dtype), torch.empty(vector, dtype=dtype)]
    pm.register_replacement(search, replace, example_inputs, pm.fwd_only, PASS, extra_check=_check_hidden)
