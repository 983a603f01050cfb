#pragma once
// The graph canvas: a zoomable, pannable picture of one FX graph laid out by Graphviz off the UI
// thread. Big graphs show as groups (by module, source location or chunks) that expand in place;
// hovering highlights a node's inputs and users; clicking selects. It renders what fxscope_layout
// computes and computes nothing itself.

#include "canvas_highlight.h"

#include <QGraphicsView>
#include <QStringList>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;

namespace fxs {

class CanvasEdgeItem;
class CanvasFrameContent;
class CanvasFrameOverview;
class CanvasGroupItem;
class CanvasMinimap;
class CanvasOverviewMarks;
class CanvasNodeItem;
class Graph;
class SceneNodeIndex;
struct Grouping;
struct GroupInterior;
struct SceneLayout;

class GraphCanvas : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphCanvas(QWidget *parent = nullptr);
    ~GraphCanvas() override;

    // Shows `graph` (nullptr clears). Groups are collapsed when the graph is large; the layout runs
    // in the background and replaces the picture when it is done.
    void setGraph(std::shared_ptr<const Graph> graph);
    // Shows the next revision of the same graph (a fusion step): like setGraph, but the zoom stays and the
    // groups expanded now stay expanded where the new grouping has a group of the same name, so the eye can
    // follow the change.
    void setGraphRevision(std::shared_ptr<const Graph> graph);
    const Graph *graph() const { return m_graph.get(); }
    // Valid once the first layout of the graph finished.
    const Grouping *grouping() const { return m_grouping.get(); }
    const SceneLayout *sceneLayout() const { return m_layout.get(); }

    int groupCount() const;
    bool isGroupExpanded(int group) const;
    // Lays out again with `group` expanded or collapsed, keeping that group where it is on screen.
    void setGroupExpanded(int group, bool expanded);

    bool isLayoutRunning() const { return m_currentJob != 0; }
    // Node and group boxes currently in the scene (edges and ports not counted).
    int boxCount() const;
    int visibleNodeCount() const;
    qint64 lastLayoutMilliseconds() const { return m_lastLayoutMs; }
    CanvasNodeItem *nodeItem(const QString &name) const;
    CanvasGroupItem *groupItem(int group) const;
    CanvasMinimap *minimap() const { return m_minimap; }
    // On by default; a canvas for small graphs (a pattern) has no use for it.
    void setMinimapEnabled(bool enabled);
    // The time overlay: each named node coloured by its time (µs) on a log scale from the fastest to the slowest,
    // with a legend; nodes without a time keep their colours. Empty clears. Survives relayouts and expansions.
    void setNodeTimes(const std::map<std::string, double> &microseconds);
    bool hasNodeTimes() const { return !m_heat.empty(); }
    qreal nodeHeat(const QString &name) const; // -1 without
    QLabel *timeLegend() const { return m_legend; }
    // Repaints with the canvas colours now in force (after the light/dark palette changed).
    void refreshStyle();

    QString selectedNode() const;
    // Selects and centres the node, expanding its group first when collapsed. Does not emit
    // nodeSelected (that signal reports the user's clicks). False when the graph has no such node.
    bool selectNode(const QString &name);

    qreal zoom() const;

    // Writes the picture to an .svg or .png file: what the view shows, or the whole graph as laid out now
    // (collapsed groups stay boxes). Returns an empty string on success, else the error naming the file.
    QString exportImage(const QString &path, bool wholeGraph);

    // The view as a session saves it: the scene point in the middle, the zoom and the groups expanded.
    QPointF viewCentre() const;
    QStringList expandedGroupLabels() const;
    // Opens exactly `expandedGroups` (by label; others close), then zooms and centres; waits for a layout running.
    void restoreView(qreal zoom, QPointF centre, const QStringList &expandedGroups);

    // Marks the nodes of one pattern candidate (names with their part in it) and centres `centre`,
    // expanding the groups that hide any of them first. Replaces the marks shown before; names the graph
    // does not have are ignored. Does not change the selected node. With `centreOnlyIfHidden` the view moves
    // only when `centre` is not in sight already (after a step, the view stays where the eye is).
    void setMatchMarks(const std::vector<std::pair<QString, CanvasMatchMark>> &marks, const QString &centre,
        bool centreOnlyIfHidden = false);
    void clearMatchMarks();
    CanvasMatchMark matchMark(const QString &name) const;
    // Zoomed far out (below 8 %) groups show overview pictures instead of node items; these tell a test which.
    bool isOverviewShown() const { return m_overview; }
    // The boxes drawn over the overviews: timed, marked by the candidate, selected (0 without any).
    int overviewMarkCount() const;
    // Zoomed far out: the boxes outlined for the hovered node, its inputs and its users (0 when none is hovered).
    int overviewHoverCount() const;

public Q_SLOTS:
    void fitToView();
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void expandAll();
    void collapseAll();
    // Stops the running layout; the picture shown stays.
    void cancelLayout();

Q_SIGNALS:
    // The user clicked a node.
    void nodeSelected(const QString &name);
    void layoutStarted();
    void layoutFinished(qint64 milliseconds);
    void layoutFailed(const QString &message);
    // The user panned or zoomed (or a restore did).
    void viewChanged();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    // Tooltips for nodes at every zoom, the overview's hidden boxes included.
    bool viewportEvent(QEvent *event) override;

private:
    struct Outcome;
    struct Job;
    void requestLayout(std::vector<bool> expanded, int anchorGroup, std::vector<std::string> expandedLabels = {});
    void finishLayout(quint64 job, const Outcome &outcome);
    void rebuildScene();
    // Adds a node, port or edge as a child of the content item of `frame` (-1: the top level's).
    void addToScene(QGraphicsItem *item, int frame);
    QRectF contentRect(int frame) const;
    CanvasFrameOverview *frameOverview(int frame); // created on first use; -1: the top level's
    // Zoomed far out, expanded groups show their overviews instead of their items.
    void setOverview(bool overview);
    void showFirstView();
    void setHovered(int sceneItem);
    void setCurrentNode(int node);
    void centreOnItem(QGraphicsItem *item);
    void applyMatchMarks();
    void applyHeat();
    // Redraws the marks over the overviews from m_heat, m_marks and m_currentNode.
    void updateOverviewMarks();
    // Zoomed far out: the scene item index of the node whose laid-out box holds `scenePos`, else -1.
    int overviewNodeAt(QPointF scenePos);
    int sceneItemAt(const QPoint &viewPos);
    void scaleBy(qreal factor);
    void updateMinimapRect();
    void placeOverlays();

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Grouping> m_grouping;
    std::shared_ptr<const SceneLayout> m_layout;
    std::vector<bool> m_expanded; // what m_layout shows
    std::vector<bool> m_requested; // what the running job lays out
    // Interiors laid out so far, immutable and shared with jobs.
    std::shared_ptr<const std::map<size_t, std::shared_ptr<const GroupInterior>>> m_interiors;

    std::vector<QGraphicsItem *> m_items; // per SceneLayout item
    std::vector<CanvasEdgeItem *> m_edges; // per SceneLayout edge
    std::vector<std::vector<int>> m_edgesOfItem; // per SceneLayout item: incident edges
    std::vector<std::vector<int>> m_portsOfFrame; // per SceneLayout item (frames): their ports
    // Per SceneLayout item (frames), then one for the top level: the parent of its items, its zoomed-out picture.
    std::vector<CanvasFrameContent *> m_frameContents;
    std::vector<CanvasFrameOverview *> m_frameOverviews;
    bool m_overview = false;
    std::unique_ptr<SceneNodeIndex> m_nodeIndex; // the overview's hit tests; built at its first, per layout
    CanvasOverviewMarks *m_overviewMarks = nullptr;
    CanvasOverviewMarks *m_overviewHover = nullptr; // over the marks: the hovered node and its neighbours
    std::vector<QGraphicsItem *> m_highlighted;
    std::vector<CanvasEdgeItem *> m_highlightedEdges;
    int m_hovered = -1;
    int m_currentNode = -1; // node index
    int m_pendingSelect = -1; // node index to select once its group is laid out
    std::vector<CanvasMatchMark> m_marks; // per node index; empty when no candidate is shown
    int m_markAnchor = -1; // node index of the candidate's anchor
    int m_pendingCentre = -1; // node index to centre once its group is laid out
    bool m_firstView = true;
    bool m_minimapEnabled = true;
    bool m_centreOnlyIfHidden = false;
    bool m_hasPendingView = false; // restoreView waiting for a layout
    bool m_pendingGroupsApplied = false;
    qreal m_pendingZoom = 1;
    QPointF m_pendingCentrePoint;
    QStringList m_pendingGroups;
    QString m_revisionAnchor; // setGraphRevision: the node kept at m_revisionAnchorPos (viewport) by the next layout
    QPointF m_revisionAnchorPos;
    // setGraphRevision: the revision before, whose unchanged nodes the next layout keeps in place.
    struct PreviousRevision {
        std::shared_ptr<const Graph> graph;
        std::shared_ptr<const Grouping> grouping;
        std::shared_ptr<const SceneLayout> layout;
        std::vector<bool> expanded; // per group of `grouping`
    };
    PreviousRevision m_previousRevision;

    quint64 m_lastJob = 0;
    quint64 m_currentJob = 0;
    std::shared_ptr<Job> m_job;
    int m_anchorGroup = -1;
    QRectF m_anchorRect;
    QPointF m_anchorOffset;
    qint64 m_lastLayoutMs = 0;

    QPoint m_pressPos;
    CanvasMinimap *m_minimap;
    std::vector<qreal> m_heat; // per node index; empty: no overlay
    QLabel *m_legend;
    QWidget *m_progress;
    QLabel *m_progressLabel;
    QProgressBar *m_progressBar;
    QTimer *m_progressTimer;
    QTimer *m_progressDelay;
};

} // namespace fxs
