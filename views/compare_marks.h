#pragma once
// How a comparison shows on the two canvases: A's unpaired nodes with the disagreeing mark (removed), B's with the
// added mark, changed pairs with the tried mark on both sides. One mapping for the canvases, list and legend.

#include "canvas_highlight.h"
#include "canvas_style.h"
#include "compare/compare_regions.h"

#include <QColor>

namespace fxs {

inline CanvasMatchMark compareMark(RegionKind kind, bool sideA)
{
    switch (kind) {
    case RegionKind::Changed: return CanvasMatchMark::Tried;
    case RegionKind::Removed: return CanvasMatchMark::Disagreeing;
    case RegionKind::Added: return CanvasMatchMark::Added;
    case RegionKind::Replaced: return sideA ? CanvasMatchMark::Disagreeing : CanvasMatchMark::Added;
    }
    return CanvasMatchMark::None;
}

inline QColor regionColor(RegionKind kind)
{
    return kind == RegionKind::Replaced ? canvas::matchMarkColor(CanvasMatchMark::Disagreeing)
                                        : canvas::matchMarkColor(compareMark(kind, kind != RegionKind::Added));
}

} // namespace fxs
