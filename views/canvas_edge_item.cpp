#include "canvas_edge_item.h"

#include "canvas_style.h"
#include "scene_layout.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace fxs {

CanvasEdgeItem::CanvasEdgeItem(const SceneEdge &edge)
    : m_from(edge.path.from), m_to(edge.path.to), m_count(edge.count), m_longRange(edge.longRange)
{
    const auto &p = edge.path.points;
    if (!p.empty()) {
        m_path.moveTo(p[0].x, p[0].y);
        for (size_t i = 1; i + 2 < p.size(); i += 3)
            m_path.cubicTo(p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, p[i + 2].x, p[i + 2].y);
    }
    if (edge.path.hasArrow && !p.empty()) {
        // dot's arrow runs from the spline's end to the tip; draw a filled triangle along it.
        const QPointF base(p.back().x, p.back().y);
        const QPointF tip(edge.path.arrowTip.x, edge.path.arrowTip.y);
        QPointF dir = tip - base;
        const qreal length = std::hypot(dir.x(), dir.y());
        if (length > 0.1) {
            dir /= length;
            const QPointF normal(-dir.y(), dir.x());
            const qreal half = 3.2;
            m_arrow << tip << base + normal * half << base - normal * half;
        }
    }
    m_bounds = m_path.boundingRect().united(m_arrow.boundingRect()).adjusted(-4, -4, 4, 4);
    setZValue(1);
    setVisible(!m_longRange);
}

void CanvasEdgeItem::setHighlight(CanvasHighlight highlight)
{
    if (highlight == m_highlight)
        return;
    m_highlight = highlight;
    setZValue(highlight == CanvasHighlight::None ? 1 : 1.5);
    if (m_longRange)
        setVisible(highlight != CanvasHighlight::None);
    update();
}

QRectF CanvasEdgeItem::boundingRect() const
{
    return m_bounds;
}

void CanvasEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    QColor color = canvas::edge();
    qreal width = 1.1 + std::log2(qreal(std::max(m_count, 1))) * 0.7;
    if (m_highlight == CanvasHighlight::Input)
        color = canvas::inputHighlight(), width += 1.2;
    else if (m_highlight == CanvasHighlight::Output)
        color = canvas::outputHighlight(), width += 1.2;
    QPen pen(color, width);
    if (m_longRange)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
    if (!m_arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawPolygon(m_arrow);
    }
}

} // namespace fxs
