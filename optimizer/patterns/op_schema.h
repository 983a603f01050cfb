#pragma once
// One operator schema as PyTorch writes it ("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) ->
// Tensor"), parsed enough for what the matcher needs: argument names, kwarg-only markers, defaults and mutability.

#include "ir/argument.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxs {

struct SchemaArgument {
    std::string name;
    std::string type; // "Tensor", "int[1]", "Scalar", "float?" ...
    bool kwargOnly = false;
    bool mutated = false; // written as Tensor(a!)
    std::optional<Argument> defaultValue;
};

struct OpSchema {
    std::string ns; // "aten", "npu", "prims"
    std::string name; // "add"
    std::string overload; // "Tensor"; "default" when the schema names none
    std::vector<SchemaArgument> arguments;
    std::string returns; // kept verbatim
    std::string text; // the schema as given

    // "aten.add.Tensor": the form fxscope keeps targets in (see canonicalTarget).
    std::string target() const { return ns + '.' + name + '.' + overload; }
    std::string packet() const { return ns + '.' + name; }
    bool isMutable() const;

    static Result<OpSchema> parse(std::string_view text);
};

// Parses a schema default ("1", "1e-06", "True", "None", "[0, 1]", "'mean'", "contiguous_format").
Argument parseSchemaDefault(std::string_view text);

// Targets as fxscope compares them: "torch.ops.aten.add.Tensor" and "aten.add.Tensor" both give
// "aten.add.Tensor"; "<built-in function getitem>" and "_operator.getitem" give "operator.getitem".
std::string canonicalTarget(std::string_view target);

// The same for an op overload's target, without a copy ("torch.ops.aten.view.default" -> "aten.view.default"),
// for passes that test every node of a large graph.
inline std::string_view opTarget(std::string_view target)
{
    constexpr std::string_view kTorchOps = "torch.ops.";
    return target.substr(0, kTorchOps.size()) == kTorchOps ? target.substr(kTorchOps.size()) : target;
}

} // namespace fxs
