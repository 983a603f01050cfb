#pragma once
// One FX node on the graph canvas: a rounded box coloured by its category with its name, short
// target and shape; only the box when zoomed far out (level of detail).

#include "canvas_highlight.h"
#include "node_label.h"

#include <QGraphicsItem>

namespace fxs {

class Node;

// What hovering a node shows: its name, op kind and full target, and the shape of its value.
QString nodeToolTip(const Node &node);

class CanvasNodeItem : public QGraphicsItem {
public:
    CanvasNodeItem(size_t nodeIndex, const NodeLabel &label, const QRectF &rect);

    size_t nodeIndex() const { return m_nodeIndex; }
    const QString &name() const { return m_name; }
    void setHighlight(CanvasHighlight highlight);
    void setCurrent(bool current); // the selected node
    void setMatchMark(CanvasMatchMark mark, bool anchor = false);
    CanvasMatchMark matchMark() const { return m_mark; }
    // The time overlay: 0 (fastest) … 1 (slowest) paints the box in the gradient; below 0, its category colours.
    void setHeat(qreal heat);
    qreal heat() const { return m_heat; }
    bool isCurrent() const { return m_current; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    size_t m_nodeIndex;
    QRectF m_rect;
    QString m_name;
    QString m_target;
    QString m_shape;
    NodeCategory m_category;
    CanvasHighlight m_highlight = CanvasHighlight::None;
    bool m_current = false;
    CanvasMatchMark m_mark = CanvasMatchMark::None;
    bool m_anchor = false;
    qreal m_heat = -1;
};

} // namespace fxs
