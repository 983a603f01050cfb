#pragma once
// What the overview pictures (CanvasFrameOverview) leave out: the time colours, the nodes of the candidate shown
// and the selected node, drawn zoomed far out over the overviews. Only the nodes that carry such a mark are drawn,
// as plain rectangles grouped by colour, so it costs little beside the overviews even on a 100k-node graph. The
// outlines are cosmetic (device pixels): a marked box stays visible when it is a pixel or two wide.

#include <QColor>
#include <QGraphicsItem>

#include <map>
#include <vector>

namespace fxs {

class CanvasOverviewMarks : public QGraphicsItem {
public:
    explicit CanvasOverviewMarks(const QRectF &sceneBounds);

    // Forgets every mark (call update() after adding the new ones).
    void clear();
    // Fills `rect`; with `outlineWidth` > 0 also outlines it that many device pixels wide in the same colour.
    void addBox(const QRectF &rect, const QColor &color, int outlineWidth = 0);
    int boxCount() const { return m_count; }

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    struct Layer {
        QRgb color;
        int outlineWidth;
        bool operator<(const Layer &o) const
        {
            return outlineWidth != o.outlineWidth ? outlineWidth < o.outlineWidth : color < o.color;
        }
    };
    QRectF m_rect;
    // Thin outlines first, so the selection (the widest) lies over a candidate's marks and these over the times.
    std::map<Layer, std::vector<QRectF>> m_layers;
    int m_count = 0;
};

} // namespace fxs
