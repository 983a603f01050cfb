// GUI benchmark for one graph dump: the real MainWindow and Document, driven as a user would, timed.
//
//   first view   Document::open → the file parsed → the canvas's first layout laid out and painted once
//   expand       one collapsed group expanded: the request → its interior and the group level laid out, the scene
//                rebuilt and painted (each of up to --expand groups, largest first)
//   frames       with every group expanded: panning (60 steps of 40 px) and zooming (30 steps of ±10 %) at the fit
//                zoom (everything in view, boxes only) and at 100 % (text drawn), each step one synchronous
//                repaint of the viewport; the visible node count is what the viewport shows
//   hover        with every group expanded, at the fit zoom (the overview: node items hidden): mouse moves over a
//                grid of viewport points, each finding the node under the cursor (first: also builds the canvas's
//                node index); beside it, what a scan of every laid-out box costs for the same points
//   memory       resident set after the first view and its peak (VmRSS, VmHWM), in MB
//
// Prints one JSON object on stdout. Run under QT_QPA_PLATFORM=offscreen (software raster, as on X11 without GL).
// Usage: bench_gui FILE [--expand N] [--no-frames] [--grab DIR]

#include "canvas_node_item.h"
#include "document.h"
#include "graph_canvas.h"
#include "mainwindow.h"

#include "ir/graph.h"
#include "node_grouping.h"
#include "scene_layout.h"
#include "scene_node_index.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsScene>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

using namespace fxs;

namespace {

constexpr int kTimeoutMs = 600000;

double statusMb(const char *key)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QString text = QString::fromLatin1(f.readAll());
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String(key)))
            return line.section(QLatin1Char(':'), 1).trimmed().section(QLatin1Char(' '), 0, 0).toDouble() / 1024.0;
    return 0;
}

bool waitLayout(GraphCanvas *canvas)
{
    QSignalSpy done(canvas, &GraphCanvas::layoutFinished);
    while (canvas->isLayoutRunning())
        if (!done.wait(kTimeoutMs))
            return false;
    return true;
}

QJsonObject stats(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    QJsonObject o;
    if (ms.empty())
        return o;
    o[QStringLiteral("n")] = int(ms.size());
    o[QStringLiteral("median_ms")] = ms[ms.size() / 2];
    o[QStringLiteral("p95_ms")] = ms[std::min(ms.size() - 1, size_t(double(ms.size()) * 0.95))];
    o[QStringLiteral("max_ms")] = ms.back();
    return o;
}

int nodesInView(GraphCanvas *canvas)
{
    // Node items are the ones nodeItem() knows; count those the viewport shows.
    const QRectF visible = canvas->mapToScene(canvas->viewport()->rect()).boundingRect();
    int count = 0;
    for (const auto &node : canvas->graph()->nodes())
        if (CanvasNodeItem *item = canvas->nodeItem(QString::fromStdString(node->name())))
            count += visible.intersects(item->sceneBoundingRect());
    return count;
}

void grab(QWidget &window, const QString &dir, const QString &name)
{
    if (!dir.isEmpty())
        window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// Pans and zooms with one synchronous repaint per step; returns the frame times.
QJsonObject frames(GraphCanvas *canvas)
{
    std::vector<double> pan, zoom;
    QElapsedTimer t;
    const qreal startZoom = canvas->zoom();
    const int startNodes = nodesInView(canvas);
    canvas->viewport()->repaint();
    for (int i = 0; i < 60; ++i) {
        t.start();
        QScrollBar *bar = i % 2 ? canvas->horizontalScrollBar() : canvas->verticalScrollBar();
        bar->setValue(bar->value() + ((i / 10) % 2 ? -40 : 40));
        canvas->viewport()->repaint();
        pan.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    for (int i = 0; i < 30; ++i) {
        t.start();
        if ((i / 5) % 2)
            canvas->zoomOut();
        else
            canvas->zoomIn();
        canvas->viewport()->repaint();
        zoom.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    QJsonObject o;
    o[QStringLiteral("start_zoom")] = startZoom; // the pans run at this zoom, the zoom steps around it
    o[QStringLiteral("start_nodes_in_view")] = startNodes;
    o[QStringLiteral("nodes_in_view")] = nodesInView(canvas);
    o[QStringLiteral("zoom")] = canvas->zoom();
    o[QStringLiteral("pan")] = stats(pan);
    o[QStringLiteral("zoom_steps")] = stats(zoom);
    std::vector<double> all = pan;
    all.insert(all.end(), zoom.begin(), zoom.end());
    std::sort(all.begin(), all.end());
    o[QStringLiteral("fps_median")] = 1000.0 / std::max(0.001, all[all.size() / 2]);
    return o;
}

// Mouse moves over a 20 x 20 grid of the viewport, each timed; and a scan of every box for the same points.
QJsonObject hover(GraphCanvas *canvas)
{
    std::vector<QPoint> points;
    const QRect area = canvas->viewport()->rect();
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 20; ++i)
            points.emplace_back(
                area.left() + (2 * i + 1) * area.width() / 40, area.top() + (2 * j + 1) * area.height() / 40);
    std::vector<double> moves, scans;
    double firstMs = 0;
    QElapsedTimer t;
    for (size_t k = 0; k < points.size(); ++k) {
        QMouseEvent move(QEvent::MouseMove, QPointF(points[k]), QPointF(canvas->viewport()->mapToGlobal(points[k])),
            Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        t.start();
        QApplication::sendEvent(canvas->viewport(), &move);
        const double ms = double(t.nsecsElapsed()) / 1e6;
        (k == 0 ? firstMs : moves.emplace_back()) = ms;
    }
    const SceneLayout &layout = *canvas->sceneLayout();
    t.start();
    const SceneNodeIndex index(layout);
    const double buildMs = double(t.nsecsElapsed()) / 1e6;
    std::vector<double> lookups;
    int foundByIndex = 0;
    for (const QPoint &p : points) {
        const QPointF at = canvas->mapToScene(p);
        t.start();
        foundByIndex += index.nodeItemAt({at.x(), at.y()}) >= 0;
        lookups.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    int found = 0;
    for (const QPoint &p : points) {
        const QPointF at = canvas->mapToScene(p);
        t.start();
        for (const SceneItem &item : layout.items)
            if (item.kind == SceneItemKind::Node && item.rect.contains(LayoutPoint{at.x(), at.y()}, 0)) {
                ++found;
                break;
            }
        scans.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    QJsonObject o;
    o[QStringLiteral("overview")] = canvas->isOverviewShown();
    o[QStringLiteral("first_move_ms")] = firstMs; // builds the index
    o[QStringLiteral("move")] = stats(moves);
    o[QStringLiteral("index_build_ms")] = buildMs;
    o[QStringLiteral("index_lookup")] = stats(lookups);
    o[QStringLiteral("full_scan")] = stats(scans);
    o[QStringLiteral("points_on_a_node")] = found;
    o[QStringLiteral("points_on_a_node_by_index")] = foundByIndex; // the same answer, or the index is wrong
    return o;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("fxscope-bench"));
    QApplication::setApplicationName(QStringLiteral("bench_gui"));
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_gui FILE [--expand N] [--no-frames] [--grab DIR]\n");
        return 1;
    }
    const QString path = args[1];
    int expandCount = 10;
    if (int i = int(args.indexOf(QStringLiteral("--expand"))); i > 0 && i + 1 < args.size())
        expandCount = args[i + 1].toInt();
    const bool doFrames = !args.contains(QStringLiteral("--no-frames"));
    QString grabDir; // --grab DIR: the window as PNGs at the frame benchmark's views, to look at
    if (int i = int(args.indexOf(QStringLiteral("--grab"))); i > 0 && i + 1 < args.size())
        grabDir = args[i + 1];

    Document doc;
    MainWindow window(&doc);
    window.setAutosavePath({});
    window.setGeometry(0, 0, 1600, 1000);
    window.show();
    QCoreApplication::processEvents();
    GraphCanvas *canvas = window.canvas();

    QJsonObject out;
    out[QStringLiteral("file")] = path;
    QElapsedTimer timer;
    QSignalSpy loaded(&doc, &Document::fileLoaded);
    QSignalSpy failed(&doc, &Document::loadFailed);
    QSignalSpy laidOut(canvas, &GraphCanvas::layoutFinished);
    timer.start();
    doc.open(path);
    while (loaded.isEmpty() && failed.isEmpty())
        if (!loaded.wait(kTimeoutMs) && failed.isEmpty())
            break;
    if (!failed.isEmpty() || loaded.isEmpty()) {
        out[QStringLiteral("error")] = failed.isEmpty() ? QStringLiteral("timeout") : failed.first().at(1).toString();
        QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
        return 3;
    }
    const double parsedMs = double(timer.nsecsElapsed()) / 1e6;
    if (laidOut.isEmpty() && !laidOut.wait(kTimeoutMs)) {
        out[QStringLiteral("error")] = QStringLiteral("no first layout");
        QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
        return 3;
    }
    canvas->viewport()->repaint();
    const double firstViewMs = double(timer.nsecsElapsed()) / 1e6;
    out[QStringLiteral("nodes")] = int(doc.currentGraphShared()->size());
    out[QStringLiteral("parse_ms")] = parsedMs;
    out[QStringLiteral("first_view_ms")] = firstViewMs;
    out[QStringLiteral("first_layout_ms")] = double(canvas->lastLayoutMilliseconds());
    out[QStringLiteral("groups")] = canvas->groupCount();
    out[QStringLiteral("boxes_first_view")] = canvas->boxCount();
    // The match runs in the background after the load; let it finish before measuring memory.
    if (doc.isMatching()) {
        QSignalSpy matched(&doc, &Document::matchReportChanged);
        matched.wait(kTimeoutMs);
    }
    out[QStringLiteral("rss_mb")] = statusMb("VmRSS");

    // Expand: the largest groups first, one at a time, each collapsed again after.
    std::vector<double> expandMs, expandLayoutMs, expandNodes;
    if (const Grouping *grouping = canvas->grouping(); grouping && canvas->groupCount() > 0) {
        std::vector<int> order(size_t(canvas->groupCount()));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return grouping->groups[size_t(a)].nodes.size() > grouping->groups[size_t(b)].nodes.size();
        });
        int done = 0;
        for (int g : order) {
            if (done >= expandCount)
                break;
            if (canvas->isGroupExpanded(g))
                continue;
            timer.start();
            canvas->setGroupExpanded(g, true);
            if (!waitLayout(canvas))
                break;
            canvas->viewport()->repaint();
            expandMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            expandLayoutMs.push_back(double(canvas->lastLayoutMilliseconds())); // the background job alone
            expandNodes.push_back(double(grouping->groups[size_t(g)].nodes.size()));
            canvas->setGroupExpanded(g, false);
            waitLayout(canvas);
            ++done;
        }
    }
    out[QStringLiteral("expand")] = stats(expandMs);
    out[QStringLiteral("expand_layout")] = stats(expandLayoutMs);
    QJsonArray each;
    for (size_t i = 0; i < expandMs.size(); ++i)
        each.append(QJsonArray{expandNodes[i], expandMs[i], expandLayoutMs[i]});
    out[QStringLiteral("expand_each")] = each; // [group's nodes, expand ms, layout job ms]

    if (doFrames) {
        timer.start();
        canvas->expandAll();
        waitLayout(canvas);
        out[QStringLiteral("expand_all_ms")] = double(timer.nsecsElapsed()) / 1e6;
        out[QStringLiteral("nodes_shown_expanded")] = canvas->visibleNodeCount();
        canvas->fitToView();
        grab(window, grabDir, QStringLiteral("expanded-fit"));
        out[QStringLiteral("frames_fit")] = frames(canvas);
        canvas->fitToView();
        canvas->viewport()->repaint();
        out[QStringLiteral("hover_fit")] = hover(canvas);
        // Zoomed in a little, still in the overview, on the middle of the graph: most points on a box.
        canvas->setTransform(QTransform::fromScale(0.06, 0.06));
        canvas->centerOn(canvas->sceneRect().center());
        canvas->viewport()->repaint();
        out[QStringLiteral("hover_6pct")] = hover(canvas);
        // At 100 % on the middle of the graph, where nodes are.
        canvas->resetZoom();
        const auto &nodes = doc.currentGraphShared()->nodes();
        canvas->selectNode(QString::fromStdString(nodes[nodes.size() / 2]->name()));
        canvas->resetZoom();
        out[QStringLiteral("frames_100")] = frames(canvas);
        grab(window, grabDir, QStringLiteral("expanded-100"));
        // Either side of the overview threshold (0.08), for the eye: the same place in both.
        for (const qreal z : {0.06, 0.1}) {
            canvas->setTransform(QTransform::fromScale(z, z));
            canvas->centerOn(canvas->mapToScene(canvas->viewport()->rect().center()));
            grab(window, grabDir, QStringLiteral("expanded-zoom-%1").arg(z));
        }
    }
    out[QStringLiteral("rss_end_mb")] = statusMb("VmRSS");
    out[QStringLiteral("rss_peak_mb")] = statusMb("VmHWM");
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}
