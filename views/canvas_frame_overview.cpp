#include "canvas_frame_overview.h"

#include "canvas_style.h"

#include <QPainter>

namespace fxs {

CanvasFrameOverview::CanvasFrameOverview(const QRectF &frameRect) : m_rect(frameRect)
{
    setZValue(0.5); // where the content it stands for lies
    setCacheMode(DeviceCoordinateCache);
}

void CanvasFrameOverview::addBox(const QRectF &rect, const QColor &fill)
{
    m_boxes[fill.rgba()].push_back(rect);
}

void CanvasFrameOverview::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    // One device pixel whatever the zoom, faint: at these zooms a real edge is a fraction of a pixel wide.
    QColor edge = canvas::edge();
    edge.setAlpha(70);
    QPen edgePen(edge, 1);
    edgePen.setCosmetic(true);
    painter->setPen(edgePen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_edges);
    painter->setPen(Qt::NoPen);
    for (const auto &[rgba, rects] : m_boxes) {
        painter->setBrush(QColor::fromRgba(rgba));
        painter->drawRects(rects.data(), int(rects.size()));
    }
}

} // namespace fxs
