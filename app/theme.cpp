#include "theme.h"

#include "canvas_style.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace fxs {

namespace {

// The platform's own palette and style, captured before the first switch so System can go back to them.
struct Original {
    QPalette palette;
    QString style;
};

Original &original()
{
    static Original o{QApplication::palette(), QApplication::style() ? QApplication::style()->name() : QString()};
    return o;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor highlight(0x3d, 0x7a, 0xd6), disabled(0x7f, 0x84, 0x8e);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::Midlight, QColor(0x35, 0x37, 0x3a));
    p.setColor(QPalette::Mid, QColor(0x24, 0x25, 0x27));
    p.setColor(QPalette::Dark, QColor(0x19, 0x1a, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6a, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

bool paletteIsDark(const QPalette &p)
{
    return p.color(QPalette::Window).lightness() < 128;
}

} // namespace

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString &key)
{
    if (key == QLatin1String("light"))
        return Theme::Light;
    if (key == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

bool themeIsDark(Theme theme)
{
    return theme == Theme::Dark || (theme == Theme::System && paletteIsDark(original().palette));
}

void applyTheme(Theme theme)
{
    const Original &o = original();
    switch (theme) {
    case Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    case Theme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::System:
        if (!o.style.isEmpty())
            QApplication::setStyle(QStyleFactory::create(o.style));
        QApplication::setPalette(o.palette);
        break;
    }
    canvas::setDark(themeIsDark(theme));
}

} // namespace fxs
