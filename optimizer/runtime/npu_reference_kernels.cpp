#include "npu_reference_kernels.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/distributed/c10d/GroupRegistry.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/library.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

namespace fxs {

namespace {

// The same order of operations as the unfused decomposition (float32 statistics, cast, then the weight), so a
// fused graph matches the graph it came from bit for bit where the decomposition is the usual LLaMA RMSNorm.
std::tuple<at::Tensor, at::Tensor> rmsNorm(const at::Tensor &x, const at::Tensor &gamma, double epsilon)
{
    at::Tensor xf = x.to(at::kFloat);
    at::Tensor rstd = at::rsqrt(xf.pow(2).mean({-1}, true) + epsilon);
    at::Tensor y = gamma * (xf * rstd).to(x.scalar_type());
    return {y, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> addRmsNorm(
    const at::Tensor &x1, const at::Tensor &x2, const at::Tensor &gamma, double epsilon)
{
    at::Tensor x = x1 + x2;
    auto [y, rstd] = rmsNorm(x, gamma, epsilon);
    return {y, rstd, x};
}

at::Tensor swiglu(const at::Tensor &self, int64_t dim)
{
    auto halves = self.chunk(2, dim);
    return at::silu(halves[0]) * halves[1];
}

at::Tensor rotaryMul(const at::Tensor &self, const at::Tensor &r1, const at::Tensor &r2)
{
    auto halves = self.chunk(2, -1);
    at::Tensor rotated = at::cat({-halves[1], halves[0]}, -1);
    return self * r1 + rotated * r2;
}

// torch_npu's MatmulAllReduce without quantisation: (x1 @ x2 + bias) all-reduced over the group `hcom` names,
// then + x3. On an NPU hcom is an HCCL communicator's name; here it is the name the process group is registered under
// (a rank worker registers the graph's group names), so the reduction is a real collective of the ranks.
at::Tensor mmAllReduceBase(const at::Tensor &x1, const at::Tensor &x2, c10::string_view hcom, c10::string_view reduceOp,
    const c10::optional<at::Tensor> &bias, const c10::optional<at::Tensor> &antiquantScale,
    const c10::optional<at::Tensor> &antiquantOffset, const c10::optional<at::Tensor> &x3,
    const c10::optional<at::Tensor> &dequantScale, const c10::optional<at::Tensor> &pertokenScale,
    const c10::optional<at::Tensor> &commQuantScale1, const c10::optional<at::Tensor> &commQuantScale2,
    int64_t antiquantGroupSize, int64_t commTurn)
{
    TORCH_CHECK(!antiquantScale && !antiquantOffset && !dequantScale && !pertokenScale && !commQuantScale1
            && !commQuantScale2,
        "npu_mm_all_reduce_base: fxscope's reference kernel has no quantised variant (antiquant, dequant, pertoken "
        "and comm_quant scales must be None)");
    TORCH_CHECK(reduceOp == "sum", "npu_mm_all_reduce_base: reduce_op '", std::string(reduceOp),
        "' (torch_npu supports 'sum')");
    (void)antiquantGroupSize;
    (void)commTurn; // how the NPU splits the work to overlap it with communication: no effect on the result
    at::Tensor y = at::matmul(x1, x2);
    if (bias)
        y = y + *bias;
    auto group = c10d::resolve_process_group(std::string(hcom));
    std::vector<at::Tensor> tensors{y};
    c10d::AllreduceOptions options;
    options.reduceOp = c10d::ReduceOp::SUM;
    group->allreduce(tensors, options)->wait();
    return x3 ? y + *x3 : y;
}

bool registered(const char *name)
{
    return c10::Dispatcher::singleton().findSchema({name, ""}).has_value();
}

std::set<std::string> &ownOps() // "npu_swiglu": the ops fxscope defined here
{
    static std::set<std::string> ops;
    return ops;
}

} // namespace

bool runsOnReferenceKernel(const std::string &target)
{
    // torch.ops.npu.NAME.overload or npu.NAME.overload
    const std::string prefix = target.rfind("torch.ops.", 0) == 0 ? "torch.ops.npu." : "npu.";
    if (target.rfind(prefix, 0) != 0)
        return false;
    const std::string rest = target.substr(prefix.size());
    return ownOps().count(rest.substr(0, rest.find('.'))) > 0;
}

void registerNpuReferenceKernels()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Libraries are created at run time rather than with TORCH_LIBRARY_FRAGMENT's static initialiser, so an
        // already loaded torch_npu keeps its own definitions and kernels.
        static auto defs = std::make_unique<torch::Library>(
            torch::Library::FRAGMENT, "npu", c10::nullopt, __FILE__, uint32_t(__LINE__));
        static auto impls = std::make_unique<torch::Library>(
            torch::Library::IMPL, "npu", c10::DispatchKey::CPU, __FILE__, uint32_t(__LINE__));
        if (!registered("npu::npu_rms_norm")) {
            defs->def("npu_rms_norm(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor)");
            ownOps().insert("npu_rms_norm");
            impls->impl("npu_rms_norm", TORCH_FN(rmsNorm));
        }
        if (!registered("npu::npu_add_rms_norm")) {
            defs->def("npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                      "-> (Tensor, Tensor, Tensor)");
            ownOps().insert("npu_add_rms_norm");
            impls->impl("npu_add_rms_norm", TORCH_FN(addRmsNorm));
        }
        if (!registered("npu::npu_swiglu")) {
            defs->def("npu_swiglu(Tensor self, int dim=-1) -> Tensor");
            ownOps().insert("npu_swiglu");
            impls->impl("npu_swiglu", TORCH_FN(swiglu));
        }
        if (!registered("npu::npu_rotary_mul")) {
            defs->def("npu_rotary_mul(Tensor self, Tensor r1, Tensor r2) -> Tensor");
            ownOps().insert("npu_rotary_mul");
            impls->impl("npu_rotary_mul", TORCH_FN(rotaryMul));
        }
        if (!registered("npu::npu_mm_all_reduce_base")) {
            defs->def("npu_mm_all_reduce_base(Tensor x1, Tensor x2, str hcom, *, str reduce_op='sum', Tensor? bias=None, "
                      "Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, Tensor? x3=None, "
                      "Tensor? dequant_scale=None, Tensor? pertoken_scale=None, Tensor? comm_quant_scale_1=None, "
                      "Tensor? comm_quant_scale_2=None, int antiquant_group_size=0, int comm_turn=0) -> Tensor");
            ownOps().insert("npu_mm_all_reduce_base");
            impls->impl("npu_mm_all_reduce_base", TORCH_FN(mmAllReduceBase));
        }
    });
}

} // namespace fxs
