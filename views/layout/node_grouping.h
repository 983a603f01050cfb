#pragma once
// Splits a graph's nodes into groups that the canvas shows collapsed as one box each, so that big
// graphs are laid out level by level (Model Explorer's lazy layers) instead of in one flat Graphviz
// call that takes minutes. Groups come from nn_module_stack when the graph has it, else from the
// source location (file:function), else from runs of consecutive nodes; none is larger than
// GroupingOptions::maxGroupSize.

#include <memory>
#include <string>
#include <vector>

namespace fxs {

class Graph;

enum class GroupingRule { None, ModuleStack, Source, Chunks };

struct NodeGroup {
    std::string label; // "layers.0.self_attn", "model.py:forward", "add_3 … mul_17" (first … last op)
    std::string detail; // module type or full source file; may be empty
    std::vector<size_t> nodes; // node indices in graph order
};

struct Grouping {
    GroupingRule rule = GroupingRule::None;
    std::vector<NodeGroup> groups;
    std::vector<int> groupOf; // per node index: its group, or -1 when the node is shown on its own

    // The unit a node belongs to at the top level: its group, or the node itself (groups.size() + node).
    size_t unitOf(size_t node) const { return groupOf[node] >= 0 ? size_t(groupOf[node]) : groups.size() + node; }
    size_t unitCount() const { return groups.size() + groupOf.size(); }
    bool isGroupUnit(size_t unit) const { return unit < groups.size(); }
};

struct GroupingOptions {
    size_t maxGroupSize = 150;
    // Runs shorter than this merge into a neighbour rather than becoming a group of their own.
    size_t minGroupSize = 6;
    // Graphs with fewer nodes are not grouped at all.
    size_t groupingThreshold = 40;
};

// Inputs (placeholders, get_attr) join the group of their first user; inputs without users keep
// their place in graph order, and the output node stays on its own. Groups are runs of consecutive nodes, so the
// group-level graph is acyclic. Iterative and linear in the graph's size.
Grouping groupNodes(const Graph &graph, const GroupingOptions &options = {});

} // namespace fxs
