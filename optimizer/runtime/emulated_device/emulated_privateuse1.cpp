// An emulated PrivateUse1 device: the way torch_npu plugs an Ascend NPU into LibTorch, with host memory and CPU
// kernels underneath, so fxscope's device path (plugin loaded at run time, generic guards, stream
// synchronisation, allocator statistics) is exercised without the hardware. Modelled on PyTorch's
// open-registration test extension (test/cpp_extensions/open_registration_extension.cpp): an allocator, a device
// guard, the few kernels a backend must own (empty, views, copies), and a boxed fallback that runs every other
// operator on CPU views of the same memory.
//
// Load it with `fxscope-cli profile|devices --device-plugin libfxscope_emulated_npu.so` or FXSCOPE_DEVICE_PLUGINS.

#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace {

constexpr c10::DeviceType kEmulated = c10::DeviceType::PrivateUse1;

// Host memory, counted, so the runtime can report the device's allocator statistics.
struct Counters {
    std::atomic<int64_t> current{0};
    std::atomic<int64_t> peak{0};
    std::atomic<int64_t> allocations{0};
    std::atomic<int64_t> synchronizations{0};
};
Counters counters;

struct Block {
    void *data;
    size_t bytes;
};

void freeBlock(void *context)
{
    auto *block = static_cast<Block *>(context);
    counters.current -= int64_t(block->bytes);
    c10::free_cpu(block->data);
    delete block;
}

struct EmulatedAllocator final : c10::Allocator {
    c10::DataPtr allocate(size_t bytes) override
    {
        void *data = bytes ? c10::alloc_cpu(bytes) : nullptr;
        auto *block = new Block{data, bytes};
        int64_t now = counters.current += int64_t(bytes);
        int64_t peak = counters.peak.load();
        while (now > peak && !counters.peak.compare_exchange_weak(peak, now)) { }
        ++counters.allocations;
        return {data, block, &freeBlock, c10::Device(kEmulated, 0)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
    void copy_data(void *dest, const void *src, std::size_t count) const override { default_copy_data(dest, src, count); }
};
EmulatedAllocator allocator;
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &allocator)

// One device, one stream; work is synchronous, so events are recorded as soon as they are asked for.
struct EmulatedGuard final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kEmulated; }
    c10::Device exchangeDevice(c10::Device) const override { return c10::Device(kEmulated, 0); }
    c10::Device getDevice() const override { return c10::Device(kEmulated, 0); }
    void setDevice(c10::Device d) const override
    {
        TORCH_CHECK(
            d.type() == kEmulated && (!d.has_index() || d.index() == 0), "the emulated device has index 0 only");
    }
    void uncheckedSetDevice(c10::Device) const noexcept override { }
    c10::Stream getStream(c10::Device d) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, d); }
    c10::Stream exchangeStream(c10::Stream s) const noexcept override { return s; }
    c10::DeviceIndex deviceCount() const noexcept override { return 1; }
    void record(void **event, const c10::Stream &, const c10::DeviceIndex, const c10::EventFlag) const override
    {
        *event = reinterpret_cast<void *>(uintptr_t(1));
    }
    void block(void *, const c10::Stream &) const override { }
    bool queryEvent(void *) const override { return true; }
    bool queryStream(const c10::Stream &) const override { return true; }
    void synchronizeStream(const c10::Stream &) const override { ++counters.synchronizations; }
};
C10_REGISTER_GUARD_IMPL(PrivateUse1, EmulatedGuard);

bool onDevice(const at::Tensor &t)
{
    return t.defined() && t.device().type() == kEmulated;
}

// A CPU tensor over the same bytes (the whole storage, same offset, sizes and strides): in-place ops and views
// computed on it are seen by the device tensor.
at::Tensor cpuView(const at::Tensor &t)
{
    const c10::Storage &storage = t.storage();
    c10::Storage host(c10::Storage::use_byte_size_t(), storage.nbytes(),
        c10::DataPtr(storage.data_ptr().get(), c10::Device(c10::kCPU)), nullptr, false);
    return at::empty({0}, t.options().device(c10::kCPU)).set_(host, t.storage_offset(), t.sizes(), t.strides());
}

at::Tensor emptyMemoryFormat(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout>,
    c10::optional<at::Device>, c10::optional<bool>, c10::optional<at::MemoryFormat> format)
{
    return at::detail::empty_generic(
        size, &allocator, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::dtype_or_default(dtype), format);
}

at::Tensor emptyStrided(at::IntArrayRef size, at::IntArrayRef stride, c10::optional<at::ScalarType> dtype,
    c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>)
{
    return at::detail::empty_strided_generic(
        size, stride, &allocator, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::dtype_or_default(dtype));
}

// Copies between the host and the device, and within the device (copy_ routes non-CPU/CUDA devices here).
at::Tensor copyFrom(const at::Tensor &self, const at::Tensor &dst, bool)
{
    at::Tensor target = onDevice(dst) ? cpuView(dst) : dst;
    target.copy_(onDevice(self) ? cpuView(self) : self);
    return dst;
}

at::Tensor copyFromAndResize(const at::Tensor &self, const at::Tensor &dst)
{
    TORCH_CHECK(dst.sizes() == self.sizes() || dst.numel() == 0, "_copy_from_and_resize: sizes differ");
    if (dst.numel() == 0)
        dst.unsafeGetTensorImpl()->set_sizes_contiguous(self.sizes());
    TORCH_CHECK(dst.storage().nbytes() >= size_t(self.numel()) * self.itemsize() || self.numel() == 0,
        "_copy_from_and_resize: the destination's storage is too small");
    return copyFrom(self, dst, false);
}

// A result of the CPU call as a device tensor: a view of a device argument where it shares its memory, else a copy.
at::Tensor toDevice(const at::Tensor &out, const std::vector<std::pair<at::Tensor, at::Tensor>> &views)
{
    if (!out.defined() || out.device().type() != c10::kCPU)
        return out;
    for (const auto &[device, host] : views) {
        if (out.storage().data() != host.storage().data())
            continue;
        if (out.unsafeGetTensorImpl() == host.unsafeGetTensorImpl())
            return device; // in-place: the argument itself
        if (out.scalar_type() == device.scalar_type())
            return at::native::as_strided_tensorimpl(device, out.sizes(), out.strides(), out.storage_offset());
    }
    at::Tensor copy = emptyStrided(out.sizes(), out.strides(), out.scalar_type(), {}, {}, {});
    cpuView(copy).copy_(out);
    return copy;
}

// Every other operator: device tensors become CPU views of their memory, device arguments become cpu, the CPU
// kernel runs, and its results come back as device tensors.
void forwardToCpu(const c10::OperatorHandle &op, torch::jit::Stack *stack)
{
    const size_t count = op.schema().arguments().size();
    std::vector<std::pair<at::Tensor, at::Tensor>> views;
    bool explicitCpu = false;
    auto host = [&](const at::Tensor &t) {
        if (!onDevice(t))
            return t;
        at::Tensor v = cpuView(t);
        views.emplace_back(t, v);
        return v;
    };
    for (size_t i = stack->size() - count; i < stack->size(); ++i) {
        c10::IValue &v = (*stack)[i];
        if (v.isTensor()) {
            v = host(v.toTensor());
        } else if (v.isTensorList()) {
            c10::List<at::Tensor> list;
            for (const at::Tensor &t : v.toTensorList())
                list.push_back(host(t));
            v = list;
        } else if (v.isList() && v.toListRef().size() && v.toListRef()[0].isTensor()) {
            c10::List<c10::optional<at::Tensor>> list;
            for (const c10::IValue &item : v.toListRef())
                list.push_back(item.isTensor() ? c10::optional<at::Tensor>(host(item.toTensor())) : c10::nullopt);
            v = list;
        } else if (v.isDevice()) {
            explicitCpu = explicitCpu || v.toDevice().is_cpu();
            if (v.toDevice().type() == kEmulated)
                v = c10::Device(c10::kCPU);
        }
    }
    op.callBoxed(stack);
    if (explicitCpu)
        return; // the caller asked for host results
    for (c10::IValue &v : *stack) {
        if (v.isTensor()) {
            v = toDevice(v.toTensor(), views);
        } else if (v.isTensorList()) {
            c10::List<at::Tensor> list;
            for (const at::Tensor &t : v.toTensorList())
                list.push_back(toDevice(t, views));
            v = list;
        }
    }
}

} // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)
{
    m.impl("empty.memory_format", TORCH_FN(emptyMemoryFormat));
    m.impl("empty_strided", TORCH_FN(emptyStrided));
    m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
    m.impl("view", TORCH_FN(at::native::view));
    m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
    m.impl("_copy_from", TORCH_FN(copyFrom));
    m.impl("_copy_from_and_resize", TORCH_FN(copyFromAndResize));
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m)
{
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&forwardToCpu>());
}

// The optional statistics entry point fxscope looks up in a device plugin (a real plugin such as torch_npu lacks
// it; fxscope then reports what it measures itself). Returns false for a device it does not own.
extern "C" __attribute__((visibility("default"))) bool fxscope_device_memory_stats(
    int deviceType, int deviceIndex, int64_t *currentBytes, int64_t *peakBytes, int64_t *allocations)
{
    if (deviceType != int(kEmulated) || deviceIndex != 0)
        return false;
    *currentBytes = counters.current;
    *peakBytes = counters.peak;
    *allocations = counters.allocations;
    return true;
}

extern "C" __attribute__((visibility("default"))) void fxscope_device_reset_peak(int deviceType, int deviceIndex)
{
    if (deviceType == int(kEmulated) && deviceIndex == 0)
        counters.peak = counters.current.load();
}

extern "C" __attribute__((visibility("default"))) int64_t fxscope_emulated_synchronizations()
{
    return counters.synchronizations;
}
