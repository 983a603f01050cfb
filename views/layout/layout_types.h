#pragma once
// Plain value types that layouts are made of: points, rectangles, edges as cubic Bézier control
// points. Coordinates are in points (1/72 inch), y growing downwards, as the canvas draws them.

#include <vector>

namespace fxs {

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct LayoutRect {
    double x = 0; // left
    double y = 0; // top
    double width = 0;
    double height = 0;

    double right() const { return x + width; }
    double bottom() const { return y + height; }
    LayoutPoint center() const { return {x + width / 2, y + height / 2}; }
    bool contains(LayoutPoint p, double tolerance = 0.5) const
    {
        return p.x >= x - tolerance && p.x <= right() + tolerance && p.y >= y - tolerance
            && p.y <= bottom() + tolerance;
    }
    bool contains(const LayoutRect &r, double tolerance = 0.5) const
    {
        return r.x >= x - tolerance && r.y >= y - tolerance && r.right() <= right() + tolerance
            && r.bottom() <= bottom() + tolerance;
    }
};

// An edge drawn as a cubic Bézier spline: points holds 3n+1 control points (n >= 1). When hasArrow
// is set the arrowhead runs from the last point to arrowTip.
struct LayoutEdge {
    int from = -1;
    int to = -1;
    std::vector<LayoutPoint> points;
    bool hasArrow = false;
    LayoutPoint arrowTip;
};

} // namespace fxs
