#pragma once
// What FX keeps in node.meta["val"]: a tensor's symbolic shape, stride, dtype and device, a SymInt,
// or a tuple of those for multi-output ops.

#include "../util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxs {

// One dimension or stride: a concrete integer or a sympy expression such as "s0" or "2*s0 + 1".
struct SymInt {
    int64_t value = 0;
    std::string expr; // empty when concrete

    bool isConcrete() const { return expr.empty(); }
    std::string toString() const { return isConcrete() ? std::to_string(value) : expr; }
    static SymInt parse(std::string_view text); // "64" -> concrete, anything else -> symbolic
    friend bool operator==(const SymInt &a, const SymInt &b) { return a.value == b.value && a.expr == b.expr; }
};

struct TensorMeta {
    std::string dtype; // "torch.float32"; empty when unknown
    std::vector<SymInt> shape;
    std::vector<SymInt> stride;
    bool hasStride = false;
    std::string device; // "cpu", "cuda:0", "npu:0"; empty when unknown

    friend bool operator==(const TensorMeta &a, const TensorMeta &b)
    {
        return a.dtype == b.dtype && a.shape == b.shape && a.stride == b.stride && a.hasStride == b.hasStride
            && a.device == b.device;
    }
};

struct ValueMeta {
    enum class Kind { Tensor, SymInt, SymFloat, SymBool, Tuple };
    Kind kind = Kind::Tensor;
    TensorMeta tensor; // Kind::Tensor
    std::string expr; // Sym kinds: the sympy expression
    std::vector<ValueMeta> items; // Kind::Tuple

    static ValueMeta ofTensor(TensorMeta t);
    static ValueMeta ofSym(Kind kind, std::string expr);

    // The annotation PyTorch prints in readable code: f32[8, 16][16, 1]cpu, Sym(s0).
    std::string toAnnotation() const;
    // Parses such an annotation; a Tuple has no annotation form.
    static Result<ValueMeta> parseAnnotation(std::string_view text);

    friend bool operator==(const ValueMeta &a, const ValueMeta &b)
    {
        return a.kind == b.kind && a.tensor == b.tensor && a.expr == b.expr && a.items == b.items;
    }
};

// dtype abbreviations as PyTorch prints them (f32 <-> torch.float32). Unknown input gives "".
std::string dtypeFromAbbreviation(std::string_view abbr);
std::string dtypeAbbreviation(std::string_view dtype);
// True for names such as torch.float32, torch.bfloat16, torch.bool.
bool isDtypeName(std::string_view name);

} // namespace fxs
