#include "collective_ops.h"

#include "ir/graph.h"
#include "ir/node.h"

#include <algorithm>

namespace fxs {

namespace {

std::string opNamespaceAndName(const std::string &target)
{
    std::string t = target.rfind("torch.ops.", 0) == 0 ? target.substr(10) : target;
    const size_t dot = t.find('.');
    if (dot == std::string::npos)
        return t;
    const size_t second = t.find('.', dot + 1);
    return second == std::string::npos ? t : t.substr(0, second);
}

// A group argument as the dump spells it: '0' (a string), or 0 where Inductor's fragments print it bare.
std::optional<std::string> groupText(const Argument &arg)
{
    if (arg.kind() == Argument::Kind::String)
        return arg.text();
    if (arg.kind() == Argument::Kind::Int)
        return std::to_string(arg.toInt());
    return std::nullopt;
}

const Argument *kwarg(const Node &node, const char *name)
{
    for (const auto &[key, value] : node.kwargs())
        if (key == name)
            return &value;
    return nullptr;
}

void scan(const Graph &graph, CollectiveUse &use)
{
    for (const auto &node : graph.nodes()) {
        if (node->op() != OpKind::CallFunction || !isCollectiveTarget(node->target()))
            continue;
        ++use.nodes;
        const std::string op = opNamespaceAndName(node->target());
        const bool legacy = op.rfind("c10d_functional.", 0) == 0;
        use.legacy = use.legacy || legacy;
        const std::string name = op.substr(op.find('.') + 1);
        const auto &args = node->args();
        std::optional<std::string> group;
        if (op == "npu.npu_mm_all_reduce_base" || op == "npu.npu_all_gather_base_mm"
            || op == "npu.npu_mm_reduce_scatter_base") {
            if (args.size() > 2)
                group = groupText(args[2]);
            else if (const Argument *hcom = kwarg(*node, "hcom"))
                group = groupText(*hcom);
        } else if (!legacy && name != "wait_tensor") {
            if (const Argument *g = kwarg(*node, "group_name"))
                group = groupText(*g);
            else if (!args.empty())
                group = groupText(args.back());
        }
        if (group && std::find(use.groupNames.begin(), use.groupNames.end(), *group) == use.groupNames.end())
            use.groupNames.push_back(*group);
        // group_size: all_gather_into_tensor(input, group_size, group), reduce_scatter_tensor(input, op, size, group);
        // the older spelling ends in (tag, ranks, group_size).
        std::optional<int64_t> size;
        if (legacy && !args.empty() && args.back().kind() == Argument::Kind::Int && name != "wait_tensor")
            size = args.back().toInt();
        else if (name == "all_gather_into_tensor" && args.size() > 1 && args[1].kind() == Argument::Kind::Int)
            size = args[1].toInt();
        else if (name == "reduce_scatter_tensor" && args.size() > 2 && args[2].kind() == Argument::Kind::Int)
            size = args[2].toInt();
        if (size && !use.groupSize) {
            use.groupSize = size;
            use.groupSizeNode = node->name();
        }
    }
    for (const auto &[name, nested] : graph.subgraphs())
        scan(*nested, use);
}

} // namespace

bool isCollectiveTarget(const std::string &target)
{
    const std::string op = opNamespaceAndName(target);
    if (op.rfind("_c10d_functional.", 0) == 0 || op.rfind("c10d_functional.", 0) == 0
        || op.rfind("_c10d_functional_autograd.", 0) == 0)
        return true;
    return op == "npu.npu_mm_all_reduce_base" || op == "npu.npu_all_gather_base_mm"
        || op == "npu.npu_mm_reduce_scatter_base";
}

CollectiveUse collectiveUse(const Graph &graph)
{
    CollectiveUse use;
    scan(graph, use);
    return use;
}

} // namespace fxs
