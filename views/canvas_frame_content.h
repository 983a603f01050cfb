#pragma once
// The parent of every item inside one expanded group's frame (its nodes, edges and ports). It draws nothing; it
// tells Qt that its children stay within its rectangle (ItemContainsChildrenInShape), so a paint or a hit test
// skips the whole group when the rectangle is out of view: the scene has no spatial index (see rebuildScene),
// and without this every repaint walked every item of the graph. Zoomed far out the canvas hides the children
// by making the content fully transparent (one call per group, not one per item: Qt skips a transparent subtree
// in paints and hit tests alike) and shows the group's overview instead.

#include <QGraphicsItem>

namespace fxs {

class CanvasFrameContent : public QGraphicsItem {
public:
    explicit CanvasFrameContent(const QRectF &frameRect);

    void setChildrenShown(bool shown);
    bool childrenShown() const { return opacity() > 0; }

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *, const QStyleOptionGraphicsItem *, QWidget *) override { } // nothing of its own

private:
    QRectF m_rect;
};

} // namespace fxs
