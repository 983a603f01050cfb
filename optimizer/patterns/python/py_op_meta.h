#pragma once
// Output metadata (meta["val"]: dtype, shape, stride, device) of one op the tracer records, from its inputs' metadata,
// as PyTorch's meta functions and type promotion give it under make_fx. Symbolic sizes propagate as expressions.
// Where a rule is not modelled exactly the output stays unknown (nullopt) rather than guessed.

#include "ir/tensor_meta.h"
#include "patterns/op_schema.h"
#include "py_value.h"

#include <optional>
#include <string>
#include <vector>

namespace fxs {

class PyOpMeta {
public:
    // values: per schema argument, the value given (nullptr when the default applies); traced tensors carry their
    // node's meta. One entry per output of the schema.
    static std::vector<std::optional<TensorMeta>> infer(
        const OpSchema &schema, const std::vector<const PyValue *> &values, size_t outputs);

    // Contiguous strides of a shape (symbolic products as sympy prints them: 16*s1); nullopt when a size is an
    // expression this cannot multiply.
    static std::optional<std::vector<SymInt>> contiguousStrides(const std::vector<SymInt> &shape);

    // torch.promote_types on dtype names ("torch.float16"); empty when not modelled (complex, quantised).
    static std::string promoteTypes(const std::string &a, const std::string &b);
    static bool isFloating(const std::string &dtype);
    static bool isIntegral(const std::string &dtype); // bool included
};

} // namespace fxs
