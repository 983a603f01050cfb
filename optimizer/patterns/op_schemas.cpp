// The one table of built-in operator schemas: the aten/prims ops that common fusion patterns use, as
// native_functions.yaml declares them, and the torch_npu fusion ops from their public signatures
// (torch_npu op-plugin, op_plugin_functions.yaml). LibTorch's own registry can extend it at run time.

#include "op_schema_table.h"

namespace fxs {

const std::vector<const char *> &builtinOpSchemas()
{
    static const std::vector<const char *> schemas = {
        // Pointwise arithmetic.
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
        "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
        "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
        "aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
        "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor",
        "aten::mul.Scalar(Tensor self, Scalar other) -> Tensor",
        "aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        "aten::div.Tensor(Tensor self, Tensor other) -> Tensor",
        "aten::div.Scalar(Tensor self, Scalar other) -> Tensor",
        "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
        "aten::neg(Tensor self) -> Tensor",
        "aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor",
        "aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
        "aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor",
        "aten::rsqrt(Tensor self) -> Tensor",
        "aten::sqrt(Tensor self) -> Tensor",
        "aten::exp(Tensor self) -> Tensor",
        "aten::reciprocal(Tensor self) -> Tensor",
        "aten::silu(Tensor self) -> Tensor",
        "aten::silu_(Tensor(a!) self) -> Tensor(a!)",
        "aten::sigmoid(Tensor self) -> Tensor",
        "aten::gelu(Tensor self, *, str approximate='none') -> Tensor",
        "aten::relu(Tensor self) -> Tensor",
        "aten::tanh(Tensor self) -> Tensor",
        "aten::erf(Tensor self) -> Tensor",
        "aten::log(Tensor self) -> Tensor",
        "aten::square(Tensor self) -> Tensor",
        "aten::clamp_min(Tensor self, Scalar min) -> Tensor",
        "aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
        // Reductions and normalisation.
        "aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor",
        "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
        "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "aten::var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> "
        "(Tensor, Tensor)",
        "aten::var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)",
        "aten::var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
        "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> "
        "(Tensor, Tensor, Tensor)",
        "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float "
        "eps=1e-05, bool cudnn_enable=True) -> Tensor",
        "aten::rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor",
        "aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
        "aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        "aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
        "aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        "aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
        // Matrix products.
        "aten::mm(Tensor self, Tensor mat2) -> Tensor",
        "aten::bmm(Tensor self, Tensor mat2) -> Tensor",
        "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "aten::matmul(Tensor self, Tensor other) -> Tensor",
        "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
        // Views, copies and layout.
        "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
        "aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
        "aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)",
        "aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor",
        "aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)",
        "aten::t(Tensor(a) self) -> Tensor(a)",
        "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
        "aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
        "aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)",
        "aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)",
        "aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> "
        "Tensor(a)",
        "aten::select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)",
        "aten::alias(Tensor(a) self) -> Tensor(a)",
        "aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
        "aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
        "pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
        "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
        "aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
        "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
        "aten::split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
        "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "aten::embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool "
        "sparse=False) -> Tensor",
        "prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor",
        // torch_npu fusion ops (public signatures).
        "npu::npu_rms_norm(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor)",
        "npu::npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor, Tensor)",
        "npu::npu_rotary_mul(Tensor self, Tensor r1, Tensor r2, str rotary_mode='half') -> Tensor",
        "npu::npu_swiglu(Tensor self, int dim=-1) -> Tensor",
        "npu::npu_fusion_attention(Tensor query, Tensor key, Tensor value, int head_num, str input_layout, Tensor? "
        "pse=None, "
        "Tensor? padding_mask=None, Tensor? atten_mask=None, float scale=1., float keep_prob=1., int "
        "pre_tockens=2147483647, "
        "int next_tockens=2147483647, int inner_precise=0, int[]? prefix=None, int[]? actual_seq_qlen=None, "
        "int[]? actual_seq_kvlen=None, int sparse_mode=0, bool gen_mask_parallel=True, bool sync=False) "
        "-> (Tensor, Tensor, Tensor, Tensor, int, int, int)",
        "npu::npu_add_rms_norm_quant(Tensor x1, Tensor x2, Tensor gamma, Tensor scales1, Tensor? zero_points1=None, "
        "Tensor? scales2=None, Tensor? zero_points2=None, int axis=-1, float epsilon=1e-06, bool div_mode=True) "
        "-> (Tensor, Tensor, Tensor)",
        "npu::npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None, Tensor? group_index=None, "
        "ScalarType? dst_type=None) -> (Tensor, Tensor)",
        "npu::npu_quantize(Tensor self, Tensor scales, Tensor? zero_points, ScalarType dtype, int axis=1, bool "
        "div_mode=True) -> Tensor",
        "npu::npu_add_rms_norm_cast(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor, "
        "Tensor, Tensor)",
        "npu::npu_mm_all_reduce_base(Tensor x1, Tensor x2, str hcom, *, str reduce_op='sum', Tensor? bias=None, "
        "Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, Tensor? x3=None, Tensor? dequant_scale=None, "
        "Tensor? pertoken_scale=None, Tensor? comm_quant_scale_1=None, Tensor? comm_quant_scale_2=None, "
        "int antiquant_group_size=0, int comm_turn=0) -> Tensor",
        "npu::npu_add_rms_norm_dynamic_quant(Tensor x1, Tensor x2, Tensor gamma, *, Tensor? smooth_scale1=None, "
        "Tensor? smooth_scale2=None, Tensor? beta=None, float epsilon=1e-06, bool[2] output_mask=[False, False]) -> "
        "(Tensor, Tensor, Tensor, Tensor, Tensor)",
        "npu::npu_transpose_batchmatmul(Tensor input, Tensor weight, *, Tensor? bias=None, Tensor? scale=None, "
        "int[]? perm_x1=None, int[]? perm_x2=None, int[]? perm_y=None, int? batch_split_factor=1) -> Tensor",
        "npu::_npu_dtype_cast(Tensor self, ScalarType dtype) -> Tensor",
    };
    return schemas;
}

} // namespace fxs
