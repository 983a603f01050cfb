#pragma once
// Groups what differs into regions to read one at a time: unpaired nodes of both sides joined where they are
// connected in their graph or stand in for each other (an added node read where a removed one was, or provenance
// says it replaced it) — "A's add → npu_rms_norm → getitem became B's npu_add_rms_norm" — and connected changed
// pairs. Regions are sorted by where they sit in A.

#include "field_changes.h"

#include <string>
#include <vector>

namespace fxs {

enum class RegionKind { Removed, Added, Replaced, Changed };
const char *regionKindName(RegionKind kind); // "removed", "added", "replaced", "changed"

struct CompareRegion {
    RegionKind kind = RegionKind::Changed;
    std::vector<uint32_t> a, b; // node positions on each side, in graph order (a changed region lists both partners)
    std::vector<uint32_t> inputs; // A positions of paired nodes the region reads
    std::vector<uint32_t> users; // A positions of paired nodes that read the region
    std::string description;
};

// changes: the changed pairs, in A's order.
std::vector<CompareRegion> groupRegions(
    const IndexedGraph &a, const IndexedGraph &b, const NodePairing &pairing, const std::vector<NodeChange> &changes);

} // namespace fxs
