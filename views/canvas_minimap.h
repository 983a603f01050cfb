#pragma once
// The canvas's overview: a picture of the whole laid-out graph, rendered once per layout, with the
// main view's visible area drawn on it. Clicking or dragging in it moves the main view there.

#include <QPixmap>
#include <QWidget>

class QGraphicsScene;

namespace fxs {

class CanvasMinimap : public QWidget {
    Q_OBJECT
public:
    explicit CanvasMinimap(QWidget *parent = nullptr);

    // Renders `scene` (all of `sceneRect`) into the overview.
    void renderScene(QGraphicsScene *scene, const QRectF &sceneRect);
    // The part of the scene the main view shows.
    void setVisibleRect(const QRectF &rect);

Q_SIGNALS:
    void centerRequested(const QPointF &scenePoint);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QRectF pictureRect() const; // where the picture lies in the widget
    QPointF toScene(const QPointF &widgetPoint) const;

    QPixmap m_picture;
    QRectF m_sceneRect;
    QRectF m_visible;
};

} // namespace fxs
