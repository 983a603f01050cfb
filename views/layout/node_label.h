#pragma once
// What a node's box says and how big it is: its name, a short target (aten.mm) and the shape of its
// value, plus the category that picks its colour. Qt-free, so the layout engine sizes boxes exactly
// as the canvas later fills them.

#include <string>

namespace fxs {

class Node;

enum class NodeCategory {
    Placeholder,
    Output,
    GetAttr,
    CallModule,
    CallMethod,
    Aten,
    Prims,
    Npu, // torch.ops.npu.* and torch_npu.*
    Operator, // Python operators: operator.getitem, operator.add
    HigherOrder, // torch.ops.higher_order.*
    Function, // any other call_function
};

struct NodeLabel {
    std::string name;
    std::string target; // short: "aten.mm", "operator.getitem", "placeholder"
    std::string shape; // "f16[1, 128, 4096]", "(f32[4], f32[4])", "Sym(s0)"; empty without meta
    NodeCategory category = NodeCategory::Function;
};

NodeLabel nodeLabel(const Node &node);
// "torch.ops.aten.mm.default" -> "aten.mm"; "aten::add.Tensor" -> "aten.add".
std::string shortTarget(const std::string &target);
NodeCategory nodeCategory(const Node &node);

// Box sizes in points, estimated from the label's character counts for the canvas's fonts (a
// proportional font averages under 6.3 points per character at 8 pt; longer text is elided).
struct NodeBoxSize {
    double width = 0;
    double height = 0;
};
NodeBoxSize nodeBoxSize(const NodeLabel &label);

} // namespace fxs
