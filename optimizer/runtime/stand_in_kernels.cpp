#include "stand_in_kernels.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/SymIntArrayRef.h>
#include <c10/core/TensorOptions.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fxs {

namespace {

// ---- prims defined in Python only: what torch/_prims (and torch/_inductor/inductor_prims.py) run in eager mode ----

at::Tensor primRev(const at::Tensor &a, at::IntArrayRef dims)
{
    return at::flip(a, dims);
}

at::Tensor primUnsafeIndexPut(
    at::Tensor self, const c10::List<c10::optional<at::Tensor>> &indices, const at::Tensor &values, bool accumulate)
{
    return self.index_put_(indices, values, accumulate);
}

std::vector<int64_t> reducedDims(const at::Tensor &inp, at::OptionalIntArrayRef dims)
{
    if (dims)
        return dims->vec();
    std::vector<int64_t> all(size_t(inp.dim()));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

at::Tensor asOutputType(at::Tensor t, c10::optional<at::ScalarType> type)
{
    return type && t.scalar_type() != *type ? t.to(*type) : t;
}

at::Tensor primSum(const at::Tensor &inp, at::OptionalIntArrayRef dims, c10::optional<at::ScalarType> outputDtype)
{
    return at::sum(inp, reducedDims(inp, dims), false, outputDtype);
}

at::Tensor primAmax(const at::Tensor &inp, at::OptionalIntArrayRef dims, c10::optional<at::ScalarType> outputDtype)
{
    return asOutputType(at::amax(inp, reducedDims(inp, dims)), outputDtype);
}

at::Tensor primAmin(const at::Tensor &inp, at::OptionalIntArrayRef dims, c10::optional<at::ScalarType> outputDtype)
{
    return asOutputType(at::amin(inp, reducedDims(inp, dims)), outputDtype);
}

at::Tensor primProd(const at::Tensor &inp, at::OptionalIntArrayRef dims, c10::optional<at::ScalarType> outputDtype)
{
    std::vector<int64_t> order = reducedDims(inp, dims);
    for (int64_t &d : order)
        d = d < 0 ? d + inp.dim() : d;
    std::sort(order.rbegin(), order.rend()); // the highest first, so the others keep their positions
    at::Tensor out = inp;
    for (int64_t d : order)
        out = at::prod(out, d, false, outputDtype);
    return out;
}

at::Tensor primVar(const at::Tensor &inp, at::OptionalIntArrayRef dims, c10::optional<double> correction,
    c10::optional<at::ScalarType> outputDtype)
{
    return asOutputType(at::var(inp, reducedDims(inp, dims), at::Scalar(correction.value_or(1.0)), false), outputDtype);
}

at::Tensor primWhere(const at::Tensor &pred, const at::Tensor &a, const at::Tensor &b)
{
    return at::where(pred, a, b);
}

at::Tensor primFma(const at::Tensor &a, const at::Tensor &b, const at::Tensor &c)
{
    return a * b + c;
}

at::Tensor primBroadcastInDim(const at::Tensor &a, c10::SymIntArrayRef shape, at::IntArrayRef broadcastDimensions)
{
    at::IntArrayRef sizes = C10_AS_INTARRAYREF_SLOW(shape);
    std::vector<bool> kept(sizes.size(), false);
    for (int64_t d : broadcastDimensions)
        kept.at(size_t(d)) = true;
    at::Tensor v = a;
    for (size_t d = 0; d < sizes.size(); ++d)
        if (!kept[d])
            v = v.unsqueeze(int64_t(d));
    return v.expand(sizes);
}

at::Tensor primDevicePut(const at::Tensor &a, c10::Device device, bool nonBlocking)
{
    return a.to(device, nonBlocking);
}

at::Tensor primViewOf(const at::Tensor &a)
{
    return a.alias();
}

at::Tensor primSqueeze(const at::Tensor &a, at::IntArrayRef dimensions)
{
    std::vector<int64_t> order = dimensions.vec();
    std::sort(order.rbegin(), order.rend());
    at::Tensor v = a;
    for (int64_t d : order)
        v = v.squeeze(d);
    return v;
}

at::Tensor primTranspose(const at::Tensor &a, at::IntArrayRef permutation)
{
    return a.permute(permutation);
}

at::Tensor primSplitDim(const at::Tensor &a, int64_t dim, c10::SymInt outerLength)
{
    const int64_t outer = outerLength.expect_int();
    std::vector<int64_t> shape = a.sizes().vec();
    const int64_t inner = shape.at(size_t(dim)) / outer;
    shape[size_t(dim)] = inner;
    shape.insert(shape.begin() + dim, outer);
    return a.view(shape);
}

at::Tensor primCollapseView(const at::Tensor &a, int64_t start, int64_t end)
{
    // Dimensions start (inclusive) to end (exclusive) merged into one, as a view.
    std::vector<int64_t> shape(a.sizes().begin(), a.sizes().begin() + start);
    int64_t merged = 1;
    for (int64_t d = start; d < end; ++d)
        merged *= a.size(d);
    shape.push_back(merged);
    shape.insert(shape.end(), a.sizes().begin() + end, a.sizes().end());
    return a.view(shape);
}

at::Tensor primReshape(const at::Tensor &a, c10::SymIntArrayRef shape)
{
    return a.reshape(C10_AS_INTARRAYREF_SLOW(shape));
}

std::tuple<at::Tensor, at::Tensor> primPrepareSoftmaxOnline(const at::Tensor &a, int64_t dim)
{
    at::Tensor amax = at::amax(a, dim, true);
    return {amax, at::sum(at::exp(a - amax), dim, true)};
}

at::Tensor primForceStrideOrder(const at::Tensor &input, c10::SymIntArrayRef stride)
{
    at::IntArrayRef strides = C10_AS_INTARRAYREF_SLOW(stride);
    if (input.strides() == strides)
        return input;
    at::Tensor out = at::empty_strided(input.sizes(), strides, input.options());
    out.copy_(input);
    return out;
}

struct PrimStandIn {
    const char *name;
    const char *schema; // as torch/_prims declares it
    const char *runsAs; // the ATen equivalent, for the profile's mark
    torch::CppFunction (*kernel)();
};

const PrimStandIn kPrims[] = {
    {"rev", "rev(Tensor a, int[] dims) -> Tensor", "aten.flip", [] { return torch::CppFunction(TORCH_FN(primRev)); }},
    {"_unsafe_index_put_",
        "_unsafe_index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)",
        "aten.index_put_", [] { return torch::CppFunction(TORCH_FN(primUnsafeIndexPut)); }},
    {"sum", "sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", "aten.sum",
        [] { return torch::CppFunction(TORCH_FN(primSum)); }},
    {"amax", "amax(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", "aten.amax",
        [] { return torch::CppFunction(TORCH_FN(primAmax)); }},
    {"amin", "amin(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", "aten.amin",
        [] { return torch::CppFunction(TORCH_FN(primAmin)); }},
    {"prod", "prod(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", "aten.prod",
        [] { return torch::CppFunction(TORCH_FN(primProd)); }},
    {"var", "var(Tensor inp, int[]? dims, float? correction=1, *, ScalarType? output_dtype=None) -> Tensor",
        "aten.var", [] { return torch::CppFunction(TORCH_FN(primVar)); }},
    {"where", "where(Tensor pred, Tensor a, Tensor b) -> Tensor", "aten.where",
        [] { return torch::CppFunction(TORCH_FN(primWhere)); }},
    {"fma", "fma(Tensor a, Tensor b, Tensor c) -> Tensor", "aten.mul and aten.add",
        [] { return torch::CppFunction(TORCH_FN(primFma)); }},
    {"broadcast_in_dim", "broadcast_in_dim(Tensor(a) a, SymInt[] shape, int[] broadcast_dimensions) -> Tensor(a)",
        "aten.unsqueeze and aten.expand", [] { return torch::CppFunction(TORCH_FN(primBroadcastInDim)); }},
    {"device_put", "device_put(Tensor a, Device device, bool non_blocking=False) -> Tensor", "aten._to_copy",
        [] { return torch::CppFunction(TORCH_FN(primDevicePut)); }},
    {"view_of", "view_of(Tensor(a) a) -> Tensor(a)", "aten.alias",
        [] { return torch::CppFunction(TORCH_FN(primViewOf)); }},
    {"squeeze", "squeeze(Tensor(a) a, int[] dimensions) -> Tensor(a)", "aten.squeeze",
        [] { return torch::CppFunction(TORCH_FN(primSqueeze)); }},
    {"transpose", "transpose(Tensor(a) a, int[] permutation) -> Tensor(a)", "aten.permute",
        [] { return torch::CppFunction(TORCH_FN(primTranspose)); }},
    {"split_dim", "split_dim(Tensor(a) a, int dim, SymInt outer_length) -> Tensor(a)", "aten.view",
        [] { return torch::CppFunction(TORCH_FN(primSplitDim)); }},
    {"collapse_view", "collapse_view(Tensor(a) a, int start, int end) -> Tensor(a)", "aten.view",
        [] { return torch::CppFunction(TORCH_FN(primCollapseView)); }},
    {"reshape", "reshape(Tensor a, SymInt[] shape) -> Tensor", "aten.reshape",
        [] { return torch::CppFunction(TORCH_FN(primReshape)); }},
    {"prepare_softmax_online", "prepare_softmax_online(Tensor a, int dim) -> (Tensor, Tensor)",
        "aten.amax and aten.sum", [] { return torch::CppFunction(TORCH_FN(primPrepareSoftmaxOnline)); }},
    {"inductor_force_stride_order", "inductor_force_stride_order(Tensor input, SymInt[] stride) -> Tensor",
        "aten.empty_strided and aten.copy_", [] { return torch::CppFunction(TORCH_FN(primForceStrideOrder)); }},
};

// ---- attention kernels a device lacks ----

const c10::IValue *argumentNamed(const c10::FunctionSchema &schema, const torch::jit::Stack &args, const char *name)
{
    const auto &formals = schema.arguments();
    for (size_t i = 0; i < formals.size(); ++i)
        if (formals[i].name() == name)
            return &args[args.size() - formals.size() + i];
    return nullptr;
}

at::Tensor optionalTensor(const c10::IValue *v)
{
    return v && v->isTensor() ? v->toTensor() : at::Tensor();
}

// Scaled dot-product attention over (batch, heads, length, dim) with its log-sum-exp over keys, in float32 for
// half-precision inputs (as the fused kernels accumulate). causal: 0 none, 1 from the top left, 2 from the bottom
// right (efficient attention's custom_mask_type 2).
std::pair<at::Tensor, at::Tensor> attentionMath(
    at::Tensor q, at::Tensor k, at::Tensor v, const at::Tensor &bias, double dropout, int causal, c10::optional<double> scale)
{
    const at::ScalarType type = q.scalar_type();
    const bool reduced = type == at::kHalf || type == at::kBFloat16;
    if (reduced) {
        q = q.to(at::kFloat);
        k = k.to(at::kFloat);
        v = v.to(at::kFloat);
    }
    if (k.size(-3) != q.size(-3) && k.size(-3) > 0 && q.size(-3) % k.size(-3) == 0) { // grouped-query attention
        k = k.repeat_interleave(q.size(-3) / k.size(-3), -3);
        v = v.repeat_interleave(q.size(-3) / v.size(-3), -3);
    }
    const int64_t L = q.size(-2), S = k.size(-2);
    at::Tensor scores = at::matmul(q, k.transpose(-2, -1)) * scale.value_or(1.0 / std::sqrt(double(q.size(-1))));
    const double minusInf = -std::numeric_limits<double>::infinity();
    if (bias.defined())
        scores = bias.scalar_type() == at::kBool ? scores.masked_fill(bias.logical_not(), minusInf)
                                                 : scores + bias.to(scores.scalar_type());
    if (causal) {
        at::Tensor keep = at::ones({L, S}, q.options().dtype(at::kBool)).tril(causal == 2 ? S - L : 0);
        scores = scores.masked_fill(keep.logical_not(), minusInf);
    }
    at::Tensor logsumexp = at::logsumexp(scores, {-1});
    at::Tensor probs = at::softmax(scores, -1);
    if (dropout > 0)
        probs = at::dropout(probs, dropout, true);
    at::Tensor out = at::matmul(probs, v);
    return {reduced ? out.to(type) : out, logsumexp};
}

// One boxed kernel for the whole family: the arguments are read by name, the results pushed by the op's own
// schema (output, its log-sum-exp, lengths for SymInt results, empty tensors for RNG state and debug masks).
void attentionStandIn(const c10::OperatorHandle &op, torch::jit::Stack *stack)
{
    const c10::FunctionSchema &schema = op.schema();
    const std::string &name = schema.name();
    // _flash_attention_forward and _efficient_attention_forward take (batch, length, heads, dim).
    const bool lengthMajor = name == "aten::_flash_attention_forward" || name == "aten::_efficient_attention_forward";
    const torch::jit::Stack &args = *stack;
    auto tensor = [&](const char *n) { return optionalTensor(argumentNamed(schema, args, n)); };
    at::Tensor q = tensor("query"), k = tensor("key"), v = tensor("value");
    TORCH_CHECK(q.defined() && k.defined() && v.defined() && q.dim() == 4 && k.dim() == 4 && v.dim() == 4,
        "fxscope's stand-in for ", name, " takes 4-d query, key and value");
    for (const char *varlen : {"cum_seq_q", "cu_seqlens_q", "seqused_k", "seqlen_k", "block_table", "alibi_slopes"})
        TORCH_CHECK(!tensor(varlen).defined(), "fxscope's stand-in for ", name, " has no variable-length or paged form (",
            varlen, " is given)");
    at::Tensor bias = tensor("attn_bias");
    if (!bias.defined())
        bias = tensor("bias");
    if (!bias.defined())
        bias = tensor("attn_mask");
    const c10::IValue *dropout = argumentNamed(schema, args, "dropout_p");
    const c10::IValue *isCausal = argumentNamed(schema, args, "is_causal");
    const c10::IValue *maskType = argumentNamed(schema, args, "custom_mask_type");
    const c10::IValue *scale = argumentNamed(schema, args, "scale");
    const double p = dropout && dropout->isDouble() ? dropout->toDouble() : 0.0;
    const int causal = isCausal && isCausal->isBool() ? int(isCausal->toBool())
        : maskType && maskType->isInt()               ? int(maskType->toInt())
                                                      : 0;
    const c10::optional<double> s = scale && scale->isDouble() ? c10::optional<double>(scale->toDouble()) : c10::nullopt;
    if (lengthMajor) {
        q = q.transpose(1, 2);
        k = k.transpose(1, 2);
        v = v.transpose(1, 2);
    }
    at::Tensor out, logsumexp;
    if (q.is_cpu() && causal != 2 && !bias.defined() && k.size(1) == q.size(1)) {
        // The CPU's own fused kernel: what torch 2.x's CPU flash attention became.
        std::tie(out, logsumexp) = at::_scaled_dot_product_flash_attention_for_cpu(q, k, v, p, causal == 1, {}, s);
    } else {
        std::tie(out, logsumexp) = attentionMath(q, k, v, bias, p, causal, s);
    }
    // The fused kernels' own layout: (batch, length, heads, dim) in memory, returned transposed. Graphs rely on it:
    // torch 2.2's CPU flash attention let a graph permute the output back to length-major and view it (BART,
    // Whisper), whatever the query's layout.
    out = out.transpose(1, 2).contiguous();
    if (!lengthMajor)
        out = out.transpose(1, 2);
    const int64_t L = q.size(2), S = k.size(2);
    torch::jit::drop(*stack, schema.arguments().size());
    for (const c10::Argument &result : schema.returns()) {
        const std::string &r = result.name();
        if (r == "output")
            stack->emplace_back(out);
        else if (r.find("logsumexp") != std::string::npos || r.find("log_sumexp") != std::string::npos)
            stack->emplace_back(logsumexp);
        else if (result.type()->kind() == c10::TypeKind::SymIntType || result.type()->kind() == c10::TypeKind::IntType)
            stack->emplace_back(r.size() > 2 && r.compare(r.size() - 2, 2, "_q") == 0 ? L : S); // max_q, max_k
        else
            stack->emplace_back(at::empty({0}, q.options().dtype(at::kLong))); // RNG state, debug mask: unused
    }
}

// The attention ops whose kernels exist for some devices only, and what runs in their place.
const char *const kAttentionOps[] = {"_scaled_dot_product_flash_attention", "_scaled_dot_product_flash_attention_for_cpu",
    "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention", "_flash_attention_forward",
    "_efficient_attention_forward", "_scaled_dot_product_fused_attention_overrideable"};

struct Registry {
    std::mutex mutex;
    std::set<c10::DeviceType> done;
    std::map<std::string, std::string> anyDevice;                        // "prims::rev" -> "aten.flip"
    std::map<std::pair<c10::DeviceType, std::string>, std::string> byDevice; // attention kernels
    std::vector<std::unique_ptr<torch::Library>> libraries;
};

Registry &registry()
{
    static Registry r;
    return r;
}

void registerPrims(Registry &r)
{
    std::unique_ptr<torch::Library> library;
    for (const PrimStandIn &prim : kPrims) {
        const std::string qualified = std::string("prims::") + prim.name;
        if (c10::Dispatcher::singleton().findSchema({qualified, ""}))
            continue; // torch (from Python) or a plugin defined it
        if (!library)
            library = std::make_unique<torch::Library>(
                torch::Library::FRAGMENT, "prims", c10::nullopt, __FILE__, uint32_t(__LINE__));
        library->def(prim.schema, prim.kernel()); // CompositeImplicitAutograd: every device
        r.anyDevice[qualified] = prim.runsAs;
    }
    if (library)
        r.libraries.push_back(std::move(library));
}

void registerAttention(Registry &r, c10::Device device)
{
    const c10::DispatchKey key = c10::computeDispatchKey(c10::nullopt, c10::nullopt, device);
    std::unique_ptr<torch::Library> library;
    for (const char *name : kAttentionOps) {
        auto handle = c10::Dispatcher::singleton().findSchema({std::string("aten::") + name, ""});
        if (!handle || handle->hasComputedKernelForDispatchKey(key))
            continue; // this LibTorch has no such op, or runs it on the device itself
        if (!library)
            library = std::make_unique<torch::Library>(
                torch::Library::IMPL, "aten", key, __FILE__, uint32_t(__LINE__));
        library->impl(name, torch::CppFunction::makeFromBoxedFunction<&attentionStandIn>());
        r.byDevice[{device.type(), std::string("aten::") + name}] = device.is_cpu()
            ? "aten._scaled_dot_product_flash_attention_for_cpu (the math path with a bias or grouped heads)"
            : "the math path (matmul, softmax, matmul)";
    }
    if (library)
        r.libraries.push_back(std::move(library));
}

// "torch.ops.prims.rev.default", "prims.rev.default" -> "prims::rev".
std::string qualifiedOpName(const std::string &target)
{
    std::string t = target.rfind("torch.ops.", 0) == 0 ? target.substr(10) : target;
    const size_t first = t.find('.');
    if (first == std::string::npos)
        return {};
    const size_t second = t.find('.', first + 1);
    return t.substr(0, first) + "::" + t.substr(first + 1, second == std::string::npos ? second : second - first - 1);
}

} // namespace

void registerStandIns(c10::Device device)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.done.empty())
        registerPrims(r);
    if (r.done.insert(device.type()).second)
        registerAttention(r, device);
}

std::string standInFor(const std::string &target, c10::Device device)
{
    Registry &r = registry();
    const std::string op = qualifiedOpName(target);
    std::lock_guard<std::mutex> lock(r.mutex);
    if (auto it = r.anyDevice.find(op); it != r.anyDevice.end())
        return it->second;
    if (auto it = r.byDevice.find({device.type(), op}); it != r.byDevice.end())
        return it->second;
    return {};
}

} // namespace fxs
