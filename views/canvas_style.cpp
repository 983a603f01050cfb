#include "canvas_style.h"

#include <QCoreApplication>

#include <algorithm>

namespace fxs {

namespace {
bool g_dark = false;

// The dark palette keeps each category's hue: a deep fill of the border's hue and a light text of it.
CategoryColors darkened(const CategoryColors &light)
{
    QColor fill = QColor::fromHsl(light.border.hslHue(), std::min(light.border.hslSaturation(), 110), 52);
    return CategoryColors{fill, light.border, light.border.lighter(165)};
}
} // namespace

namespace canvas {
bool isDark()
{
    return g_dark;
}
void setDark(bool dark)
{
    g_dark = dark;
}
QColor nameText()
{
    return g_dark ? QColor(0xec, 0xef, 0xf1) : QColor(0x21, 0x21, 0x21);
}
QColor shapeText()
{
    return g_dark ? QColor(0xb0, 0xbe, 0xc5) : QColor(0x61, 0x61, 0x61);
}
QColor groupTitleText()
{
    return g_dark ? QColor(0xec, 0xef, 0xf1) : QColor(0x26, 0x32, 0x38);
}
QColor groupDetailText()
{
    return g_dark ? QColor(0x90, 0xa4, 0xae) : QColor(0x60, 0x7d, 0x8b);
}
QColor heat(qreal fraction)
{
    // Viridis-like stops: dark blue, teal, green, yellow; readable with dark text from the middle on.
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c),
        QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25)};
    const qreal x = std::clamp(fraction, 0.0, 1.0) * 4;
    const int i = std::min(3, int(x));
    const qreal t = x - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t);
}
QColor badgeFill()
{
    return g_dark ? QColor(0x37, 0x47, 0x4f) : QColor(Qt::white);
}
} // namespace canvas

static CategoryColors lightCategoryColors(NodeCategory category);

CategoryColors categoryColors(NodeCategory category)
{
    const CategoryColors light = lightCategoryColors(category);
    return g_dark ? darkened(light) : light;
}

static CategoryColors lightCategoryColors(NodeCategory category)
{
    // Material-like hues: a light fill to keep text readable, a saturated border to tell kinds apart
    // when zoomed out (where only the fill and border are drawn).
    auto make = [](unsigned fill, unsigned border, unsigned text) {
        return CategoryColors{QColor::fromRgb(fill), QColor::fromRgb(border), QColor::fromRgb(text)};
    };
    switch (category) {
    case NodeCategory::Placeholder: return make(0xe8f5e9, 0x43a047, 0x2e7d32);
    case NodeCategory::Output: return make(0xffebee, 0xe53935, 0xc62828);
    case NodeCategory::GetAttr: return make(0xe0f2f1, 0x00897b, 0x00695c);
    case NodeCategory::CallModule: return make(0xf3e5f5, 0x8e24aa, 0x6a1b9a);
    case NodeCategory::CallMethod: return make(0xefebe9, 0x6d4c41, 0x4e342e);
    case NodeCategory::Aten: return make(0xe3f2fd, 0x1e88e5, 0x1565c0);
    case NodeCategory::Prims: return make(0xe8eaf6, 0x5c6bc0, 0x3949ab);
    case NodeCategory::Npu: return make(0xfff3e0, 0xfb8c00, 0xe65100);
    case NodeCategory::Operator: return make(0xeceff1, 0x78909c, 0x455a64);
    case NodeCategory::HigherOrder: return make(0xfce4ec, 0xd81b60, 0xad1457);
    case NodeCategory::Function: return make(0xfffde7, 0xfbc02d, 0x8d6e00);
    }
    return make(0xffffff, 0x9e9e9e, 0x424242);
}

QString categoryName(NodeCategory category)
{
    switch (category) {
    case NodeCategory::Placeholder: return QCoreApplication::translate("fxs::Canvas", "input");
    case NodeCategory::Output: return QCoreApplication::translate("fxs::Canvas", "output");
    case NodeCategory::GetAttr: return QStringLiteral("get_attr");
    case NodeCategory::CallModule: return QStringLiteral("call_module");
    case NodeCategory::CallMethod: return QStringLiteral("call_method");
    case NodeCategory::Aten: return QStringLiteral("aten");
    case NodeCategory::Prims: return QStringLiteral("prims");
    case NodeCategory::Npu: return QStringLiteral("npu");
    case NodeCategory::Operator: return QStringLiteral("operator");
    case NodeCategory::HigherOrder: return QStringLiteral("higher_order");
    case NodeCategory::Function: return QCoreApplication::translate("fxs::Canvas", "other function");
    }
    return {};
}

namespace canvas {

// Pixel sizes in scene units (points), so text scales with the zoom like the boxes do; the layout's
// size estimate (node_label.cpp) assumes these sizes.
QFont nameFont()
{
    QFont font;
    font.setPixelSize(10);
    font.setBold(true);
    return font;
}

QFont detailFont()
{
    QFont font;
    font.setPixelSize(10);
    return font;
}

QFont shapeFont()
{
    QFont font(QStringLiteral("monospace"));
    font.setStyleHint(QFont::Monospace);
    font.setPixelSize(9);
    return font;
}

QFont groupTitleFont()
{
    QFont font;
    font.setPixelSize(11);
    font.setBold(true);
    return font;
}

} // namespace canvas

} // namespace fxs
