#pragma once
// torch.fx.passes.infra.partitioner.CapabilityBasedPartitioner for an operator-support set, with the reason every
// node is outside every partition, and fuse_by_partitions: each partition becomes a call_module of a nested graph
// owned by the caller (fused_0, fused_1, ...).
//
// The proposal follows the 2024-25 algorithm (PART-B in anchors-matcher.md §2.4) with skip_horizontal_fusion: nodes
// last to first, a supported node starts a partition and merges with its users' partitions (an unsupported node
// merges its users' partitions with each other), a merge is refused when it would close a cycle through a node
// outside both, the smaller partition goes into the larger. Then getitems follow their producer (to a fixed
// point) and, unless allowsSingleNodePartition, partitions with at most one compute node are dropped. The cycle test
// walks downstream of the merged partitions' external users with other partitions contracted (as fusion would make
// them), iteratively and bounded by node order: nothing past the last node any relevant partition spans can lead
// back, so on chains and ladders it stays local.

#include "graph_editor.h"
#include "util/json.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace fxs {

// What an NPU (or any backend) supports: call nodes whose target is in the set (canonical spelling; a packet such as
// "aten.add" covers its overloads; call_method and call_module targets by name).
class OperatorSupport {
public:
    OperatorSupport() = default;
    explicit OperatorSupport(std::vector<std::string> targets);
    explicit OperatorSupport(std::function<bool(const Node &)> predicate) : m_predicate(std::move(predicate)) { }

    bool isSupported(const Node &node) const;

private:
    std::set<std::string> m_targets;
    std::function<bool(const Node &)> m_predicate;
};

struct PartitionerOptions {
    bool allowsSingleNodePartition = false;
    std::vector<std::string> nonComputeOps; // added to aten.view and operator.getitem
    std::vector<std::string> allowedSingleNodePartitionOps;
};

struct NodePlacement {
    enum class Kind { InPartition, NotACall, Unsupported, Cycle, SingleNode, GetitemOfOutside };
    std::string node;
    Kind kind = Kind::InPartition;
    int partition = -1; // InPartition: index into ProposedPartitions::partitions
    std::string reason; // in words, empty for InPartition
    std::vector<std::string> cyclePath; // Cycle (and SingleNode after a refused merge): the path that closes it
};

struct ProposedPartitions {
    std::vector<std::vector<Node *>> partitions; // each in graph order; ordered by their first node
    std::vector<NodePlacement> nodes; // every node, in graph order
    size_t mergesRefused = 0; // merges refused because they would close a cycle

    const NodePlacement *find(const std::string &node) const;
    Json toJson() const;
};

class CapabilityBasedPartitioner {
public:
    CapabilityBasedPartitioner(const Graph &graph, OperatorSupport support, PartitionerOptions options = {});

    ProposedPartitions proposePartitions() const;

private:
    const Graph &m_graph;
    OperatorSupport m_support;
    PartitionerOptions m_options;
};

const char *placementKindName(NodePlacement::Kind kind);

// fuse_by_partitions: every partition (node names, of editor's graph) becomes `call_module prefix<i>` of a nested
// graph added to the caller; inputs from outside become placeholders (meta copied), outputs are the nodes with users
// outside (one output is returned as is, several as a tuple read through getitems); the originals are erased and the
// graph re-sorted. Returns the new call_module names. A partition that is not acyclic is an error
// ("Invalid partition, found dependency cycles").
Result<std::vector<std::string>> fusePartitions(
    GraphEditor &editor, const std::vector<std::vector<std::string>> &partitions, const std::string &prefix = "fused_");

} // namespace fxs
