#include "flex_attention.h"

#include "op_base_name.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <set>

namespace fxs {

namespace {

// Ops that compute each element from the elements at the same (broadcast) position: run on index tensors broadcast
// over (b, h, q, kv) they give what vmap over scalars gives. `index` gathers from a captured buffer with the
// broadcast indices, as vmap batches its indices.
const std::set<std::string> &elementwiseOps()
{
    static const std::set<std::string> ops = {"add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide",
        "remainder", "fmod", "pow", "neg", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log1p", "sqrt",
        "rsqrt", "tanh", "sigmoid", "sin", "cos", "erf", "floor", "ceil", "round", "trunc", "reciprocal", "clamp",
        "clamp_min", "clamp_max", "clip", "minimum", "maximum", "where", "eq", "ne", "lt", "le", "gt", "ge",
        "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
        "bitwise_not", "_to_copy", "to", "type_as", "convert_element_type", "index", "scalar_tensor", "alias", "clone",
        // Python operators of Dynamo-level mods (operator.sub, ...)
        "truediv", "floordiv", "mod", "and_", "or_", "xor", "invert", "not_"};
    return ops;
}

} // namespace

Status checkElementwiseMod(const Graph &mod, const std::string &role)
{
    for (const auto &node : mod.nodes()) {
        if (node->op() == OpKind::Placeholder || node->op() == OpKind::Output || node->op() == OpKind::GetAttr)
            continue;
        if (node->op() == OpKind::CallModule || !elementwiseOps().count(opBaseName(*node)))
            return Error{{}, node->meta().dumpLine, 0,
                "node '" + node->name() + "' (" + node->target() + "): flex_attention's " + role
                    + " runs here broadcast over (b, h, q, kv), which is exact for elementwise ops only; this one is "
                      "not"};
    }
    return Ok{};
}

Result<std::tuple<at::Tensor, at::Tensor, at::Tensor>> flexAttentionMath(const at::Tensor &query,
    const at::Tensor &keyIn, const at::Tensor &valueIn, double scale, const ModRunner &scoreMod,
    const std::vector<c10::IValue> &scoreModBuffers, const ModRunner &maskMod,
    const std::vector<c10::IValue> &maskModBuffers)
{
    if (query.dim() != 4 || keyIn.dim() != 4 || valueIn.dim() != 4)
        return Error{{}, 0, 0, "flex_attention: expected 4-d query, key and value (batch, heads, length, dim)"};
    if (keyIn.size(1) == 0 || query.size(1) % keyIn.size(1) != 0)
        return Error{{}, 0, 0,
            "flex_attention: query heads (" + std::to_string(query.size(1)) + ") are not a multiple of key heads ("
                + std::to_string(keyIn.size(1)) + ")"};
    // Grouped-query attention: each key/value head serves G query heads.
    const int64_t groups = query.size(1) / keyIn.size(1);
    at::Tensor key = at::repeat_interleave(keyIn, groups, 1);
    at::Tensor value = at::repeat_interleave(valueIn, groups, 1);
    const int64_t bq = query.size(0), bkv = key.size(0);
    if (!(bq == bkv || (bq > 1 && bkv == 1)))
        return Error{{}, 0, 0,
            "flex_attention: Bq and Bkv must broadcast. Got Bq=" + std::to_string(bq)
                + " and Bkv=" + std::to_string(bkv)};
    std::vector<int64_t> expanded = key.sizes().vec();
    expanded[0] = bq;
    key = key.expand(expanded);
    expanded = value.sizes().vec();
    expanded[0] = bq;
    value = value.expand(expanded);

    const at::ScalarType working = query.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    at::Tensor scores = at::matmul(query.to(working), key.to(working).transpose(-2, -1));
    scores = (scores * scale).to(working);
    // b, h, m, n as vmap would hand them to the mods one element at a time, here broadcast over the scores' dims.
    auto indices = [&](int64_t dim) {
        std::vector<int64_t> shape(4, 1);
        shape[size_t(dim)] = scores.size(dim);
        return at::arange(scores.size(dim), at::TensorOptions().dtype(at::kLong).device(scores.device())).view(shape);
    };
    std::vector<c10::IValue> bhmn = {indices(0), indices(1), indices(2), indices(3)};
    std::vector<c10::IValue> maskOperands = bhmn;
    maskOperands.insert(maskOperands.end(), maskModBuffers.begin(), maskModBuffers.end());
    auto mask = maskMod(maskOperands);
    if (!mask)
        return mask.error();
    std::vector<c10::IValue> scoreOperands = {scores};
    scoreOperands.insert(scoreOperands.end(), bhmn.begin(), bhmn.end());
    scoreOperands.insert(scoreOperands.end(), scoreModBuffers.begin(), scoreModBuffers.end());
    auto modded = scoreMod(scoreOperands);
    if (!modded)
        return modded.error();
    const double inf = std::numeric_limits<double>::infinity();
    at::Tensor post = at::where(mask.value(), modded.value(),
        at::scalar_tensor(-inf, at::TensorOptions().dtype(working).device(scores.device())));

    // Fully masked rows: logsumexp -inf and a softmax of zeros (torch._safe_softmax), not NaN.
    at::Tensor maskedRows = (post == -inf).all(-1);
    at::Tensor logsumexp = at::where(maskedRows, at::scalar_tensor(-inf, post.options()), post.logsumexp(-1));
    at::Tensor maxScores = std::get<0>(post.max(-1));
    at::Tensor probabilities = at::_safe_softmax(post, -1, c10::nullopt);
    // The kernel works in log2 space and the top-level op converts back, so the HOP's statistics are divided by ln 2.
    const double ln2 = std::log(2.0);
    return std::make_tuple(at::matmul(probabilities.to(query.scalar_type()), value.to(query.scalar_type())),
        logsumexp / ln2, maxScores / ln2);
}

} // namespace fxs
