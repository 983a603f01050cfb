#include "op_fallbacks.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/SymIntArrayRef.h>
#include <torch/library.h>

#include <spdlog/spdlog.h>

#include <algorithm>
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

} // namespace fxs
