#include "canvas_group_item.h"

#include "canvas_style.h"
#include "node_grouping.h"
#include "scene_layout.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace fxs {

namespace {
constexpr qreal kTextLevelOfDetail = 0.3;
constexpr qreal kBadge = 12;
} // namespace

CanvasGroupItem::CanvasGroupItem(size_t groupIndex, const NodeGroup &group, bool expanded, const QRectF &rect)
    : m_groupIndex(groupIndex), m_expanded(expanded), m_rect(rect), m_label(QString::fromStdString(group.label)),
      m_detail(QString::fromStdString(group.detail)), m_count(int(group.nodes.size()))
{
    // Frames lie under their nodes and edges; collapsed boxes are nodes themselves.
    setZValue(expanded ? 0 : 2);
    setToolTip(QCoreApplication::translate("fxs::Canvas", "%1\n%2%3 nodes — double-click to %4")
                   .arg(m_label, m_detail.isEmpty() ? QString() : m_detail + QLatin1Char('\n'))
                   .arg(m_count)
                   .arg(expanded ? QCoreApplication::translate("fxs::Canvas", "collapse")
                                 : QCoreApplication::translate("fxs::Canvas", "expand")));
}

QRectF CanvasGroupItem::toggleRect() const
{
    if (m_expanded)
        return QRectF(m_rect.left() + 6, m_rect.top() + (SceneMetrics::kFrameTitle - kBadge) / 2 + 2, kBadge, kBadge);
    return QRectF(m_rect.right() - kBadge - 6, m_rect.top() + 6, kBadge, kBadge);
}

QRectF CanvasGroupItem::titleRect() const
{
    return m_expanded ? QRectF(m_rect.left(), m_rect.top(), m_rect.width(), SceneMetrics::kFrameTitle + 2) : m_rect;
}

void CanvasGroupItem::setHighlight(CanvasHighlight highlight)
{
    if (highlight != m_highlight) {
        m_highlight = highlight;
        update();
    }
}

QRectF CanvasGroupItem::boundingRect() const
{
    return m_rect.adjusted(-2, -2, 5, 5);
}

QPainterPath CanvasGroupItem::shape() const
{
    // A frame is hit only on its title bar: clicks inside it belong to its nodes or to panning.
    QPainterPath path;
    path.addRect(titleRect());
    return path;
}

void CanvasGroupItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QColor border = canvas::groupBorder();
    qreal width = 1.3;
    if (m_highlight == CanvasHighlight::Input)
        border = canvas::inputHighlight(), width = 2.6;
    else if (m_highlight == CanvasHighlight::Output)
        border = canvas::outputHighlight(), width = 2.6;
    else if (m_highlight == CanvasHighlight::Hovered)
        width = 2.6;

    if (m_expanded) {
        painter->setPen(QPen(m_highlight == CanvasHighlight::None ? canvas::frameBorder() : border, width));
        painter->setBrush(canvas::frameFill());
        painter->drawRoundedRect(m_rect, 6, 6);
        if (lod < kTextLevelOfDetail)
            return;
        painter->setPen(canvas::groupBorder().darker(130));
        painter->setFont(canvas::groupTitleFont());
        const QRectF title(
            m_rect.left() + kBadge + 12, m_rect.top() + 2, m_rect.width() - kBadge - 18, SceneMetrics::kFrameTitle);
        const QString text = QCoreApplication::translate("fxs::Canvas", "%1  ·  %2 nodes").arg(m_label).arg(m_count);
        painter->drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(painter->font()).elidedText(text, Qt::ElideMiddle, title.width()));
    } else {
        // Two offset sheets behind the box read as "several nodes in here".
        painter->setPen(QPen(canvas::groupBorder().lighter(130), 1));
        painter->setBrush(canvas::groupFill().darker(104));
        painter->drawRoundedRect(m_rect.translated(4, 4), 5, 5);
        painter->setBrush(canvas::groupFill().darker(102));
        painter->drawRoundedRect(m_rect.translated(2, 2), 5, 5);
        painter->setPen(QPen(border, width));
        painter->setBrush(canvas::groupFill());
        painter->drawRoundedRect(m_rect, 5, 5);
        if (lod < kTextLevelOfDetail)
            return;
        const QRectF text = m_rect.adjusted(10, 4, -kBadge - 10, -4);
        painter->setFont(canvas::groupTitleFont());
        painter->setPen(canvas::groupTitleText());
        const QFontMetricsF titleMetrics(painter->font());
        painter->drawText(QRectF(text.left(), text.top(), text.width(), text.height() / 2),
            Qt::AlignLeft | Qt::AlignVCenter, titleMetrics.elidedText(m_label, Qt::ElideMiddle, text.width()));
        painter->setFont(canvas::detailFont());
        painter->setPen(canvas::groupDetailText());
        QString sub = QCoreApplication::translate("fxs::Canvas", "%1 nodes").arg(m_count);
        // Module types read well here; file paths are long and already named by the label.
        if (!m_detail.isEmpty() && !m_detail.contains(QLatin1Char('/')))
            sub += QStringLiteral("  ·  ") + m_detail;
        painter->drawText(QRectF(text.left(), text.center().y(), text.width(), text.height() / 2),
            Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(painter->font()).elidedText(sub, Qt::ElideMiddle, text.width()));
    }
    // The +/− badge.
    const QRectF badge = toggleRect();
    painter->setPen(QPen(canvas::groupBorder(), 1));
    painter->setBrush(canvas::badgeFill());
    painter->drawRoundedRect(badge, 2, 2);
    painter->setPen(QPen(canvas::groupBorder().darker(140), 1.4));
    const QPointF c = badge.center();
    painter->drawLine(QPointF(c.x() - 3.5, c.y()), QPointF(c.x() + 3.5, c.y()));
    if (!m_expanded)
        painter->drawLine(QPointF(c.x(), c.y() - 3.5), QPointF(c.x(), c.y() + 3.5));
}

} // namespace fxs
