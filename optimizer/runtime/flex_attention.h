#pragma once
// torch.ops.higher_order.flex_attention run as PyTorch's own eager implementation of it (math_attention in
// torch/_higher_order_ops/flex_attention.py): dense scores, score_mod and mask_mod applied over (b, h, q, kv),
// safe softmax. PyTorch applies the mods with vmap; here their graphs run once on index tensors broadcast over
// those dims, which computes the same values when every op in them is elementwise (checked before running).
// Internal to the runtime module (torch types inside).

#include "ir/graph.h"
#include "util/result.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace fxs {

// An error naming the first node of a score_mod or mask_mod graph that is not elementwise (role: "score_mod").
Status checkElementwiseMod(const Graph &mod, const std::string &role);

// Runs a mod's graph on its operands and returns its one tensor result.
using ModRunner = std::function<Result<at::Tensor>(const std::vector<c10::IValue> &operands)>;

// (out, logsumexp / ln 2, max score / ln 2), the three values of the HOP, as math_attention computes them.
Result<std::tuple<at::Tensor, at::Tensor, at::Tensor>> flexAttentionMath(const at::Tensor &query, const at::Tensor &key,
    const at::Tensor &value, double scale, const ModRunner &scoreMod, const std::vector<c10::IValue> &scoreModBuffers,
    const ModRunner &maskMod, const std::vector<c10::IValue> &maskModBuffers);

} // namespace fxs
