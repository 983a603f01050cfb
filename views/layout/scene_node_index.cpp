#include "scene_node_index.h"

#include <cmath>

namespace fxs {

SceneNodeIndex::SceneNodeIndex(const SceneLayout &layout)
{
    for (size_t i = 0; i < layout.items.size(); ++i) {
        const SceneItem &item = layout.items[i];
        if (item.kind != SceneItemKind::Node)
            continue;
        const auto box = uint32_t(m_boxes.size());
        m_boxes.push_back({int(i), item.rect});
        const auto x0 = int64_t(std::floor(item.rect.x / kCell)), x1 = int64_t(std::floor(item.rect.right() / kCell));
        const auto y0 = int64_t(std::floor(item.rect.y / kCell)), y1 = int64_t(std::floor(item.rect.bottom() / kCell));
        for (int64_t y = y0; y <= y1; ++y)
            for (int64_t x = x0; x <= x1; ++x)
                m_cells[cellKey(x, y)].push_back(box);
    }
}

int SceneNodeIndex::nodeItemAt(LayoutPoint p) const
{
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
        return -1;
    auto it = m_cells.find(cellKey(int64_t(std::floor(p.x / kCell)), int64_t(std::floor(p.y / kCell))));
    if (it == m_cells.end())
        return -1;
    for (uint32_t box : it->second) {
        const LayoutRect &r = m_boxes[box].rect;
        if (p.x >= r.x && p.x <= r.right() && p.y >= r.y && p.y <= r.bottom())
            return m_boxes[box].item;
    }
    return -1;
}

} // namespace fxs
