#include "legacy_collectives.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <map>
#include <memory>
#include <mutex>

namespace fxs {

namespace {

std::string &worldGroupName()
{
    static std::string name;
    return name;
}

// The schemas torch 2.1-2.3 defined in torch/distributed/_functional_collectives_impl.py, and how many of their
// leading arguments the new op keeps before (group_size and) the group name.
struct Legacy {
    const char *schema;
    const char *current; // the _c10d_functional op
    size_t kept; // leading arguments passed on
    bool groupSize; // the new op takes group_size before the group name
};

const std::map<std::string, Legacy> &legacyOps()
{
    static const std::map<std::string, Legacy> ops = {
        {"all_reduce", {"all_reduce(Tensor self, str reduceOp, str tag, int[] ranks, int group_size) -> Tensor",
                           "all_reduce", 2, false}},
        {"all_reduce_coalesced",
            {"all_reduce_coalesced(Tensor[] self, str reduceOp, str tag, int[] ranks, int group_size) -> Tensor[]",
                "all_reduce_coalesced", 2, false}},
        {"all_gather_into_tensor",
            {"all_gather_into_tensor(Tensor shard, str tag, int[] ranks, int group_size) -> Tensor",
                "all_gather_into_tensor", 1, true}},
        {"reduce_scatter_tensor",
            {"reduce_scatter_tensor(Tensor input, str reduceOp, str tag, int[] ranks, int group_size) -> Tensor",
                "reduce_scatter_tensor", 2, true}},
        {"wait_tensor", {"wait_tensor(Tensor self) -> Tensor", "wait_tensor", 1, false}},
    };
    return ops;
}

// One boxed kernel for all of them: the stack holds the old op's arguments; it is rebuilt as the new op's.
void forward(const c10::OperatorHandle &op, torch::jit::Stack *stack)
{
    const Legacy &legacy = legacyOps().at(op.schema().name().substr(op.schema().name().find("::") + 2));
    const size_t count = op.schema().arguments().size();
    std::vector<c10::IValue> args(stack->end() - count, stack->end());
    torch::jit::drop(*stack, count);
    const int64_t groupSize = count > legacy.kept ? args.back().toInt() : 0;
    for (size_t i = 0; i < legacy.kept; ++i)
        stack->push_back(std::move(args[i]));
    if (legacy.groupSize)
        stack->push_back(groupSize);
    if (std::string(legacy.current) != "wait_tensor")
        stack->push_back(worldGroupName());
    auto current = c10::Dispatcher::singleton().findSchemaOrThrow(
        (std::string("_c10d_functional::") + legacy.current).c_str(), "");
    current.callBoxed(stack);
}

} // namespace

void registerLegacyCollectives(const std::string &worldGroup)
{
    static std::once_flag once;
    std::call_once(once, [&] {
        worldGroupName() = worldGroup;
        static auto defs = std::make_unique<torch::Library>(
            torch::Library::FRAGMENT, "c10d_functional", c10::nullopt, __FILE__, uint32_t(__LINE__));
        static auto impls = std::make_unique<torch::Library>(
            torch::Library::IMPL, "c10d_functional", c10::DispatchKey::CompositeExplicitAutograd, __FILE__,
            uint32_t(__LINE__));
        for (const auto &[name, legacy] : legacyOps()) {
            if (c10::Dispatcher::singleton().findSchema({"c10d_functional::" + name, ""}))
                continue;
            defs->def(legacy.schema);
            impls->impl(name.c_str(), torch::CppFunction::makeFromBoxedFunction<&forward>());
        }
    });
}

} // namespace fxs
