#pragma once
// What an expanded group shows zoomed far out, in place of its content: its boxes as plain rectangles in their
// category colours and its edges as thin lines, drawn from plain data in a few calls and cached as a pixmap in
// device coordinates (panning blits it). Thousands of node and edge items in view cost a frame each otherwise.

#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>

#include <map>
#include <vector>

namespace fxs {

class CanvasFrameOverview : public QGraphicsItem {
public:
    explicit CanvasFrameOverview(const QRectF &frameRect);

    void addBox(const QRectF &rect, const QColor &fill);
    void addEdge(const QPainterPath &path) { m_edges.addPath(path); }

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QRectF m_rect;
    std::map<QRgb, std::vector<QRectF>> m_boxes; // by fill: one drawRects call per colour
    QPainterPath m_edges;
};

} // namespace fxs
