#include "op_fallbacks.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/SymIntArrayRef.h>
#include <torch/library.h>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fxs {

namespace {

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
    at::IntArrayRef sizes = C10_AS_INTARRAYREF_SLOW(size);
    at::TensorOptions options = at::TensorOptions().device(seed.device());
    if (mode == "rand")
        return at::rand(sizes, options);
    if (mode == "randn")
        return at::randn(sizes, options);
    TORCH_CHECK(false, "prims.inductor_random: expected mode 'rand' or 'randn', found '", std::string(mode), "'");
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
