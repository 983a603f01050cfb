#pragma once
// Finds the node box under a point of a laid-out scene without looking at every box: node boxes are hashed into
// square cells once per layout. The canvas hit-tests the boxes of its zoomed-out overview (where node items are
// hidden) on every mouse move, on graphs of tens of thousands of nodes.

#include "scene_layout.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fxs {

class SceneNodeIndex {
public:
    SceneNodeIndex() = default;
    explicit SceneNodeIndex(const SceneLayout &layout);

    // The scene item index of the Node item whose box holds `p` (the first in item order where boxes overlap),
    // else -1.
    int nodeItemAt(LayoutPoint p) const;
    size_t size() const { return m_boxes.size(); }

private:
    static constexpr double kCell = 96; // points: a cell holds a few node boxes
    static int64_t cellKey(int64_t column, int64_t row) { return (row << 32) ^ (column & 0xffffffff); }

    struct Box {
        int item;
        LayoutRect rect;
    };
    std::vector<Box> m_boxes;
    std::unordered_map<int64_t, std::vector<uint32_t>> m_cells; // cell -> boxes, in item order
};

} // namespace fxs
