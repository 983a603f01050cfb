#pragma once
// One edge on the graph canvas: the Graphviz spline with its arrowhead, thicker when it stands for
// several graph edges between groups. Long-range edges (see SceneEdge) show only while highlighted.

#include "canvas_highlight.h"

#include <QGraphicsItem>
#include <QPainterPath>

namespace fxs {

struct SceneEdge;

class CanvasEdgeItem : public QGraphicsItem {
public:
    explicit CanvasEdgeItem(const SceneEdge &edge);

    int fromItem() const { return m_from; }
    int toItem() const { return m_to; }
    bool isLongRange() const { return m_longRange; }
    const QPainterPath &path() const { return m_path; }
    void setHighlight(CanvasHighlight highlight);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QPainterPath m_path;
    QPolygonF m_arrow;
    QRectF m_bounds;
    int m_from;
    int m_to;
    int m_count;
    bool m_longRange;
    CanvasHighlight m_highlight = CanvasHighlight::None;
};

} // namespace fxs
