#pragma once
// LibTorch's autocast state for one device type, set for the length of a scope and restored after it, as
// torch.autocast's __enter__ and __exit__ do: what higher_order.wrap_with_autocast runs its body under.
// Internal to the runtime module (torch types inside).

#include "util/result.h"

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>

namespace fxs {

// The node's arguments: wrap_with_autocast(device_type, dtype, enabled, cache_enabled, body, *operands).
struct AutocastSpec {
    c10::DeviceType device = c10::DeviceType::CPU;
    c10::optional<c10::ScalarType> dtype; // none: the device type's current autocast dtype
    bool enabled = true;
    c10::optional<bool> cacheEnabled; // none: the current cache setting
};

class AutocastScope {
public:
    // An error when this LibTorch has no autocast for the device type.
    static Status supports(c10::DeviceType device);

    explicit AutocastScope(const AutocastSpec &spec);
    ~AutocastScope();
    AutocastScope(const AutocastScope &) = delete;
    AutocastScope &operator=(const AutocastScope &) = delete;

private:
    c10::DeviceType m_device;
    bool m_previousEnabled = false;
    c10::ScalarType m_previousDtype = c10::ScalarType::Undefined;
    bool m_previousCacheEnabled = true;
};

} // namespace fxs
