#pragma once
// The parent of every item inside one expanded group's frame (its nodes, edges and ports). It draws nothing; it
// tells Qt that its children stay within its rectangle (ItemContainsChildrenInShape), so a paint or a hit test
// skips the whole group when the rectangle is out of view: the scene has no spatial index (see rebuildScene),
// and without this every repaint walked every item of the graph.

#include <QGraphicsItem>

namespace fxs {

class CanvasFrameContent : public QGraphicsItem {
public:
    explicit CanvasFrameContent(const QRectF &frameRect);

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *, const QStyleOptionGraphicsItem *, QWidget *) override { } // nothing of its own

private:
    QRectF m_rect;
};

} // namespace fxs
