#pragma once
// The pattern beside the canvas: the search graph of the candidate's pattern, drawn by a small graph canvas with the
// nodes the candidate paired marked (matched, tried, the one that disagreed), and the pattern → graph bindings in a
// table whose graph nodes are links. It draws what pattern_correspondence computed.

#include "pattern_correspondence.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace fxs {

class Graph;
class GraphCanvas;
struct PatternReport;
struct Verdict;

class PatternGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit PatternGraphWidget(QWidget *parent = nullptr);
    ~PatternGraphWidget() override;

    // Shows `search` (the pattern's search graph; nullptr when the pattern has none, e.g. a hand-built pattern)
    // paired with `graph` (the graph the verdict was computed on) for one candidate.
    void setCandidate(
        std::shared_ptr<const Graph> search, const PatternReport &pattern, const Verdict &verdict, const Graph *graph);
    void clear();

    GraphCanvas *canvas() const { return m_canvas; }
    QTreeWidget *bindingsView() const { return m_bindings; }
    QLabel *titleLabel() const { return m_title; }
    const PatternCorrespondence &correspondence() const { return m_correspondence; }

Q_SIGNALS:
    // The user clicked a graph node in the bindings.
    void nodeActivated(const QString &name);
    // The user asked to hide the view.
    void closeRequested();

private:
    QLabel *m_title;
    GraphCanvas *m_canvas;
    QTreeWidget *m_bindings;
    PatternCorrespondence m_correspondence;
};

} // namespace fxs
