#pragma once
// Writes a part of a QGraphicsScene to an SVG or PNG file (by the path's extension), atomically: a temporary file
// renamed over the target only once everything was written, so a failed or killed export leaves the old file.

#include <QRectF>
#include <QString>

class QGraphicsScene;
class QColor;

namespace fxs {

// PNGs larger than this on their longest side are scaled down to it: a fully expanded big graph is hundreds of
// thousands of points long, and an image of that size could not be allocated.
constexpr int kMaxExportPixels = 16384;

// Renders `source` (scene coordinates) at `scale` pixels per scene unit (PNG; SVG keeps scene units) on
// `background`. Returns an empty string on success, else what failed, naming the file.
QString exportScene(QGraphicsScene *scene, const QRectF &source, qreal scale, const QColor &background,
    const QString &path, const QString &title = {});

} // namespace fxs
