#include "graph_level.h"

#include "util/text.h"

namespace fxs {

namespace {

// Other torch.ops namespaces count for neither level: Dynamo keeps custom ops (torch.ops.npu.*, collectives) as
// they are, and post-grad graphs hold them next to aten ones.
// Prefix tests rather than canonicalTarget: this runs on every node of the graph and of each pattern, and
// allocates nothing.
bool isAtenTarget(std::string_view target)
{
    constexpr std::string_view kTorchOps = "torch.ops.";
    if (startsWith(target, kTorchOps))
        target.remove_prefix(kTorchOps.size());
    return startsWith(target, "aten.") || startsWith(target, "prims.");
}

// torch.nn.functional.linear, torch.matmul; print(gm.graph) spells Dynamo's builtins "<built-in method cat ...>".
bool isTorchFunction(std::string_view target)
{
    return (startsWith(target, "torch.") && !startsWith(target, "torch.ops."))
        || startsWith(target, "<built-in method ") || startsWith(target, "<function ");
}

} // namespace

bool hasAtenCall(const Graph &graph)
{
    for (const auto &n : graph.nodes())
        if (n->op() == OpKind::CallFunction && isAtenTarget(n->target()))
            return true;
    return false;
}

GraphLevel graphLevel(const Graph &graph)
{
    GraphLevel level;
    for (const auto &n : graph.nodes()) {
        if (n->op() == OpKind::CallMethod || n->op() == OpKind::CallModule)
            ++level.dynamoCalls;
        else if (n->op() != OpKind::CallFunction)
            continue;
        else if (isAtenTarget(n->target()))
            ++level.atenCalls;
        else if (isTorchFunction(n->target()))
            ++level.dynamoCalls;
    }
    return level;
}

std::string dynamoLevelWarning(const Graph &graph, const PatternRegistry &registry)
{
    size_t atenPatterns = 0;
    for (const PatternEntryPtr &e : registry.entries())
        atenPatterns += e->searchGraph && hasAtenCall(*e->searchGraph);
    if (atenPatterns == 0)
        return {};
    if (hasAtenCall(graph)) // most graphs matched are aten-level: the first aten call settles it
        return {};
    const GraphLevel level = graphLevel(graph);
    if (!level.isDynamoLevel())
        return {};
    return "this graph is Dynamo-level (" + std::to_string(level.dynamoCalls)
        + " torch.* / call_method / call_module nodes, no aten ops); the patterns match aten graphs ("
        + std::to_string(atenPatterns) + " of " + std::to_string(registry.entries().size())
        + " here): capture the post-grad or AOT graph (TORCH_LOGS=post_grad_graphs or aot_graphs) and open that";
}

} // namespace fxs
