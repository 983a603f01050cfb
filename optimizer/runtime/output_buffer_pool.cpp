#include "output_buffer_pool.h"

namespace fxs {

c10::optional<c10::OperatorHandle> OutputBufferPool::outVariant(
    const c10::OperatorHandle &functional, c10::Device device)
{
    const c10::DispatchKey backend = c10::computeDispatchKey(c10::nullopt, c10::nullopt, device);
    const c10::FunctionSchema &schema = functional.schema();
    if (schema.is_mutable() || schema.returns().size() != 1
        || schema.returns()[0].type()->kind() != c10::TypeKind::TensorType || schema.returns()[0].alias_info())
        return c10::nullopt;
    const std::string &overload = schema.overload_name();
    for (const std::string &name : {std::string("out"), overload.empty() ? std::string() : overload + "_out"}) {
        if (name.empty())
            continue;
        auto handle = c10::Dispatcher::singleton().findSchema({schema.name(), name});
        if (!handle || !handle->hasKernelForDispatchKey(backend))
            continue;
        const auto &formals = handle->schema().arguments();
        const auto &wanted = schema.arguments();
        if (formals.size() != wanted.size() + 1 || !formals.back().is_out())
            continue;
        bool same = true;
        for (size_t k = 0; k < wanted.size() && same; ++k)
            same = formals[k].name() == wanted[k].name() && *formals[k].type() == *wanted[k].type();
        if (same)
            return handle;
    }
    return c10::nullopt;
}

void OutputBufferPool::give(at::Tensor &&t)
{
    if (!t.defined() || t.use_count() != 1 || !t.has_storage() || t.storage().use_count() != 1 || t.is_view()
        || t.storage_offset() != 0 || !t.is_contiguous()
        || t.storage().nbytes() != size_t(t.numel()) * t.element_size())
        return;
    if (m_free.size() < kCapacity) {
        m_free.push_back(std::move(t));
        return;
    }
    m_free[m_replace] = std::move(t);
    m_replace = (m_replace + 1) % kCapacity;
}

at::Tensor OutputBufferPool::take(c10::IntArrayRef sizes, c10::ScalarType dtype, c10::Device device)
{
    // From the back: the buffers freed last are the likeliest to be in cache.
    for (size_t k = m_free.size(); k-- > 0;) {
        const at::Tensor &t = m_free[k];
        if (t.sizes() == sizes && t.scalar_type() == dtype && t.device().type() == device.type()
            && (!device.has_index() || t.device().index() == device.index())) {
            at::Tensor found = std::move(m_free[k]);
            m_free[k] = std::move(m_free.back());
            m_free.pop_back();
            return found;
        }
    }
    return at::Tensor();
}

} // namespace fxs
