#include "op_fallbacks.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/SymIntArrayRef.h>
#include <torch/library.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fxs {

namespace {

// aten.squeeze.dims as torch/_refs squeeze defines it: dims canonicalised (a duplicate is an error, as ATen's
// dim_list_to_bitset makes it), those of size 1 squeezed one at a time from the last; nothing to squeeze is a view.
at::Tensor squeezeDims(const at::Tensor &self, at::IntArrayRef dims)
{
    const int64_t rank = self.dim();
    std::vector<int64_t> wrapped;
    for (int64_t d : dims) {
        int64_t w = c10::maybe_wrap_dim(d, rank);
        TORCH_CHECK(std::find(wrapped.begin(), wrapped.end(), w) == wrapped.end(), "dim ", w,
            " appears multiple times in the list of dims");
        wrapped.push_back(w);
    }
    if (rank == 0)
        return at::alias(self);
    std::sort(wrapped.rbegin(), wrapped.rend());
    at::Tensor out = self;
    bool squeezed = false;
    for (int64_t d : wrapped)
        if (out.size(d) == 1) {
            out = out.squeeze(d);
            squeezed = true;
        }
    return squeezed ? out : at::alias(self);
}

// aten._unsafe_index / _unsafe_index_put: torch/_decomp's decompositions are aten.index / aten.index_put (the
// "unsafe" ones only let a compiler skip the bounds check; the checked ops compute the same values).
at::Tensor unsafeIndex(const at::Tensor &self, const c10::List<c10::optional<at::Tensor>> &indices)
{
    return at::index(self, indices);
}

at::Tensor unsafeIndexPut(const at::Tensor &self, const c10::List<c10::optional<at::Tensor>> &indices,
    const at::Tensor &values, bool accumulate)
{
    return at::index_put(self, indices, values, accumulate);
}

// Inductor's random prims, as torch/_inductor/inductor_prims.py implements them in eager mode: seeds drawn with
// randint below 2**63 - 1, a seed looked up by index, rand/randn of a size on the seed's device (the eager
// implementation draws from the device's generator; it does not reseed from `seed`).
at::Tensor inductorSeeds(int64_t count, c10::Device device)
{
    return at::randint(
        std::numeric_limits<int64_t>::max(), {count}, at::TensorOptions().dtype(at::kLong).device(device));
}

at::Tensor inductorLookupSeed(const at::Tensor &seeds, int64_t index)
{
    return seeds.select(0, index);
}

at::Tensor inductorRandom(c10::SymIntArrayRef size, const at::Tensor &seed, c10::string_view mode)
{
    at::IntArrayRef sizes = c10::asIntArrayRefSlow(size);
    at::TensorOptions options = at::TensorOptions().device(seed.device());
    if (mode == "rand")
        return at::rand(sizes, options);
    if (mode == "randn")
        return at::randn(sizes, options);
    TORCH_CHECK(false, "prims.inductor_random: expected mode 'rand' or 'randn', found '", std::string(mode), "'");
}

} // namespace

// aten._safe_softmax, torch/_decomp's safe_softmax: a softmax whose rows of nothing but -inf give zeros, not NaN.
at::Tensor safeSoftmax(const at::Tensor &self, int64_t dim, c10::optional<at::ScalarType> dtype)
{
    at::Tensor out = at::softmax(self, dim, dtype);
    at::Tensor maskedRows = self.eq(-std::numeric_limits<double>::infinity()).all(dim, true);
    return at::where(maskedRows, at::zeros_like(out), out);
}

namespace {

// aten.scaled_dot_product_attention (PyTorch 2.x) as ATen's own math backend computes it
// (_scaled_dot_product_attention_math, the one CPU tensors take): reduced precision computed in float32, a boolean
// mask made additive (-inf where False), the scale's square root applied to both q and k, key/value heads repeated
// for grouped-query attention, a softmax that gives 0 rather than NaN on fully masked rows, dropout if asked.
at::Tensor additiveMask(const at::Tensor &mask, at::ScalarType type)
{
    if (mask.scalar_type() != at::kBool)
        return mask;
    return at::zeros_like(mask, at::TensorOptions().dtype(type))
        .masked_fill_(mask.logical_not(), -std::numeric_limits<double>::infinity());
}

at::Tensor scaledDotProductAttention(const at::Tensor &queryIn, const at::Tensor &keyIn, const at::Tensor &valueIn,
    const c10::optional<at::Tensor> &attnMaskIn, double dropoutP, bool isCausal, c10::optional<double> scale,
    bool enableGqa)
{
    TORCH_CHECK(queryIn.scalar_type() == keyIn.scalar_type() && queryIn.scalar_type() == valueIn.scalar_type(),
        "Expected query, key, and value to have the same dtype, but got query.dtype: ", queryIn.scalar_type(),
        " key.dtype: ", keyIn.scalar_type(), " and value.dtype: ", valueIn.scalar_type(), " instead.");
    TORCH_CHECK(queryIn.dim() >= 2 && keyIn.dim() >= 2 && valueIn.dim() >= 2,
        "Expected query, key, and value to all be at least 2 dimensional");
    if (attnMaskIn)
        TORCH_CHECK(attnMaskIn->scalar_type() == at::kBool || attnMaskIn->scalar_type() == queryIn.scalar_type(),
            "Expected attn_mask dtype to be bool or to match query dtype, but got attn_mask.dtype: ",
            attnMaskIn->scalar_type(), " and query.dtype: ", queryIn.scalar_type(), " instead.");
    const at::ScalarType original = queryIn.scalar_type();
    const bool reduced = original == at::kHalf || original == at::kBFloat16;
    at::Tensor query = reduced ? queryIn.to(at::kFloat) : queryIn;
    at::Tensor key = reduced ? keyIn.to(at::kFloat) : keyIn;
    at::Tensor value = reduced ? valueIn.to(at::kFloat) : valueIn;
    c10::optional<at::Tensor> attnMask;
    if (attnMaskIn)
        attnMask = additiveMask(*attnMaskIn, query.scalar_type());
    const bool negative = scale && *scale < 0;
    const double scaling = std::sqrt(scale ? std::abs(*scale) : 1.0 / std::sqrt(double(query.size(-1))));
    query = query * (negative ? -scaling : scaling);
    if (isCausal) {
        TORCH_CHECK(
            !attnMask, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
        attnMask = additiveMask(
            at::ones({query.size(-2), key.size(-2)}, query.options().dtype(at::kBool)).tril(), query.scalar_type());
    }
    if (enableGqa && query.dim() >= 3 && key.size(-3) > 0 && value.size(-3) > 0) {
        key = key.repeat_interleave(query.size(-3) / key.size(-3), -3);
        value = value.repeat_interleave(query.size(-3) / value.size(-3), -3);
    }
    at::Tensor attn = at::matmul(query, key.transpose(-2, -1) * scaling);
    if (attnMask)
        attn.add_(*attnMask);
    at::Tensor probabilities = safeSoftmax(attn, -1, c10::nullopt);
    if (dropoutP > 0.0)
        probabilities = at::dropout(probabilities, dropoutP, true);
    return at::matmul(probabilities, value).to(original);
}

// torch.tensor of one Python number (a Dynamo-level graph's torch.tensor(1.0, dtype=torch.float32)): a 0-dim tensor
// of the dtype given, else float32 for a float, int64 for an int, bool for a bool, as torch.tensor infers them.
at::Tensor tensorOfScalar(const at::Scalar &data, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout,
    c10::optional<at::Device> device, c10::optional<bool> pinMemory, bool requiresGrad)
{
    (void)layout;
    (void)pinMemory;
    (void)requiresGrad; // the run is in inference mode
    at::ScalarType type = dtype  ? *dtype
        : data.isFloatingPoint() ? at::kFloat
        : data.isBoolean()       ? at::kBool
        : data.isComplex()       ? at::kComplexFloat
                                 : at::kLong;
    return at::scalar_tensor(data, at::TensorOptions().dtype(type).device(device.value_or(at::kCPU)));
}

// One fallback: the op's qualified name and overload, its schema as PyTorch declares it, and its kernel.
struct Fallback {
    const char *ns;
    const char *name;
    const char *overload;
    const char *schema;
    torch::CppFunction (*kernel)();
};

// Kernels registered for CompositeImplicitAutograd (m.def with a function): they decompose into ops every backend
// has, so they serve the CPU, CUDA and a PrivateUse1 device alike.
const Fallback kFallbacks[] = {
    {"aten", "squeeze", "dims", "squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)",
        [] { return torch::CppFunction(TORCH_FN(squeezeDims)); }},
    {"aten", "_unsafe_index", "Tensor", "_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(unsafeIndex)); }},
    {"aten", "_unsafe_index_put", "",
        "_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(unsafeIndexPut)); }},
    {"aten", "_safe_softmax", "", "_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(safeSoftmax)); }},
    {"aten", "scaled_dot_product_attention", "",
        "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
        "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(scaledDotProductAttention)); }},
    // torch.* functions of Dynamo-level graphs with no aten op of their name (the executor looks here next).
    {"fxscope", "tensor", "",
        "tensor(Scalar data, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, bool requires_grad=False) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(tensorOfScalar)); }},
    {"prims", "inductor_seeds", "", "inductor_seeds(int count, Device device) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(inductorSeeds)); }},
    {"prims", "inductor_lookup_seed", "", "inductor_lookup_seed(Tensor seeds, int index) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(inductorLookupSeed)); }},
    {"prims", "inductor_random", "", "inductor_random(SymInt[] size, Tensor seed, str mode) -> Tensor",
        [] { return torch::CppFunction(TORCH_FN(inductorRandom)); }},
};

} // namespace

void registerOpFallbacks()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Libraries made at run time, not by TORCH_LIBRARY_FRAGMENT's static initialiser, so an op the LibTorch (or a
        // loaded device plugin) already has keeps its own definition and kernels.
        static std::map<std::string, std::unique_ptr<torch::Library>> libraries;
        for (const Fallback &f : kFallbacks) {
            std::string qualified = std::string(f.ns) + "::" + f.name;
            if (c10::Dispatcher::singleton().findSchema({qualified, f.overload}))
                continue;
            auto &library = libraries[f.ns];
            if (!library)
                library = std::make_unique<torch::Library>(
                    torch::Library::FRAGMENT, f.ns, c10::nullopt, __FILE__, uint32_t(__LINE__));
            library->def(f.schema, f.kernel());
            spdlog::debug("runtime: {}{}{} runs as its decomposition (this LibTorch lacks it)", qualified,
                *f.overload ? "." : "", f.overload);
        }
    });
}

std::vector<c10::OperatorHandle> functionFallbacks(const std::string &name)
{
    registerOpFallbacks();
    std::vector<c10::OperatorHandle> found;
    for (const Fallback &f : kFallbacks)
        if (std::string(f.ns) == "fxscope" && name == f.name)
            if (auto handle = c10::Dispatcher::singleton().findSchema({std::string("fxscope::") + f.name, f.overload}))
                found.push_back(*handle);
    return found;
}

} // namespace fxs
