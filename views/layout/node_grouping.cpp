#include "node_grouping.h"

#include "ir/graph.h"

#include <algorithm>
#include <map>

namespace fxs {

namespace {

bool isInput(const Node &node)
{
    return node.op() == OpKind::Placeholder || node.op() == OpKind::GetAttr;
}

std::string baseName(const std::string &path)
{
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string shortType(const std::string &type)
{
    const size_t dot = type.find_last_of('.');
    return dot == std::string::npos ? type : type.substr(dot + 1);
}

struct Run {
    std::string key; // empty: no grouping information
    std::string label;
    std::string detail;
    std::vector<size_t> nodes;
};

// The key of a node at module depth `depth` (1 = outermost entry).
const ModuleStackEntry *moduleAt(const Node &node, size_t depth)
{
    const auto &stack = node.meta().nnModuleStack;
    if (stack.empty())
        return nullptr;
    return &stack[std::min(depth, stack.size()) - 1];
}

size_t countRuns(const std::vector<const Node *> &body, size_t depth)
{
    size_t runs = 0;
    const std::string *previous = nullptr;
    static const std::string empty;
    for (const Node *node : body) {
        const ModuleStackEntry *entry = moduleAt(*node, depth);
        const std::string &key = entry ? entry->path : empty;
        if (!previous || key != *previous)
            ++runs;
        previous = &key;
    }
    return runs;
}

} // namespace

Grouping groupNodes(const Graph &graph, const GroupingOptions &options)
{
    Grouping grouping;
    const size_t n = graph.size();
    grouping.groupOf.assign(n, -1);
    if (n < options.groupingThreshold || n == 0)
        return grouping;
    const size_t maxSize = std::max<size_t>(options.maxGroupSize, 2);
    const size_t minSize = std::min(std::max<size_t>(options.minGroupSize, 1), maxSize);

    // The body in the order groups are cut from: graph order, with each input (placeholder,
    // get_attr) moved just before its first user, so that weights land in the group of the op that
    // reads them. Inputs nobody uses keep their place; the output node stays on its own.
    std::vector<std::vector<const Node *>> inputsBefore(n);
    std::vector<bool> moved(n, false);
    for (const auto &node : graph.nodes()) {
        if (!isInput(*node) || node->users().empty())
            continue;
        size_t firstUser = n;
        for (const Node *user : node->users())
            firstUser = std::min(firstUser, user->index());
        if (graph.nodes()[firstUser]->op() == OpKind::Output)
            continue;
        inputsBefore[firstUser].push_back(node.get());
        moved[node->index()] = true;
    }
    std::vector<const Node *> body;
    std::vector<const Node *> keyNode; // per body entry: the node whose meta decides its group
    body.reserve(n);
    keyNode.reserve(n);
    bool hasModules = false;
    bool hasSource = false;
    size_t maxDepth = 0;
    for (const auto &node : graph.nodes()) {
        if (node->op() == OpKind::Output || moved[node->index()])
            continue;
        for (const Node *input : inputsBefore[node->index()]) {
            body.push_back(input);
            keyNode.push_back(node.get());
        }
        body.push_back(node.get());
        keyNode.push_back(node.get());
        hasModules |= !node->meta().nnModuleStack.empty();
        hasSource |= node->meta().source.has_value();
        maxDepth = std::max(maxDepth, node->meta().nnModuleStack.size());
    }
    grouping.rule = hasModules ? GroupingRule::ModuleStack : hasSource ? GroupingRule::Source : GroupingRule::Chunks;

    // The deepest module level whose runs still average a useful group size: deeper levels give
    // many two-node groups (a Linear is a view and an mm), shallower ones a single model-wide group.
    size_t depth = 1;
    if (hasModules) {
        const double wanted = double(2 * minSize);
        for (size_t d = 1; d <= maxDepth; ++d)
            if (double(keyNode.size()) / double(countRuns(keyNode, d)) >= wanted)
                depth = d;
    }

    // Runs of consecutive nodes with the same key.
    std::vector<Run> runs;
    for (size_t b = 0; b < body.size(); ++b) {
        const Node *node = keyNode[b];
        std::string key, label, detail;
        if (grouping.rule == GroupingRule::ModuleStack) {
            if (const ModuleStackEntry *entry = moduleAt(*node, depth)) {
                key = entry->path.empty() ? entry->key : entry->path;
                label = key;
                detail = shortType(entry->type);
            }
        } else if (grouping.rule == GroupingRule::Source && node->meta().source) {
            const SourceLocation &source = *node->meta().source;
            key = source.file + ':' + source.function;
            label = baseName(source.file) + (source.function.empty() ? "" : ':' + source.function);
            detail = source.file;
        }
        if (runs.empty() || runs.back().key != key)
            runs.push_back(Run{key, label, detail, {}});
        runs.back().nodes.push_back(body[b]->index());
    }

    // Short runs merge into the previous run while that stays small enough, else into the next;
    // the merged run keeps the label of its biggest part.
    std::vector<Run> merged;
    std::vector<size_t> biggestPart; // per merged run: size of the part whose label it carries
    for (Run &run : runs) {
        const bool small = run.nodes.size() < minSize;
        if (!merged.empty()) {
            Run &last = merged.back();
            const bool lastSmall = last.nodes.size() < minSize;
            if ((small || lastSmall) && last.nodes.size() + run.nodes.size() <= maxSize) {
                if (run.nodes.size() > biggestPart.back()) {
                    biggestPart.back() = run.nodes.size();
                    last.key = run.key;
                    last.label = run.label;
                    last.detail = run.detail;
                }
                last.nodes.insert(last.nodes.end(), run.nodes.begin(), run.nodes.end());
                continue;
            }
        }
        biggestPart.push_back(run.nodes.size());
        merged.push_back(std::move(run));
    }

    // Long runs split into equal chunks of at most maxSize.
    for (Run &run : merged) {
        const size_t count = run.nodes.size();
        const size_t parts = (count + maxSize - 1) / maxSize;
        for (size_t p = 0; p < parts; ++p) {
            const size_t begin = count * p / parts;
            const size_t end = count * (p + 1) / parts;
            NodeGroup group;
            group.nodes.assign(run.nodes.begin() + long(begin), run.nodes.begin() + long(end));
            group.detail = run.detail;
            if (run.label.empty()) {
                // No module or source: name the chunk by its first and last op, as the user knows them.
                std::vector<size_t> ops;
                for (size_t node : group.nodes)
                    if (!isInput(*graph.nodes()[node]))
                        ops.push_back(node);
                const auto &names = ops.empty() ? group.nodes : ops;
                const auto [first, last] = std::minmax_element(names.begin(), names.end());
                group.label = graph.nodes()[*first]->name() + " … " + graph.nodes()[*last]->name();
            } else
                group.label = parts > 1 ? run.label + " [" + std::to_string(p + 1) + "/" + std::to_string(parts) + "]"
                                        : run.label;
            grouping.groups.push_back(std::move(group));
        }
    }
    for (size_t g = 0; g < grouping.groups.size(); ++g)
        for (size_t node : grouping.groups[g].nodes)
            grouping.groupOf[node] = int(g);

    // Groups of one node show that node; the rest keep graph order inside.
    std::vector<NodeGroup> kept;
    for (NodeGroup &group : grouping.groups) {
        if (group.nodes.size() < 2) {
            for (size_t node : group.nodes)
                grouping.groupOf[node] = -1;
            continue;
        }
        std::sort(group.nodes.begin(), group.nodes.end());
        for (size_t node : group.nodes)
            grouping.groupOf[node] = int(kept.size());
        kept.push_back(std::move(group));
    }
    grouping.groups = std::move(kept);
    return grouping;
}

} // namespace fxs
