#include "npu_reference_kernels.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/distributed/c10d/GroupRegistry.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/library.h>

#include <array>
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

// TorchAir's add_rms_norm_cast fusion: npu_add_rms_norm, then the normalised value also in float32.
std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> addRmsNormCast(
    const at::Tensor &x1, const at::Tensor &x2, const at::Tensor &gamma, double epsilon)
{
    auto [y, rstd, x] = addRmsNorm(x1, x2, gamma, epsilon);
    return {y.to(at::kFloat), y, rstd, x};
}

at::Tensor npuDtypeCast(const at::Tensor &self, at::ScalarType dtype)
{
    return self.to(dtype);
}

// Per-row symmetric int8 quantisation with the row's absolute maximum as 127 (torch_npu's per-token dynamic quant);
// the same arithmetic as fxscope_capture/npu_ops.py's stand-in, which the torch host traces with.
std::tuple<at::Tensor, at::Tensor> perRowInt8(const at::Tensor &x)
{
    at::Tensor scale = (x.to(at::kFloat).abs().amax({-1}) / 127.0).clamp_min(1e-12);
    at::Tensor q = at::round(x.to(at::kFloat) / scale.unsqueeze(-1)).clamp(-128, 127).to(at::kChar);
    return {q, scale};
}

std::tuple<at::Tensor, at::Tensor> dynamicQuant(const at::Tensor &input, const c10::optional<at::Tensor> &smoothScales,
    const c10::optional<at::Tensor> &groupIndex, c10::optional<at::ScalarType> dstType)
{
    TORCH_CHECK(!groupIndex, "npu_dynamic_quant: fxscope's reference kernel has no group_index variant");
    TORCH_CHECK(!dstType || *dstType == at::kChar, "npu_dynamic_quant: fxscope's reference kernel quantises to int8");
    return perRowInt8(smoothScales ? input * *smoothScales : input);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor> addRmsNormDynamicQuant(const at::Tensor &x1,
    const at::Tensor &x2, const at::Tensor &gamma, const c10::optional<at::Tensor> &smoothScale1,
    const c10::optional<at::Tensor> &smoothScale2, const c10::optional<at::Tensor> &beta, double epsilon,
    c10::optional<std::array<bool, 2>> outputMask)
{
    auto [y, rstd, x] = addRmsNorm(x1, x2, gamma, epsilon);
    (void)rstd;
    if (beta)
        y = y + *beta;
    const bool first = outputMask ? (*outputMask)[0] : true;
    const bool second = outputMask ? (*outputMask)[1] : smoothScale1.has_value() && smoothScale2.has_value();
    // An output the mask leaves out has size 0, as torch_npu's meta function gives it.
    at::Tensor emptyQ = at::empty({0}, x1.options().dtype(at::kChar));
    at::Tensor emptyS = at::empty({0}, x1.options().dtype(at::kFloat));
    at::Tensor q1 = emptyQ, s1 = emptyS, q2 = emptyQ, s2 = emptyS;
    if (first)
        std::tie(q1, s1) = perRowInt8(smoothScale1 ? y * *smoothScale1 : y);
    if (second && smoothScale2)
        std::tie(q2, s2) = perRowInt8(y * *smoothScale2);
    return {q1, q2, x, s1, s2};
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
        // Each op fxscope defines here: its schema as torch_npu declares it, and the CPU kernel.
        auto define = [](const char *name, const char *schema, auto kernel) {
            if (registered((std::string("npu::") + name).c_str()))
                return;
            defs->def(schema);
            ownOps().insert(name);
            impls->impl(name, kernel);
        };
        define("npu_rms_norm",
            "npu_rms_norm(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor)",
            TORCH_FN(rmsNorm));
        define("npu_add_rms_norm",
            "npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                "-> (Tensor, Tensor, Tensor)",
            TORCH_FN(addRmsNorm));
        define("npu_add_rms_norm_cast",
            "npu_add_rms_norm_cast(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                "-> (Tensor, Tensor, Tensor, Tensor)",
            TORCH_FN(addRmsNormCast));
        define("_npu_dtype_cast",
            "_npu_dtype_cast(Tensor self, ScalarType dtype) -> Tensor",
            TORCH_FN(npuDtypeCast));
        define("npu_dynamic_quant",
            "npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None, Tensor? group_index=None, "
                "ScalarType? dst_type=None) -> (Tensor, Tensor)",
            TORCH_FN(dynamicQuant));
        define("npu_add_rms_norm_dynamic_quant",
            "npu_add_rms_norm_dynamic_quant(Tensor x1, Tensor x2, Tensor gamma, *, Tensor? smooth_scale1=None, "
                "Tensor? smooth_scale2=None, Tensor? beta=None, float epsilon=1e-06, bool[2]? output_mask=None) "
                "-> (Tensor, Tensor, Tensor, Tensor, Tensor)",
            TORCH_FN(addRmsNormDynamicQuant));
        define("npu_swiglu",
            "npu_swiglu(Tensor self, int dim=-1) -> Tensor",
            TORCH_FN(swiglu));
        define("npu_rotary_mul",
            "npu_rotary_mul(Tensor self, Tensor r1, Tensor r2) -> Tensor",
            TORCH_FN(rotaryMul));
        define("npu_mm_all_reduce_base",
            "npu_mm_all_reduce_base(Tensor x1, Tensor x2, str hcom, *, str reduce_op='sum', Tensor? bias=None, "
                "Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, Tensor? x3=None, "
                "Tensor? dequant_scale=None, Tensor? pertoken_scale=None, Tensor? comm_quant_scale_1=None, "
                "Tensor? comm_quant_scale_2=None, int antiquant_group_size=0, int comm_turn=0) -> Tensor",
            TORCH_FN(mmAllReduceBase));
    });
}

} // namespace fxs
