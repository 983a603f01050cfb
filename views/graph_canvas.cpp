#include "graph_canvas.h"

#include <QGraphicsItem>

#include "canvas_edge_item.h"
#include "canvas_frame_content.h"
#include "canvas_frame_overview.h"
#include "canvas_group_item.h"
#include "canvas_minimap.h"
#include "canvas_node_item.h"
#include "canvas_overview_marks.h"
#include "canvas_style.h"

#include "flat_layout.h"
#include "node_grouping.h"
#include "node_label.h"
#include "scene_export.h"
#include "scene_layout.h"
#include "scene_node_index.h"
#include "stable_positions.h"

#include "ir/graph.h"
#include "util/progress.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QGraphicsEllipseItem>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineF>
#include <QLinearGradient>
#include <QPainter>
#include <QPixmap>
#include <QProgressBar>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <utility>

namespace fxs {

namespace {
// Graphs up to this size open with every group expanded: the whole graph is readable at once.
constexpr size_t kExpandAllBelow = 300;
constexpr qreal kMinZoom = 0.01;
constexpr qreal kMaxZoom = 4.0;
// The first view fits the graph when that leaves text readable, else shows its top at this zoom.
constexpr qreal kReadableZoom = 0.8;
// Below this zoom a node box is a dozen pixels wide: groups draw their overview instead of their items.
constexpr qreal kOverviewZoom = 0.08;
constexpr int kSceneItemRole = 0;

QRectF toQRectF(const LayoutRect &r)
{
    return QRectF(r.x, r.y, r.width, r.height);
}
} // namespace

// What a layout job hands back to the UI thread: immutable values only.
struct GraphCanvas::Outcome {
    std::shared_ptr<const Grouping> grouping;
    std::vector<bool> expanded;
    std::shared_ptr<const std::map<size_t, std::shared_ptr<const GroupInterior>>> interiors;
    std::shared_ptr<const SceneLayout> layout;
    QString error;
    bool canceled = false;
    qint64 milliseconds = 0;
};

struct GraphCanvas::Job {
    std::atomic<bool> cancel{false};
    std::atomic<int> permille{0};
};

GraphCanvas::GraphCanvas(QWidget *parent)
    : QGraphicsView(parent), m_minimap(new CanvasMinimap(this)), m_legend(new QLabel(this)),
      m_progress(new QWidget(this)), m_progressLabel(new QLabel(m_progress)),
      m_progressBar(new QProgressBar(m_progress)), m_progressTimer(new QTimer(this)), m_progressDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("graphCanvas"));
    warmUpGraphviz(); // before the first match loads LibTorch (see warmUpGraphviz)
    setScene(new QGraphicsScene(this));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontAdjustForAntialiasing);
    setBackgroundBrush(canvas::background());
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::ArrowCursor);

    m_legend->setObjectName(QStringLiteral("timeLegend"));
    m_legend->hide();
    connect(m_minimap, &CanvasMinimap::centerRequested, this, [this](const QPointF &p) { centerOn(p); });
    m_minimap->hide();

    // The progress overlay: shown only when a layout takes long enough to notice.
    m_progress->setObjectName(QStringLiteral("layoutProgress"));
    m_progress->setAutoFillBackground(true);
    auto *cancel = new QToolButton(m_progress);
    cancel->setText(tr("Cancel"));
    cancel->setAutoRaise(true);
    connect(cancel, &QToolButton::clicked, this, &GraphCanvas::cancelLayout);
    m_progressLabel->setText(tr("Laying out…"));
    m_progressBar->setRange(0, 0);
    m_progressBar->setTextVisible(false);
    m_progressBar->setFixedWidth(120);
    auto *row = new QHBoxLayout(m_progress);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(m_progressLabel);
    row->addWidget(m_progressBar);
    row->addWidget(cancel);
    m_progress->adjustSize();
    m_progress->hide();
    m_progressDelay->setSingleShot(true);
    m_progressDelay->setInterval(150);
    connect(m_progressDelay, &QTimer::timeout, this, [this] {
        if (isLayoutRunning()) {
            placeOverlays();
            m_progress->show();
        }
    });
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, [this] {
        if (!m_job)
            return;
        const int permille = m_job->permille.load();
        if (permille > 0 && permille < 1000) {
            m_progressBar->setRange(0, 1000);
            m_progressBar->setValue(permille);
        }
    });
}

GraphCanvas::~GraphCanvas()
{
    // A running job holds only its own copies; telling it to stop is all that is needed.
    if (m_job)
        m_job->cancel = true;
}

void GraphCanvas::setGraph(std::shared_ptr<const Graph> graph)
{
    m_graph = std::move(graph);
    m_grouping.reset();
    m_interiors.reset();
    m_expanded.clear();
    m_currentNode = -1;
    m_pendingSelect = -1;
    m_marks.clear();
    m_markAnchor = -1;
    m_pendingCentre = -1;
    m_firstView = true;
    m_heat.clear();
    m_legend->hide();
    m_layout.reset();
    scene()->clear();
    m_overviewMarks = nullptr; // deleted with the scene (a dangling one crashed the next paint)
    m_overviewHover = nullptr;
    m_items.clear();
    m_edges.clear();
    m_edgesOfItem.clear();
    m_portsOfFrame.clear();
    m_frameContents.clear();
    m_frameOverviews.clear();
    m_highlighted.clear();
    m_highlightedEdges.clear();
    m_hovered = -1;
    m_nodeIndex.reset();
    m_minimap->hide();
    if (!m_graph) {
        cancelLayout();
        return;
    }
    requestLayout({}, -1);
}

void GraphCanvas::setGraphRevision(std::shared_ptr<const Graph> graph)
{
    std::vector<std::string> expandedLabels;
    if (m_grouping)
        for (size_t g = 0; g < m_grouping->groups.size() && g < m_expanded.size(); ++g)
            if (m_expanded[g])
                expandedLabels.push_back(m_grouping->groups[g].label);
    const QTransform transform = this->transform();
    const bool hadView = m_layout != nullptr;
    // The node the eye rests on: the one nearest the middle of the view that the new revision still has.
    QString anchor;
    QPointF anchorViewPos;
    if (hadView && graph) {
        const QPointF middle = mapToScene(viewport()->rect().center());
        qreal best = std::numeric_limits<qreal>::max();
        for (QGraphicsItem *item : m_items) {
            auto *node = dynamic_cast<CanvasNodeItem *>(item);
            if (!node || !graph->find(node->name().toStdString()))
                continue;
            const QPointF centre = node->sceneBoundingRect().center();
            const qreal d = QLineF(centre, middle).length();
            if (d < best) {
                best = d;
                anchor = node->name();
                anchorViewPos = mapFromScene(centre);
            }
        }
    }
    PreviousRevision previous{m_graph, m_grouping, m_layout, m_expanded};
    setGraph(std::move(graph));
    if (!m_graph || !hadView)
        return;
    if (previous.graph && previous.grouping && previous.layout)
        m_previousRevision = std::move(previous);
    // The same zoom, and the groups open now open again: only what the step changed moves.
    m_firstView = false;
    setTransform(transform);
    m_revisionAnchor = anchor;
    m_revisionAnchorPos = anchorViewPos;
    requestLayout({}, -1, std::move(expandedLabels));
}

int GraphCanvas::groupCount() const
{
    return m_grouping ? int(m_grouping->groups.size()) : 0;
}

bool GraphCanvas::isGroupExpanded(int group) const
{
    return group >= 0 && size_t(group) < m_expanded.size() && m_expanded[size_t(group)];
}

void GraphCanvas::setGroupExpanded(int group, bool expanded)
{
    if (!m_grouping || group < 0 || group >= groupCount())
        return;
    // Toggles build on the latest request, so quick successive toggles all take effect.
    std::vector<bool> next = isLayoutRunning() && m_requested.size() == m_expanded.size() ? m_requested : m_expanded;
    if (next[size_t(group)] == expanded)
        return;
    next[size_t(group)] = expanded;
    requestLayout(std::move(next), group);
}

void GraphCanvas::expandAll()
{
    if (m_grouping)
        requestLayout(std::vector<bool>(m_grouping->groups.size(), true), -1);
}

void GraphCanvas::collapseAll()
{
    if (m_grouping)
        requestLayout(std::vector<bool>(m_grouping->groups.size(), false), -1);
}

void GraphCanvas::requestLayout(std::vector<bool> expanded, int anchorGroup, std::vector<std::string> expandedLabels)
{
    if (m_job)
        m_job->cancel = true; // the superseded job stops at its next progress report
    const quint64 job = ++m_lastJob;
    m_currentJob = job;
    m_requested = expanded;
    m_anchorGroup = -1;
    if (anchorGroup >= 0 && m_layout && size_t(anchorGroup) < m_layout->groupItem.size()
        && m_layout->groupItem[size_t(anchorGroup)] >= 0) {
        // Remember where the toggled group is on screen, to put it back there afterwards.
        m_anchorGroup = anchorGroup;
        m_anchorRect = toQRectF(m_layout->items[size_t(m_layout->groupItem[size_t(anchorGroup)])].rect);
        m_anchorOffset = mapToScene(viewport()->rect().center()) - m_anchorRect.topLeft();
    }
    auto state = std::make_shared<Job>();
    m_job = state;
    PreviousRevision previous = std::exchange(m_previousRevision, PreviousRevision{});

    auto future = QtConcurrent::run(
        [graph = m_graph, grouping = m_grouping, expanded = std::move(expanded), interiors = m_interiors, state,
            expandedLabels = std::move(expandedLabels), previous = std::move(previous)]() mutable -> Outcome {
            Outcome out;
            QElapsedTimer timer;
            timer.start();
            try {
                ProgressScope progress([state](double fraction) {
                    state->permille = int(fraction * 1000);
                    return !state->cancel.load();
                });
                if (!grouping)
                    grouping = std::make_shared<const Grouping>(groupNodes(*graph));
                if (expanded.size() != grouping->groups.size()) {
                    expanded.assign(grouping->groups.size(), graph->size() <= kExpandAllBelow);
                    if (previous.graph && previous.grouping
                        && previous.expanded.size() == previous.grouping->groups.size()) {
                        // A new revision: the groups made mostly of the nodes of a group open before open again
                        // (labels repeat: opening one of twelve "modeling_gpt2.py" groups must not open all twelve).
                        const std::vector<int> before
                            = matchPreviousGroups(*graph, *grouping, *previous.graph, *previous.grouping);
                        for (size_t g = 0; g < grouping->groups.size(); ++g)
                            if (before[g] >= 0 && previous.expanded[size_t(before[g])])
                                expanded[g] = true;
                    } else {
                        for (size_t g = 0; g < grouping->groups.size(); ++g)
                            if (std::find(expandedLabels.begin(), expandedLabels.end(), grouping->groups[g].label)
                                != expandedLabels.end())
                                expanded[g] = true;
                    }
                }
                InteriorCache cache = interiors ? *interiors : InteriorCache{};
                auto scene = layoutScene(*graph, *grouping, expanded, cache);
                if (scene.ok()) {
                    SceneLayout layout = std::move(scene).value();
                    if (previous.layout)
                        keepPreviousPositions(
                            layout, *graph, *grouping, *previous.layout, *previous.graph, *previous.grouping);
                    out.layout = std::make_shared<const SceneLayout>(std::move(layout));
                    out.grouping = grouping;
                    out.expanded = std::move(expanded);
                    out.interiors = std::make_shared<const InteriorCache>(std::move(cache));
                } else {
                    out.canceled = isCanceled(scene.error());
                    out.error = QString::fromStdString(scene.error().toString());
                }
            } catch (const std::exception &e) {
                out.error = tr("layout failed: %1").arg(QString::fromLocal8Bit(e.what()));
            }
            out.milliseconds = timer.elapsed();
            return out;
        });
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finishLayout(job, watcher->result());
    });
    watcher->setFuture(future);

    m_progressBar->setRange(0, 0);
    m_progressTimer->start();
    if (!m_progress->isVisible())
        m_progressDelay->start();
    Q_EMIT layoutStarted();
}

void GraphCanvas::cancelLayout()
{
    if (m_job)
        m_job->cancel = true;
    m_job.reset();
    m_currentJob = 0;
    m_requested = m_expanded;
    m_pendingSelect = -1;
    m_pendingCentre = -1;
    m_progressTimer->stop();
    m_progressDelay->stop();
    m_progress->hide();
}

void GraphCanvas::finishLayout(quint64 job, const Outcome &outcome)
{
    if (job != m_currentJob)
        return; // superseded or cancelled: a newer request owns the picture
    m_currentJob = 0;
    m_job.reset();
    m_progressTimer->stop();
    m_progressDelay->stop();
    m_progress->hide();
    if (!outcome.layout) {
        m_pendingSelect = -1;
        m_pendingCentre = -1;
        m_requested = m_expanded;
        if (!outcome.canceled)
            Q_EMIT layoutFailed(outcome.error);
        return;
    }
    m_grouping = outcome.grouping;
    m_expanded = outcome.expanded;
    m_requested = m_expanded;
    m_interiors = outcome.interiors;
    m_layout = outcome.layout;
    m_lastLayoutMs = outcome.milliseconds;
    rebuildScene();

    const QString revisionAnchor = std::exchange(m_revisionAnchor, QString());
    CanvasNodeItem *anchorItem = revisionAnchor.isEmpty() ? nullptr : nodeItem(revisionAnchor);
    if (m_firstView) {
        m_firstView = false;
        showFirstView();
    } else if (anchorItem) {
        // A new revision: the node the eye rested on lands where it was on screen, so the unchanged nodes around it
        // stay put as far as the new layout lets them.
        const QPointF offset = mapToScene(m_revisionAnchorPos.toPoint()) - mapToScene(viewport()->rect().center());
        centerOn(anchorItem->sceneBoundingRect().center() - offset);
    } else if (m_anchorGroup >= 0 && size_t(m_anchorGroup) < m_layout->groupItem.size()) {
        const LayoutRect &r = m_layout->items[size_t(m_layout->groupItem[size_t(m_anchorGroup)])].rect;
        centerOn(QPointF(r.x, r.y) + m_anchorOffset);
    }
    m_anchorGroup = -1;
    if (m_pendingSelect >= 0) {
        const int node = m_pendingSelect;
        m_pendingSelect = -1;
        if (size_t(node) < m_layout->nodeItem.size() && m_layout->nodeItem[size_t(node)] >= 0) {
            setCurrentNode(node);
            centreOnItem(m_items[size_t(m_layout->nodeItem[size_t(node)])]);
        }
    }
    if (m_pendingCentre >= 0) {
        const int node = m_pendingCentre;
        m_pendingCentre = -1;
        if (size_t(node) < m_layout->nodeItem.size() && m_layout->nodeItem[size_t(node)] >= 0) {
            QGraphicsItem *item = m_items[size_t(m_layout->nodeItem[size_t(node)])];
            const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
            if (!m_centreOnlyIfHidden || !visible.contains(item->sceneBoundingRect()))
                centreOnItem(item);
        }
    }
    m_centreOnlyIfHidden = false;
    if (m_hasPendingView && m_grouping && !m_pendingGroupsApplied) {
        // A restored view opens its groups first; the zoom and centre follow once they are laid out.
        m_pendingGroupsApplied = true;
        std::vector<bool> next(m_grouping->groups.size(), false);
        for (size_t g = 0; g < next.size(); ++g)
            next[g] = m_pendingGroups.contains(QString::fromStdString(m_grouping->groups[g].label));
        if (next != m_expanded) {
            requestLayout(std::move(next), -1);
            Q_EMIT layoutFinished(outcome.milliseconds);
            return;
        }
    }
    if (m_hasPendingView && (m_pendingGroupsApplied || !m_grouping)) {
        m_hasPendingView = false;
        setTransform(QTransform::fromScale(m_pendingZoom, m_pendingZoom));
        centerOn(m_pendingCentrePoint);
    }
    updateMinimapRect();
    Q_EMIT layoutFinished(outcome.milliseconds);
}

void GraphCanvas::rebuildScene()
{
    const SceneLayout &layout = *m_layout;
    m_highlighted.clear();
    m_highlightedEdges.clear();
    m_hovered = -1;
    m_nodeIndex.reset();
    scene()->clear();
    m_overviewMarks = nullptr; // deleted with the scene; made again below
    m_overviewHover = nullptr;
    m_items.assign(layout.items.size(), nullptr);
    m_edges.assign(layout.edges.size(), nullptr);
    m_edgesOfItem.assign(layout.items.size(), {});
    m_portsOfFrame.assign(layout.items.size(), {});
    m_frameContents.assign(layout.items.size() + 1, nullptr); // the last: the top level
    m_frameOverviews.assign(layout.items.size() + 1, nullptr);
    // Items are added without an index rebuild per item; the BSP index is built once on first paint.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    for (size_t i = 0; i < layout.items.size(); ++i) {
        const SceneItem &item = layout.items[i];
        const QRectF rect = toQRectF(item.rect);
        QGraphicsItem *g = nullptr;
        switch (item.kind) {
        case SceneItemKind::Node: {
            const NodeLabel label = nodeLabel(*m_graph->nodes()[item.index]);
            auto *node = new CanvasNodeItem(item.index, label, rect);
            // Zoomed out, the box keeps the colour it has at low zoom.
            frameOverview(item.frame)->addBox(rect, categoryColors(label.category).border.lighter(150));
            node->setCurrent(int(item.index) == m_currentNode);
            if (item.index < m_marks.size())
                node->setMatchMark(m_marks[item.index], int(item.index) == m_markAnchor);
            g = node;
            break;
        }
        case SceneItemKind::CollapsedGroup:
        case SceneItemKind::GroupFrame:
            g = new CanvasGroupItem(
                item.index, m_grouping->groups[item.index], item.kind == SceneItemKind::GroupFrame, rect);
            break;
        case SceneItemKind::Port: {
            auto *port = new QGraphicsEllipseItem(rect);
            port->setPen(QPen(canvas::groupBorder(), 1));
            port->setBrush(canvas::badgeFill());
            port->setZValue(1.8);
            g = port;
            if (item.frame >= 0)
                m_portsOfFrame[size_t(item.frame)].push_back(int(i));
            break;
        }
        }
        g->setData(kSceneItemRole, int(i));
        // Groups stay at the top level (they are the overview's frame); nodes and ports go in a content item.
        if (item.kind == SceneItemKind::CollapsedGroup || item.kind == SceneItemKind::GroupFrame)
            scene()->addItem(g);
        else
            addToScene(g, item.frame);
        m_items[i] = g;
    }
    for (size_t e = 0; e < layout.edges.size(); ++e) {
        auto *edge = new CanvasEdgeItem(layout.edges[e]);
        // An edge between two items of one frame belongs to that frame's content, any other to the top level's.
        const int fromFrame = layout.items[size_t(layout.edges[e].path.from)].frame;
        const int toFrame = layout.items[size_t(layout.edges[e].path.to)].frame;
        const int frame = fromFrame == toFrame ? fromFrame : -1;
        addToScene(edge, frame);
        if (!edge->isLongRange())
            frameOverview(frame)->addEdge(edge->path());
        m_edges[e] = edge;
        m_edgesOfItem[size_t(layout.edges[e].path.from)].push_back(int(e));
        m_edgesOfItem[size_t(layout.edges[e].path.to)].push_back(int(e));
    }
    // No BSP index: group frames and long edges span most of the scene and degrade the tree, so a linear scan
    // paints faster (bench/gui, HRNet fully expanded: pan frames 216 → 121 ms fitted, 79 → 36 ms at 100 %).
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    const qreal margin = 60;
    setSceneRect(toQRectF(layout.bounds).adjusted(-margin, -margin, margin, margin));
    m_overviewMarks = new CanvasOverviewMarks(sceneRect());
    m_overviewMarks->setVisible(false);
    scene()->addItem(m_overviewMarks);
    m_overviewHover = new CanvasOverviewMarks(sceneRect());
    m_overviewHover->setZValue(6);
    m_overviewHover->setVisible(false);
    scene()->addItem(m_overviewHover);
    // The minimap is the whole graph a few pixels per group: drawn from the overviews, not from every item.
    setOverview(true);
    m_minimap->renderScene(scene(), sceneRect());
    setOverview(zoom() < kOverviewZoom);
    m_minimap->setVisible(m_minimapEnabled);
    applyHeat();
    placeOverlays();
}

QRectF GraphCanvas::contentRect(int frame) const
{
    return toQRectF(frame >= 0 ? m_layout->items[size_t(frame)].rect : m_layout->bounds);
}

void GraphCanvas::addToScene(QGraphicsItem *item, int frame)
{
    CanvasFrameContent *&content = m_frameContents[frame >= 0 ? size_t(frame) : m_frameContents.size() - 1];
    if (!content) {
        content = new CanvasFrameContent(contentRect(frame));
        if (frame < 0)
            content->setZValue(1); // top-level edges and nodes lie over the frames and their content
        content->setChildrenShown(!m_overview);
        scene()->addItem(content);
    }
    item->setParentItem(content); // at position (0, 0): scene coordinates stay as laid out
}

CanvasFrameOverview *GraphCanvas::frameOverview(int frame)
{
    CanvasFrameOverview *&overview = m_frameOverviews[frame >= 0 ? size_t(frame) : m_frameOverviews.size() - 1];
    if (!overview) {
        overview = new CanvasFrameOverview(contentRect(frame));
        if (frame < 0)
            overview->setZValue(1);
        overview->setVisible(m_overview);
        scene()->addItem(overview);
    }
    return overview;
}

void GraphCanvas::setOverview(bool overview)
{
    if (overview == m_overview)
        return;
    m_overview = overview;
    for (CanvasFrameContent *content : m_frameContents)
        if (content)
            content->setChildrenShown(!overview);
    for (CanvasFrameOverview *item : m_frameOverviews)
        if (item)
            item->setVisible(overview);
    if (m_overviewMarks)
        m_overviewMarks->setVisible(overview);
    if (m_overviewHover)
        m_overviewHover->setVisible(overview);
}

void GraphCanvas::paintEvent(QPaintEvent *event)
{
    // Every change of zoom ends in a paint: the level of detail follows it here.
    setOverview(zoom() < kOverviewZoom);
    QGraphicsView::paintEvent(event);
}

void GraphCanvas::showFirstView()
{
    const QRectF rect = sceneRect();
    const QRectF view = viewport()->rect();
    const qreal fit = std::min(view.width() / rect.width(), view.height() / rect.height());
    if (fit >= 0.4) {
        fitToView();
        return;
    }
    // A tall graph: readable text beats seeing everything; start at its top (the inputs).
    const qreal zoom = std::max(fit, kReadableZoom);
    setTransform(QTransform::fromScale(zoom, zoom));
    // Centre on what lies in that top band, not on the whole graph: big layouts drift sideways as they go
    // down, and the graph's middle would leave the first boxes cut off at the edge.
    const qreal bandHeight = view.height() / zoom;
    QRectF top;
    for (QGraphicsItem *item : scene()->items(QRectF(rect.left(), rect.top(), rect.width(), bandHeight))) {
        const QRectF r = item->sceneBoundingRect();
        if (r.height() < bandHeight) // long edges would stretch the band sideways
            top |= r;
    }
    centerOn(QPointF(top.isNull() ? rect.center().x() : top.center().x(), rect.top() + bandHeight / 2));
}

qreal GraphCanvas::zoom() const
{
    return transform().m11();
}

void GraphCanvas::scaleBy(qreal factor)
{
    const qreal target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    factor = target / zoom();
    if (std::abs(factor - 1) < 1e-6)
        return;
    scale(factor, factor);
    updateMinimapRect();
    Q_EMIT viewChanged();
}

void GraphCanvas::fitToView()
{
    if (!m_layout)
        return;
    fitInView(sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > 1.5)
        setTransform(QTransform::fromScale(1.5, 1.5));
    centerOn(sceneRect().center());
    updateMinimapRect();
}

void GraphCanvas::zoomIn()
{
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    scaleBy(1.25);
    setTransformationAnchor(anchor);
}

void GraphCanvas::zoomOut()
{
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    scaleBy(1 / 1.25);
    setTransformationAnchor(anchor);
}

void GraphCanvas::resetZoom()
{
    const QPointF centre = mapToScene(viewport()->rect().center());
    setTransform(QTransform());
    centerOn(centre);
    updateMinimapRect();
}

int GraphCanvas::boxCount() const
{
    if (!m_layout)
        return 0;
    return int(std::count_if(m_layout->items.begin(), m_layout->items.end(),
        [](const SceneItem &item) { return item.kind != SceneItemKind::Port; }));
}

int GraphCanvas::visibleNodeCount() const
{
    if (!m_layout)
        return 0;
    return int(std::count_if(m_layout->items.begin(), m_layout->items.end(),
        [](const SceneItem &item) { return item.kind == SceneItemKind::Node; }));
}

CanvasNodeItem *GraphCanvas::nodeItem(const QString &name) const
{
    if (!m_graph || !m_layout)
        return nullptr;
    const Node *node = m_graph->find(name.toStdString());
    if (!node || node->index() >= m_layout->nodeItem.size() || m_layout->nodeItem[node->index()] < 0)
        return nullptr;
    return static_cast<CanvasNodeItem *>(m_items[size_t(m_layout->nodeItem[node->index()])]);
}

CanvasGroupItem *GraphCanvas::groupItem(int group) const
{
    if (!m_layout || group < 0 || size_t(group) >= m_layout->groupItem.size() || m_layout->groupItem[size_t(group)] < 0)
        return nullptr;
    return static_cast<CanvasGroupItem *>(m_items[size_t(m_layout->groupItem[size_t(group)])]);
}

QString GraphCanvas::selectedNode() const
{
    if (!m_graph || m_currentNode < 0 || size_t(m_currentNode) >= m_graph->size())
        return {};
    return QString::fromStdString(m_graph->nodes()[size_t(m_currentNode)]->name());
}

bool GraphCanvas::selectNode(const QString &name)
{
    if (!m_graph)
        return false;
    const Node *node = m_graph->find(name.toStdString());
    if (!node)
        return false;
    const int index = int(node->index());
    if (m_layout && size_t(index) < m_layout->nodeItem.size() && m_layout->nodeItem[size_t(index)] >= 0
        && !isLayoutRunning()) {
        setCurrentNode(index);
        centreOnItem(m_items[size_t(m_layout->nodeItem[size_t(index)])]);
        return true;
    }
    // Not on screen yet: select it when the layout that shows it arrives.
    m_pendingSelect = index;
    if (m_grouping && m_grouping->groupOf[size_t(index)] >= 0 && !isGroupExpanded(m_grouping->groupOf[size_t(index)]))
        setGroupExpanded(m_grouping->groupOf[size_t(index)], true);
    return true;
}

void GraphCanvas::setMatchMarks(
    const std::vector<std::pair<QString, CanvasMatchMark>> &marks, const QString &centre, bool centreOnlyIfHidden)
{
    if (!m_graph)
        return;
    m_centreOnlyIfHidden = centreOnlyIfHidden;
    m_marks.assign(m_graph->size(), CanvasMatchMark::None);
    for (const auto &[name, mark] : marks)
        if (const Node *node = m_graph->find(name.toStdString()))
            m_marks[node->index()] = mark;
    const Node *centreNode = centre.isEmpty() ? nullptr : m_graph->find(centre.toStdString());
    m_markAnchor = centreNode ? int(centreNode->index()) : -1;
    applyMatchMarks();

    // Groups hiding a marked node open first; the view centres once they are laid out.
    if (m_grouping) {
        std::vector<bool> next
            = isLayoutRunning() && m_requested.size() == m_expanded.size() ? m_requested : m_expanded;
        bool expand = false;
        for (size_t n = 0; n < m_marks.size() && n < m_grouping->groupOf.size(); ++n) {
            const int group = m_grouping->groupOf[n];
            if (m_marks[n] != CanvasMatchMark::None && group >= 0 && !next[size_t(group)]) {
                next[size_t(group)] = true;
                expand = true;
            }
        }
        if (expand) {
            requestLayout(std::move(next), -1);
            m_pendingCentre = m_markAnchor;
            return;
        }
    }
    if (m_markAnchor < 0)
        return;
    if (m_layout && !isLayoutRunning() && size_t(m_markAnchor) < m_layout->nodeItem.size()
        && m_layout->nodeItem[size_t(m_markAnchor)] >= 0) {
        QGraphicsItem *item = m_items[size_t(m_layout->nodeItem[size_t(m_markAnchor)])];
        if (!centreOnlyIfHidden || !mapToScene(viewport()->rect()).boundingRect().contains(item->sceneBoundingRect()))
            centreOnItem(item);
    } else
        m_pendingCentre = m_markAnchor; // the first layout is still running
}

QPointF GraphCanvas::viewCentre() const
{
    return mapToScene(viewport()->rect().center());
}

QStringList GraphCanvas::expandedGroupLabels() const
{
    QStringList labels;
    if (m_grouping)
        for (size_t g = 0; g < m_grouping->groups.size() && g < m_expanded.size(); ++g)
            if (m_expanded[g])
                labels << QString::fromStdString(m_grouping->groups[g].label);
    return labels;
}

void GraphCanvas::restoreView(qreal zoom, QPointF centre, const QStringList &expandedGroups)
{
    m_hasPendingView = true;
    m_pendingZoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_pendingCentrePoint = centre;
    m_pendingGroups = expandedGroups;
    m_pendingGroupsApplied = false;
    if (!m_graph || isLayoutRunning() || !m_layout)
        return; // applied when the running layout finishes
    if (m_grouping) {
        m_pendingGroupsApplied = true;
        std::vector<bool> next(m_grouping->groups.size(), false);
        for (size_t g = 0; g < next.size(); ++g)
            next[g] = expandedGroups.contains(QString::fromStdString(m_grouping->groups[g].label));
        if (next != m_expanded) {
            requestLayout(std::move(next), -1);
            return;
        }
    }
    m_hasPendingView = false;
    setTransform(QTransform::fromScale(m_pendingZoom, m_pendingZoom));
    centerOn(centre);
    updateMinimapRect();
    Q_EMIT viewChanged();
}

QString GraphCanvas::exportImage(const QString &path, bool wholeGraph)
{
    if (!m_layout)
        return tr("%1: nothing to export: no graph is shown yet").arg(path);
    const QRectF source = wholeGraph ? sceneRect() : mapToScene(viewport()->rect()).boundingRect();
    // The view at its on-screen resolution (sharp on high-DPI screens); the whole graph at two pixels per point,
    // with every item drawn whatever the zoom on screen.
    const qreal scale = wholeGraph ? 2.0 : zoom() * devicePixelRatioF();
    const bool overview = m_overview;
    setOverview(!wholeGraph && zoom() < kOverviewZoom);
    const QString error = exportScene(scene(), source, scale, canvas::background(), path,
        m_graph ? tr("fxscope: %L1 nodes").arg(m_graph->size()) : QString());
    setOverview(overview);
    return error;
}

void GraphCanvas::refreshStyle()
{
    setBackgroundBrush(canvas::background());
    // Edges cache their pen; the scene is rebuilt from the layout it has, which costs no Graphviz call.
    if (m_layout) {
        const QTransform t = transform();
        const QPointF centre = viewCentre();
        rebuildScene();
        setTransform(t);
        centerOn(centre);
        applyMatchMarks();
    }
    scene()->update();
    viewport()->update();
}

void GraphCanvas::setMinimapEnabled(bool enabled)
{
    m_minimapEnabled = enabled;
    if (!enabled)
        m_minimap->hide();
}

void GraphCanvas::clearMatchMarks()
{
    m_marks.clear();
    m_markAnchor = -1;
    m_pendingCentre = -1;
    applyMatchMarks();
}

CanvasMatchMark GraphCanvas::matchMark(const QString &name) const
{
    const Node *node = m_graph ? m_graph->find(name.toStdString()) : nullptr;
    return node && node->index() < m_marks.size() ? m_marks[node->index()] : CanvasMatchMark::None;
}

void GraphCanvas::setNodeTimes(const std::map<std::string, double> &microseconds)
{
    m_heat.clear();
    if (m_graph && !microseconds.empty()) {
        double lo = std::numeric_limits<double>::max(), hi = 0;
        for (const auto &[name, us] : microseconds)
            if (m_graph->find(name) && us > 0) {
                lo = std::min(lo, us);
                hi = std::max(hi, us);
            }
        if (hi > 0) {
            // A log scale: node times span orders of magnitude (a view costs ns, a matmul ms).
            const double span = std::max(1e-9, std::log(hi) - std::log(lo));
            m_heat.assign(m_graph->size(), -1);
            for (const auto &[name, us] : microseconds)
                if (const Node *n = m_graph->find(name); n && us > 0)
                    m_heat[n->index()] = hi == lo ? 1.0 : (std::log(us) - std::log(lo)) / span;
            // The legend: the gradient between the fastest and the slowest time.
            const int w = 220, h = 46;
            QPixmap legend(w * devicePixelRatio(), h * devicePixelRatio());
            legend.setDevicePixelRatio(devicePixelRatio());
            legend.fill(Qt::transparent);
            QPainter p(&legend);
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(canvas::edge(), 1));
            p.setBrush(canvas::isDark() ? QColor(0x2b, 0x30, 0x36, 235) : QColor(255, 255, 255, 235));
            p.drawRoundedRect(QRectF(0.5, 0.5, w - 1, h - 1), 4, 4);
            QLinearGradient g(10, 0, w - 10, 0);
            for (int i = 0; i <= 8; ++i)
                g.setColorAt(i / 8.0, canvas::heat(i / 8.0));
            p.setPen(Qt::NoPen);
            p.setBrush(g);
            p.drawRect(QRectF(10, 8, w - 20, 12));
            p.setPen(canvas::nameText());
            QFont f = font();
            f.setPixelSize(11);
            p.setFont(f);
            auto text = [](double us) {
                return us >= 1000 ? QStringLiteral("%1 ms").arg(us / 1000, 0, 'g', 3)
                                  : QStringLiteral("%1 µs").arg(us, 0, 'g', 3);
            };
            p.drawText(QRectF(10, 22, w - 20, 20), Qt::AlignLeft | Qt::AlignVCenter, text(lo));
            p.drawText(QRectF(10, 22, w - 20, 20), Qt::AlignHCenter | Qt::AlignVCenter, tr("time (log)"));
            p.drawText(QRectF(10, 22, w - 20, 20), Qt::AlignRight | Qt::AlignVCenter, text(hi));
            p.end();
            m_legend->setPixmap(legend);
            m_legend->resize(w, h);
        }
    }
    m_legend->setVisible(!m_heat.empty());
    placeOverlays();
    applyHeat();
}

qreal GraphCanvas::nodeHeat(const QString &name) const
{
    if (m_heat.empty() || !m_graph)
        return -1;
    const Node *n = m_graph->find(name.toStdString());
    return n ? m_heat[n->index()] : -1;
}

void GraphCanvas::applyHeat()
{
    if (!m_layout)
        return;
    for (size_t n = 0; n < m_layout->nodeItem.size(); ++n)
        if (const int item = m_layout->nodeItem[n]; item >= 0)
            static_cast<CanvasNodeItem *>(m_items[size_t(item)])->setHeat(n < m_heat.size() ? m_heat[n] : -1);
    updateOverviewMarks();
}

void GraphCanvas::applyMatchMarks()
{
    if (!m_layout)
        return;
    for (size_t n = 0; n < m_layout->nodeItem.size(); ++n) {
        const int item = m_layout->nodeItem[n];
        if (item < 0)
            continue;
        static_cast<CanvasNodeItem *>(m_items[size_t(item)])
            ->setMatchMark(n < m_marks.size() ? m_marks[n] : CanvasMatchMark::None, int(n) == m_markAnchor);
    }
    updateOverviewMarks();
}

void GraphCanvas::setCurrentNode(int node)
{
    if (m_layout && m_currentNode >= 0 && size_t(m_currentNode) < m_layout->nodeItem.size()) {
        const int old = m_layout->nodeItem[size_t(m_currentNode)];
        if (old >= 0)
            static_cast<CanvasNodeItem *>(m_items[size_t(old)])->setCurrent(false);
    }
    m_currentNode = node;
    if (m_layout && node >= 0 && size_t(node) < m_layout->nodeItem.size()) {
        const int item = m_layout->nodeItem[size_t(node)];
        if (item >= 0)
            static_cast<CanvasNodeItem *>(m_items[size_t(item)])->setCurrent(true);
    }
    updateOverviewMarks();
}

int GraphCanvas::overviewMarkCount() const
{
    return m_overviewMarks ? m_overviewMarks->boxCount() : 0;
}

int GraphCanvas::overviewHoverCount() const
{
    return m_overviewHover ? m_overviewHover->boxCount() : 0;
}

void GraphCanvas::updateOverviewMarks()
{
    if (!m_overviewMarks || !m_layout)
        return;
    m_overviewMarks->clear();
    auto rectOf = [this](size_t node) { return toQRectF(m_layout->items[size_t(m_layout->nodeItem[node])].rect); };
    for (size_t n = 0; n < m_layout->nodeItem.size(); ++n) {
        if (m_layout->nodeItem[n] < 0)
            continue; // in a collapsed group: its box is drawn as it is
        if (n < m_heat.size() && m_heat[n] >= 0) // a dozen shades: one drawRects call each
            m_overviewMarks->addBox(rectOf(n), canvas::heat(std::round(m_heat[n] * 12) / 12));
        const CanvasMatchMark mark = n < m_marks.size() ? m_marks[n] : CanvasMatchMark::None;
        if (mark != CanvasMatchMark::None)
            m_overviewMarks->addBox(rectOf(n), canvas::matchMarkColor(mark), 3);
    }
    if (m_currentNode >= 0 && size_t(m_currentNode) < m_layout->nodeItem.size()
        && m_layout->nodeItem[size_t(m_currentNode)] >= 0)
        m_overviewMarks->addBox(rectOf(size_t(m_currentNode)), canvas::selection(), 5);
    m_overviewMarks->update();
}

int GraphCanvas::overviewNodeAt(QPointF scenePos)
{
    // The node items are hidden (not hit) in the overview; their laid-out boxes are the targets, found through a
    // grid built once per layout: a mouse move looks at a few boxes, not at all 23k of HRNet's.
    if (!m_nodeIndex)
        m_nodeIndex = std::make_unique<SceneNodeIndex>(*m_layout);
    return m_nodeIndex->nodeItemAt({scenePos.x(), scenePos.y()});
}

void GraphCanvas::centreOnItem(QGraphicsItem *item)
{
    if (!item)
        return;
    // Zoom in to readable first when the view is too far out to see the node.
    if (zoom() < kReadableZoom) {
        setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
    }
    centerOn(item);
    updateMinimapRect();
}

int GraphCanvas::sceneItemAt(const QPoint &viewPos)
{
    // Topmost node or group box under the cursor; edges and ports are not targets.
    if (m_overview && m_layout) {
        // Zoomed out the scene holds every item of every expanded group: asking it (an unindexed scan of all of
        // them) per mouse move would cost milliseconds; the laid-out boxes answer instead.
        const QPointF at = mapToScene(viewPos);
        if (const int node = overviewNodeAt(at); node >= 0)
            return node;
        for (int group : m_layout->groupItem)
            if (group >= 0 && m_layout->items[size_t(group)].rect.contains(LayoutPoint{at.x(), at.y()}, 0))
                return group;
        return -1;
    }
    for (QGraphicsItem *item : items(viewPos)) {
        if (dynamic_cast<CanvasNodeItem *>(item) || dynamic_cast<CanvasGroupItem *>(item))
            return item->data(kSceneItemRole).toInt();
    }
    return -1;
}

void GraphCanvas::setHovered(int sceneItem)
{
    if (sceneItem == m_hovered)
        return;
    for (QGraphicsItem *item : m_highlighted) {
        if (auto *node = dynamic_cast<CanvasNodeItem *>(item))
            node->setHighlight(CanvasHighlight::None);
        else if (auto *group = dynamic_cast<CanvasGroupItem *>(item))
            group->setHighlight(CanvasHighlight::None);
    }
    for (CanvasEdgeItem *edge : m_highlightedEdges)
        edge->setHighlight(CanvasHighlight::None);
    m_highlighted.clear();
    m_highlightedEdges.clear();
    m_hovered = sceneItem;
    if (m_overviewHover && m_overviewHover->boxCount() > 0) {
        m_overviewHover->clear();
        m_overviewHover->update();
    }
    if (sceneItem < 0 || !m_layout)
        return;

    auto highlight = [this](int index, CanvasHighlight how) {
        if (index < 0)
            return;
        QGraphicsItem *item = m_items[size_t(index)];
        if (auto *node = dynamic_cast<CanvasNodeItem *>(item)) {
            node->setHighlight(how);
            // Zoomed out the node item is hidden: its box is outlined over the overview instead.
            if (m_overviewHover) {
                m_overviewHover->addBox(toQRectF(m_layout->items[size_t(index)].rect),
                    how == CanvasHighlight::Input        ? canvas::inputHighlight()
                        : how == CanvasHighlight::Output ? canvas::outputHighlight()
                                                         : canvas::nameText(),
                    3);
            }
        } else if (auto *group = dynamic_cast<CanvasGroupItem *>(item)) {
            group->setHighlight(how);
        } else {
            return;
        }
        m_highlighted.push_back(item);
    };
    const SceneItem &hovered = m_layout->items[size_t(sceneItem)];
    // The graph nodes the hovered box stands for.
    std::vector<size_t> nodes;
    if (hovered.kind == SceneItemKind::Node)
        nodes.push_back(hovered.index);
    else
        nodes = m_grouping->groups[hovered.index].nodes;
    auto visibleItemOf = [this](size_t node) {
        const int item = m_layout->nodeItem[node];
        if (item >= 0)
            return item;
        const int group = m_grouping->groupOf[node];
        return group >= 0 ? m_layout->groupItem[size_t(group)] : -1;
    };
    for (size_t n : nodes) {
        const Node &node = *m_graph->nodes()[n];
        for (const Node *in : node.inputNodes()) {
            const int item = visibleItemOf(in->index());
            if (item != sceneItem)
                highlight(item, CanvasHighlight::Input);
        }
        for (const Node *user : node.users()) {
            const int item = visibleItemOf(user->index());
            if (item != sceneItem)
                highlight(item, CanvasHighlight::Output);
        }
    }
    highlight(sceneItem, CanvasHighlight::Hovered);
    if (m_overviewHover && m_overviewHover->boxCount() > 0)
        m_overviewHover->update();
    std::vector<int> ends{sceneItem};
    ends.insert(ends.end(), m_portsOfFrame[size_t(sceneItem)].begin(), m_portsOfFrame[size_t(sceneItem)].end());
    for (int end : ends)
        for (int e : m_edgesOfItem[size_t(end)]) {
            CanvasEdgeItem *edge = m_edges[size_t(e)];
            edge->setHighlight(edge->toItem() == end ? CanvasHighlight::Input : CanvasHighlight::Output);
            m_highlightedEdges.push_back(edge);
        }
}

void GraphCanvas::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    scaleBy(std::pow(1.0015, delta));
    event->accept();
}

void GraphCanvas::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_F: fitToView(); return;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); return;
    case Qt::Key_Minus: zoomOut(); return;
    case Qt::Key_0: resetZoom(); return;
    default: QGraphicsView::keyPressEvent(event);
    }
}

void GraphCanvas::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseMoveEvent(QMouseEvent *event)
{
    QGraphicsView::mouseMoveEvent(event);
    if (event->buttons() == Qt::NoButton)
        setHovered(sceneItemAt(event->pos()));
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    viewport()->setCursor(Qt::ArrowCursor);
    if (event->button() != Qt::LeftButton || (event->pos() - m_pressPos).manhattanLength() > 4)
        return; // a drag that panned the view
    const int index = sceneItemAt(event->pos());
    if (index < 0 || !m_layout)
        return;
    const SceneItem &item = m_layout->items[size_t(index)];
    if (item.kind == SceneItemKind::Node) {
        setCurrentNode(int(item.index));
        Q_EMIT nodeSelected(QString::fromStdString(m_graph->nodes()[item.index]->name()));
    } else if (auto *group = dynamic_cast<CanvasGroupItem *>(m_items[size_t(index)])) {
        if (group->toggleRect().contains(mapToScene(event->pos())))
            setGroupExpanded(int(group->groupIndex()), !group->isExpanded());
    }
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int index = sceneItemAt(event->pos());
    if (index >= 0) {
        if (auto *group = dynamic_cast<CanvasGroupItem *>(m_items[size_t(index)])) {
            if (!group->toggleRect().contains(mapToScene(event->pos()))) // the release already toggled
                setGroupExpanded(int(group->groupIndex()), !group->isExpanded());
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

bool GraphCanvas::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_layout && m_graph) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int index = sceneItemAt(help->pos());
        if (index >= 0 && m_layout->items[size_t(index)].kind == SceneItemKind::Node) {
            const SceneItem &item = m_layout->items[size_t(index)];
            // The tip stays while the cursor is on the same box.
            const QRect box = mapFromScene(toQRectF(item.rect)).boundingRect().adjusted(-1, -1, 1, 1);
            QToolTip::showText(help->globalPos(), nodeToolTip(*m_graph->nodes()[item.index]), viewport(), box);
            return true;
        }
    }
    return QGraphicsView::viewportEvent(event);
}

void GraphCanvas::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QGraphicsView::leaveEvent(event);
}

void GraphCanvas::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    placeOverlays();
    updateMinimapRect();
}

void GraphCanvas::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    updateMinimapRect();
    Q_EMIT viewChanged();
}

void GraphCanvas::updateMinimapRect()
{
    m_minimap->setVisibleRect(mapToScene(viewport()->rect()).boundingRect());
}

void GraphCanvas::placeOverlays()
{
    const QRect area = viewport()->geometry();
    m_minimap->move(area.right() - m_minimap->width() - 12, area.bottom() - m_minimap->height() - 12);
    m_legend->move(area.left() + 12, area.bottom() - m_legend->height() - 12);
    m_legend->raise();
    m_progress->adjustSize();
    m_progress->move(area.right() - m_progress->width() - 12, area.top() + 12);
    m_minimap->raise();
    m_progress->raise();
}

} // namespace fxs
