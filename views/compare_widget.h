#pragma once
// Two graphs side by side (File ▸ Compare with…): A and B on two canvases laid out the same way, panned and
// zoomed together, a node selected on one side selecting its partner on the other; removed, added and changed
// regions marked; the list of regions to step through (F3, Shift+F3); and both sides' values of the selected
// node. It shows a GraphComparison computed elsewhere.

#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QListView;

namespace fxs {

class CompareInspector;
class CompareRegionModel;
class Graph;
class GraphCanvas;
struct GraphComparison;

class CompareWidget : public QWidget {
    Q_OBJECT
public:
    explicit CompareWidget(QWidget *parent = nullptr);
    ~CompareWidget() override;

    // Shows a comparison of `a` and `b` (both laid out anew); the first region is selected once both are laid out.
    void setComparison(std::shared_ptr<const Graph> a, std::shared_ptr<const Graph> b,
        std::shared_ptr<const GraphComparison> comparison, const QString &titleA, const QString &titleB);
    // The graphs B's file holds, to pick another from (hidden for one).
    void setGraphChoicesB(const QStringList &names, int current);
    // "Comparing…", an error, or empty.
    void setStatus(const QString &text);

    GraphCanvas *canvasA() const { return m_canvasA; }
    GraphCanvas *canvasB() const { return m_canvasB; }
    CompareInspector *inspector() const { return m_inspector; }
    QListView *regionList() const { return m_regionList; }
    QComboBox *graphPickerB() const { return m_graphB; }
    QLabel *summary() const { return m_summary; }
    std::shared_ptr<const GraphComparison> comparison() const { return m_comparison; }
    int currentRegion() const { return m_currentRegion; }

public Q_SLOTS:
    void nextRegion();
    void previousRegion();
    void showRegion(int row);
    // Selects the node of side 0 (A) or 1 (B) and its partner; false when that side has no such node.
    bool selectNode(int side, const QString &name);

Q_SIGNALS:
    void graphBChosen(int index);

private:
    void applyMarks(int centreRegion);
    void followView(int fromSide);
    QString partnerOf(int side, const QString &name) const;

    GraphCanvas *m_canvasA;
    GraphCanvas *m_canvasB;
    QLabel *m_titleA;
    QLabel *m_titleB;
    QComboBox *m_graphB;
    QLabel *m_summary;
    QLabel *m_status;
    QListView *m_regionList;
    CompareRegionModel *m_regionModel;
    CompareInspector *m_inspector;
    std::shared_ptr<const Graph> m_a, m_b;
    std::shared_ptr<const GraphComparison> m_comparison;
    int m_currentRegion = -1;
    bool m_following = false; // one canvas is being moved to follow the other
    int m_pendingLayouts = 0; // layouts of the new pair still running; the first region shows after them
};

} // namespace fxs
