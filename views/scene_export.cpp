#include "scene_export.h"

#include <QColor>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace fxs {

QString exportScene(QGraphicsScene *scene, const QRectF &source, qreal scale, const QColor &background,
    const QString &path, const QString &title)
{
    if (!scene || source.isEmpty())
        return QStringLiteral("%1: nothing to export (no graph shown)").arg(path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("svg") && suffix != QLatin1String("png"))
        return QStringLiteral("%1: expected a .svg or .png file name, found '.%2'").arg(path, suffix);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());

    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("fxscope"));
        QPainter painter;
        if (!painter.begin(&svg))
            return QStringLiteral("%1: could not start the SVG").arg(path);
        const QRectF target(QPointF(0, 0), source.size());
        painter.fillRect(target, background);
        scene->render(&painter, target, source);
        painter.end();
    } else {
        const qreal longest = std::max(source.width(), source.height()) * scale;
        if (longest > kMaxExportPixels)
            scale *= kMaxExportPixels / longest;
        const QSize size(
            std::max(1, int(std::ceil(source.width() * scale))), std::max(1, int(std::ceil(source.height() * scale))));
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        if (image.isNull())
            return QStringLiteral("%1: out of memory for a %2×%3 image").arg(path).arg(size.width()).arg(size.height());
        image.fill(background);
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
        scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), source);
        painter.end();
        if (!image.save(&file, "PNG"))
            return QStringLiteral("%1: could not write the PNG").arg(path);
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

} // namespace fxs
