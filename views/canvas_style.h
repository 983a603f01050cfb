#pragma once
// Colours and fonts of the graph canvas, in one place so that every item and the legend agree.
// Categories follow the op kind and, for call_function, the op's namespace (aten, prims, npu, ...).

#include "canvas_highlight.h"
#include "node_label.h"

#include <QColor>
#include <QFont>

namespace fxs {

struct CategoryColors {
    QColor fill;
    QColor border;
    QColor text; // the target line
};

CategoryColors categoryColors(NodeCategory category);
QString categoryName(NodeCategory category);

namespace canvas {
// The dark palette's canvas: dark paper, dark tinted boxes, light text. Set by the application's theme; items
// read it when they paint, so a repaint is all a switch needs.
bool isDark();
void setDark(bool dark);
// Text on node and group boxes.
QColor nameText();
QColor shapeText();
QColor groupTitleText();
QColor groupDetailText();
QColor badgeFill();
QFont nameFont();
QFont detailFont();
QFont shapeFont();
QFont groupTitleFont();
inline QColor background()
{
    return isDark() ? QColor(0x1e, 0x21, 0x25) : QColor(0xf7, 0xf8, 0xfa);
}
inline QColor edge()
{
    return isDark() ? QColor(0x7d, 0x88, 0x94) : QColor(0x8a, 0x96, 0xa3);
}
inline QColor inputHighlight()
{
    return QColor(0x1e, 0x88, 0xe5);
}
inline QColor outputHighlight()
{
    return QColor(0xe5, 0x39, 0x35);
}
inline QColor selection()
{
    return QColor(0xff, 0x8f, 0x00);
}
inline QColor matchAccepted()
{
    return QColor(0x2e, 0x9d, 0x4a);
}
// Brighter than matchAccepted and drawn thicker: what the last step added must stand out from candidates.
inline QColor stepAdded()
{
    return QColor(0x00, 0xc8, 0x53);
}
inline QColor matchTried()
{
    return QColor(0x5c, 0x6b, 0xc0);
}
inline QColor matchDisagreeing()
{
    return QColor(0xd3, 0x2f, 0x2f);
}
// The colour of a node's part in the candidate shown (mark not None): its halo, or its outline zoomed out.
inline QColor matchMarkColor(CanvasMatchMark mark)
{
    return mark == CanvasMatchMark::Matched ? matchAccepted()
        : mark == CanvasMatchMark::Tried    ? matchTried()
        : mark == CanvasMatchMark::Added    ? stepAdded()
                                            : matchDisagreeing();
}
// The time overlay's gradient, from the fastest (0) to the slowest (1) node.
QColor heat(qreal fraction);
inline QColor groupBorder()
{
    return QColor(0x78, 0x90, 0x9c);
}
inline QColor groupFill()
{
    return isDark() ? QColor(0x2b, 0x30, 0x36) : QColor(0xec, 0xef, 0xf1);
}
inline QColor frameFill()
{
    return QColor(0x90, 0xa4, 0xae, 24);
}
inline QColor frameBorder()
{
    return isDark() ? QColor(0x4f, 0x5b, 0x62) : QColor(0xb0, 0xbe, 0xc5);
}
} // namespace canvas

} // namespace fxs
