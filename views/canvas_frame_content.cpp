#include "canvas_frame_content.h"

namespace fxs {

namespace {
// Ports straddle the frame's border and node halos reach past their boxes: room for both.
constexpr qreal kMargin = 12;
} // namespace

CanvasFrameContent::CanvasFrameContent(const QRectF &frameRect)
    : m_rect(frameRect.adjusted(-kMargin, -kMargin, kMargin, kMargin))
{
    // Not ItemHasNoContents: Qt culls a subtree by its root's bounds only when the root has contents to draw.
    setFlag(ItemContainsChildrenInShape);
    // Above the frame's fill, under the edges and boxes of the top level.
    setZValue(0.5);
}

void CanvasFrameContent::setChildrenShown(bool shown)
{
    setOpacity(shown ? 1.0 : 0.0);
}

} // namespace fxs
