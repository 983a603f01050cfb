#include "autocast_scope.h"

#include <ATen/autocast_mode.h>

#include <string>

namespace fxs {

namespace {

bool isEnabled(c10::DeviceType device)
{
    switch (device) {
    case c10::DeviceType::CPU: return at::autocast::is_cpu_enabled();
    case c10::DeviceType::CUDA: return at::autocast::is_enabled();
    default: return at::autocast::is_xpu_enabled();
    }
}

void setEnabled(c10::DeviceType device, bool enabled)
{
    switch (device) {
    case c10::DeviceType::CPU: at::autocast::set_cpu_enabled(enabled); break;
    case c10::DeviceType::CUDA: at::autocast::set_enabled(enabled); break;
    default: at::autocast::set_xpu_enabled(enabled); break;
    }
}

c10::ScalarType dtypeOf(c10::DeviceType device)
{
    switch (device) {
    case c10::DeviceType::CPU: return at::autocast::get_autocast_cpu_dtype();
    case c10::DeviceType::CUDA: return at::autocast::get_autocast_gpu_dtype();
    default: return at::autocast::get_autocast_xpu_dtype();
    }
}

void setDtype(c10::DeviceType device, c10::ScalarType dtype)
{
    switch (device) {
    case c10::DeviceType::CPU: at::autocast::set_autocast_cpu_dtype(dtype); break;
    case c10::DeviceType::CUDA: at::autocast::set_autocast_gpu_dtype(dtype); break;
    default: at::autocast::set_autocast_xpu_dtype(dtype); break;
    }
}

} // namespace

Status AutocastScope::supports(c10::DeviceType device)
{
    if (device == c10::DeviceType::CPU || device == c10::DeviceType::CUDA || device == c10::DeviceType::XPU)
        return Ok{};
    return Error{{}, 0, 0,
        "autocast on " + c10::DeviceTypeName(device, true) + ": this LibTorch has autocast for cpu, cuda and xpu only"};
}

AutocastScope::AutocastScope(const AutocastSpec &spec)
    : m_device(spec.device), m_previousEnabled(isEnabled(spec.device)), m_previousDtype(dtypeOf(spec.device)),
      m_previousCacheEnabled(at::autocast::is_autocast_cache_enabled())
{
    setEnabled(m_device, spec.enabled);
    setDtype(m_device, spec.dtype.value_or(m_previousDtype));
    at::autocast::increment_nesting();
    at::autocast::set_autocast_cache_enabled(spec.cacheEnabled.value_or(m_previousCacheEnabled));
}

AutocastScope::~AutocastScope()
{
    // The cache of casts lives as long as the outermost autocast region.
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    setEnabled(m_device, m_previousEnabled);
    setDtype(m_device, m_previousDtype);
    at::autocast::set_autocast_cache_enabled(m_previousCacheEnabled);
}

} // namespace fxs
