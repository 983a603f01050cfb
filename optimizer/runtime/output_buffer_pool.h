#pragma once
// Memory planning for one graph run: tensors freed after their last use are kept here, and a later node whose
// op has an out= variant writes into one of the same shape instead of allocating. On the CPU allocation and
// output set-up are about half of a small op's cost. Internal to the runtime module (torch types inside).

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/TensorOptions.h>

#include <vector>

namespace fxs {

class OutputBufferPool {
public:
    // The out= overload of a functional op that returns one tensor (aten::add.Tensor -> aten::add.out), when its
    // other arguments are the functional op's, in the same order and of the same types, and the device's backend
    // has a kernel of its own for it. Out variants generated from the functional op (relu.out) call it and copy
    // the result: slower than the functional op.
    static c10::optional<c10::OperatorHandle> outVariant(const c10::OperatorHandle &functional, c10::Device device);

    // Keeps `t` if nothing else can see it (no other reference to the tensor or its storage, dense, contiguous).
    void give(at::Tensor &&t);
    // A kept tensor of exactly this shape, dtype and device, or an undefined tensor.
    at::Tensor take(c10::IntArrayRef sizes, c10::ScalarType dtype, c10::Device device);
    void clear()
    {
        m_free.clear();
        m_replace = 0;
    }

private:
    // A few buffers suffice: a value is usually taken back within a few nodes of being freed. When the pool is
    // full, a new buffer replaces one of the kept ones (round robin), which goes back to the allocator.
    static constexpr size_t kCapacity = 16;
    std::vector<at::Tensor> m_free;
    size_t m_replace = 0;
};

} // namespace fxs
