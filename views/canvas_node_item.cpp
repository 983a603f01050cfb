#include "canvas_node_item.h"

#include "canvas_style.h"

#include "ir/node.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace fxs {

namespace {
// Below this zoom text is unreadable: boxes are drawn plain, which also keeps huge views fast.
constexpr qreal kTextLevelOfDetail = 0.45;
constexpr qreal kRadius = 4;
} // namespace

CanvasNodeItem::CanvasNodeItem(size_t nodeIndex, const NodeLabel &label, const QRectF &rect)
    : m_nodeIndex(nodeIndex), m_rect(rect), m_name(QString::fromStdString(label.name)),
      m_target(QString::fromStdString(label.target)), m_shape(QString::fromStdString(label.shape)),
      m_category(label.category)
{
    setZValue(2); // its tooltip comes from the canvas (nodeToolTip), which also answers for the overview's boxes
}

QString nodeToolTip(const Node &node)
{
    const NodeLabel label = nodeLabel(node);
    QString tip = QString::fromStdString(node.name()) + QLatin1Char('\n') + QLatin1String(opKindName(node.op()))
        + QStringLiteral(" · ") + QString::fromStdString(node.target());
    if (!label.shape.empty())
        tip += QLatin1Char('\n') + QString::fromStdString(label.shape);
    return tip;
}

void CanvasNodeItem::setHighlight(CanvasHighlight highlight)
{
    if (highlight != m_highlight) {
        m_highlight = highlight;
        update();
    }
}

void CanvasNodeItem::setCurrent(bool current)
{
    if (current != m_current) {
        m_current = current;
        setZValue(current ? 3 : 2);
        update();
    }
}

void CanvasNodeItem::setMatchMark(CanvasMatchMark mark, bool anchor)
{
    if (mark != m_mark || anchor != m_anchor) {
        prepareGeometryChange(); // the halo widens the bounds
        m_mark = mark;
        m_anchor = anchor;
        update();
    }
}

void CanvasNodeItem::setHeat(qreal heat)
{
    if (heat != m_heat) {
        m_heat = heat;
        update();
    }
}

QRectF CanvasNodeItem::boundingRect() const
{
    const qreal room = m_mark == CanvasMatchMark::None ? 3 : 8; // the selection outline, the match halo
    return m_rect.adjusted(-room, -room, room, room);
}

void CanvasNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    CategoryColors colors = categoryColors(m_category);
    if (m_heat >= 0) {
        // Coloured by time: the fill and the zoomed-out box carry the gradient; text stays readable on it.
        const QColor h = canvas::heat(m_heat);
        colors.fill = h;
        colors.border = h.darker(130);
        colors.text = h.lightness() > 140 ? QColor(0x21, 0x21, 0x21) : QColor(0xf5, 0xf5, 0xf5);
    }
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QColor border = colors.border;
    qreal borderWidth = 1.2;
    if (m_highlight == CanvasHighlight::Input) {
        border = canvas::inputHighlight();
        borderWidth = 2.4;
    } else if (m_highlight == CanvasHighlight::Output) {
        border = canvas::outputHighlight();
        borderWidth = 2.4;
    } else if (m_highlight == CanvasHighlight::Hovered) {
        borderWidth = 2.4;
    } else if (m_mark == CanvasMatchMark::Disagreeing) {
        border = canvas::matchDisagreeing();
        borderWidth = 2.4;
    }
    // The match halo goes under everything else: the node stays readable, the selection stays on top.
    if (m_mark != CanvasMatchMark::None) {
        const QColor color = canvas::matchMarkColor(m_mark);
        QColor fill = color;
        fill.setAlpha(m_anchor || m_mark == CanvasMatchMark::Added ? 90 : 60);
        const qreal grow = m_anchor || m_mark == CanvasMatchMark::Added ? 6 : 4.5;
        painter->setPen(m_mark == CanvasMatchMark::Disagreeing ? QPen(color, 2.5, Qt::DashLine)
                : m_mark == CanvasMatchMark::Added             ? QPen(color, 3)
                                                               : QPen(color, 1.5));
        painter->setBrush(fill);
        painter->drawRoundedRect(m_rect.adjusted(-grow, -grow, grow, grow), kRadius + grow, kRadius + grow);
    }
    if (lod < kTextLevelOfDetail) {
        painter->setPen(m_current ? QPen(canvas::selection(), 3 / lod) : QPen(border, borderWidth));
        painter->setBrush(m_heat >= 0                                ? colors.fill
                : m_highlight == CanvasHighlight::None && !m_current ? colors.border.lighter(150)
                                                                     : border);
        painter->drawRect(m_rect);
        return;
    }
    if (m_current) {
        painter->setPen(QPen(canvas::selection(), 3));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(m_rect.adjusted(-1.5, -1.5, 1.5, 1.5), kRadius + 1, kRadius + 1);
    }
    painter->setPen(QPen(border, borderWidth));
    painter->setBrush(colors.fill);
    painter->drawRoundedRect(m_rect, kRadius, kRadius);
    // A stripe in the category colour on the left: kinds stay apart at a glance.
    painter->setPen(Qt::NoPen);
    painter->setBrush(colors.border);
    painter->drawRoundedRect(QRectF(m_rect.left() + 1, m_rect.top() + 1, 3.5, m_rect.height() - 2), 1.5, 1.5);

    const QRectF text = m_rect.adjusted(9, 3, -5, -3);
    const qreal lines = m_shape.isEmpty() ? 2 : 3;
    const qreal lineHeight = text.height() / lines;
    auto drawLine = [&](int line, const QFont &font, const QColor &color, const QString &s) {
        painter->setFont(font);
        painter->setPen(color);
        const QString elided = QFontMetricsF(font).elidedText(s, Qt::ElideMiddle, text.width());
        painter->drawText(QRectF(text.left(), text.top() + line * lineHeight, text.width(), lineHeight),
            Qt::AlignLeft | Qt::AlignVCenter, elided);
    };
    drawLine(0, canvas::nameFont(), m_heat >= 0 ? colors.text : canvas::nameText(), m_name);
    drawLine(1, canvas::detailFont(), colors.text, m_target);
    if (!m_shape.isEmpty())
        drawLine(2, canvas::shapeFont(), m_heat >= 0 ? colors.text : canvas::shapeText(), m_shape);
}

} // namespace fxs
