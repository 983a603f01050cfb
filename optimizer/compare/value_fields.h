#pragma once
// The parts of a node's meta["val"] a comparison reports one by one (shape, dtype, stride, device, and the
// expression of a SymInt), spelled the way PyTorch prints them; a tuple of outputs lists its items' parts.

#include "ir/tensor_meta.h"

#include <string>

namespace fxs {

enum class ValueField { Shape, Dtype, Stride, Device, Expression };
inline constexpr ValueField kAllValueFields[]
    = {ValueField::Shape, ValueField::Dtype, ValueField::Stride, ValueField::Device, ValueField::Expression};

const char *valueFieldName(ValueField field); // "shape", "dtype", ...
// The field's text: "[1, 128, 4096]", "torch.float16", "cpu"; "(…, …)" for a tuple; empty where the value has
// no such part (a SymInt's shape) or the dump did not say (a tensor without strides).
std::string valueFieldText(const ValueMeta &value, ValueField field);
// The whole value as one text (readable annotations, tuples in parentheses).
std::string valueText(const ValueMeta &value);

} // namespace fxs
