#include "canvas_overview_marks.h"

#include <QPainter>

namespace fxs {

CanvasOverviewMarks::CanvasOverviewMarks(const QRectF &sceneBounds) : m_rect(sceneBounds)
{
    setZValue(5); // over every overview and frame
    // Panning blits the picture; it is drawn again only when the marks or the zoom change.
    setCacheMode(DeviceCoordinateCache);
    setAcceptedMouseButtons(Qt::NoButton); // a picture only: clicks go to the canvas's own hit test
}

void CanvasOverviewMarks::clear()
{
    m_layers.clear();
    m_count = 0;
}

void CanvasOverviewMarks::addBox(const QRectF &rect, const QColor &color, int outlineWidth)
{
    m_layers[Layer{color.rgba(), outlineWidth}].push_back(rect);
    ++m_count;
}

void CanvasOverviewMarks::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    for (const auto &[layer, rects] : m_layers) {
        const QColor color = QColor::fromRgba(layer.color);
        if (layer.outlineWidth > 0) {
            QPen pen(color, layer.outlineWidth);
            pen.setCosmetic(true);
            pen.setJoinStyle(Qt::MiterJoin);
            painter->setPen(pen);
        } else {
            painter->setPen(Qt::NoPen);
        }
        painter->setBrush(color);
        painter->drawRects(rects.data(), int(rects.size()));
    }
}

} // namespace fxs
