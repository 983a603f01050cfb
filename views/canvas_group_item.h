#pragma once
// A group of nodes on the graph canvas: collapsed, a stacked box with its label and node count;
// expanded, a light frame with a title bar around the group's nodes. Double-clicking either (or
// clicking the +/− badge) toggles it; the canvas does the toggling.

#include "canvas_highlight.h"

#include <QGraphicsItem>

namespace fxs {

struct NodeGroup;

class CanvasGroupItem : public QGraphicsItem {
public:
    CanvasGroupItem(size_t groupIndex, const NodeGroup &group, bool expanded, const QRectF &rect);

    size_t groupIndex() const { return m_groupIndex; }
    bool isExpanded() const { return m_expanded; }
    // The +/− badge, in item coordinates.
    QRectF toggleRect() const;
    // The title bar of a frame (where clicks select the group rather than fall through to nodes).
    QRectF titleRect() const;
    void setHighlight(CanvasHighlight highlight);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    size_t m_groupIndex;
    bool m_expanded;
    QRectF m_rect;
    QString m_label;
    QString m_detail;
    int m_count;
    CanvasHighlight m_highlight = CanvasHighlight::None;
};

} // namespace fxs
