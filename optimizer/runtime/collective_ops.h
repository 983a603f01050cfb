#pragma once
// Which nodes of a graph are collectives (torch.distributed's functional collectives, old and new spellings, and
// torch_npu's matmul + all_reduce fusions), and the process-group names and sizes they were captured with. Torch-free:
// the CLI checks --ranks against the graph before any worker starts.

#include <optional>
#include <string>
#include <vector>

namespace fxs {

class Graph;
class Node;

// "torch.ops._c10d_functional.all_reduce.default", "c10d_functional.wait_tensor.default",
// "torch.ops.npu.npu_mm_all_reduce_base.default": nodes that communicate (wait_tensor included: it is where a rank
// waits for the others).
bool isCollectiveTarget(const std::string &target);

struct CollectiveUse {
    std::vector<std::string> groupNames; // as the graph passes them ("0"), in first-use order
    std::optional<int64_t> groupSize; // the group_size argument of all_gather / reduce_scatter, when one is given
    std::string groupSizeNode; // the node that gave it
    bool legacy = false; // the older c10d_functional.* spelling (tag, ranks, group_size)
    size_t nodes = 0;
};

// The collectives of `graph` (top level and nested graphs).
CollectiveUse collectiveUse(const Graph &graph);

} // namespace fxs
