#include "canvas_minimap.h"

#include "canvas_style.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>

namespace fxs {

CanvasMinimap::CanvasMinimap(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("canvasMinimap"));
    setFixedSize(180, 180);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
}

void CanvasMinimap::renderScene(QGraphicsScene *scene, const QRectF &sceneRect)
{
    m_sceneRect = sceneRect;
    const qreal dpr = devicePixelRatioF();
    m_picture = QPixmap(size() * dpr);
    m_picture.setDevicePixelRatio(dpr);
    m_picture.fill(Qt::transparent);
    if (scene && sceneRect.isValid()) {
        // Rendered exactly into pictureRect(), which the visible-area frame is mapped through.
        QPainter painter(&m_picture);
        painter.setRenderHint(QPainter::Antialiasing);
        scene->render(&painter, pictureRect(), sceneRect, Qt::IgnoreAspectRatio);
    }
    update();
}

void CanvasMinimap::setVisibleRect(const QRectF &rect)
{
    if (rect != m_visible) {
        m_visible = rect;
        update();
    }
}

QRectF CanvasMinimap::pictureRect() const
{
    // The scene scaled to fit, centred.
    const QRectF target(4, 4, width() - 8, height() - 8);
    if (!m_sceneRect.isValid())
        return target;
    QSizeF size = m_sceneRect.size();
    size.scale(target.size(), Qt::KeepAspectRatio);
    return QRectF(target.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

QPointF CanvasMinimap::toScene(const QPointF &p) const
{
    const QRectF picture = pictureRect();
    if (!m_sceneRect.isValid() || picture.isEmpty())
        return {};
    return QPointF(m_sceneRect.left() + (p.x() - picture.left()) * m_sceneRect.width() / picture.width(),
        m_sceneRect.top() + (p.y() - picture.top()) * m_sceneRect.height() / picture.height());
}

void CanvasMinimap::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor paper = canvas::isDark() ? canvas::groupFill() : QColor(Qt::white);
    paper.setAlpha(235);
    painter.setPen(QPen(canvas::isDark() ? QColor(255, 255, 255, 60) : QColor(0, 0, 0, 60), 1));
    painter.setBrush(paper);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    painter.drawPixmap(QPointF(0, 0), m_picture);
    if (!m_sceneRect.isValid() || !m_visible.isValid())
        return;
    const QRectF picture = pictureRect();
    const qreal sx = picture.width() / m_sceneRect.width();
    const qreal sy = picture.height() / m_sceneRect.height();
    QRectF view(picture.left() + (m_visible.left() - m_sceneRect.left()) * sx,
        picture.top() + (m_visible.top() - m_sceneRect.top()) * sy, m_visible.width() * sx, m_visible.height() * sy);
    view = view.intersected(QRectF(rect()).adjusted(1, 1, -1, -1));
    painter.setPen(QPen(canvas::selection().darker(110), 1.5));
    painter.setBrush(QColor(255, 143, 0, 30));
    painter.drawRect(view);
}

void CanvasMinimap::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT centerRequested(toScene(event->position()));
}

void CanvasMinimap::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        Q_EMIT centerRequested(toScene(event->position()));
}

} // namespace fxs
