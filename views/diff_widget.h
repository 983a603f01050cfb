#pragma once
// The Diff dock's content: two revisions picked from the session's history and what differs between them
// (removed, added and changed nodes, per-op counts) as a tree. It shows the diff it is given and reports the
// revisions the user picks and the nodes the user follows.

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QTreeView;

namespace fxs {

struct GraphDiff;
class GraphDiffModel;

class DiffWidget : public QWidget {
    Q_OBJECT
public:
    explicit DiffWidget(QWidget *parent = nullptr);

    // The revisions to choose from: item i is revision i ("0. Graph as loaded", then one per step). Keeps the
    // choice where it still exists; a new history compares its first and last revisions.
    void setRevisions(const QStringList &names);
    // Shows the diff computed for (from, to); ignored when the user has picked another pair since.
    void setDiff(int from, int to, std::shared_ptr<const GraphDiff> diff);
    void setBusy(bool busy);
    // Picks the pair and asks for its diff (as the user would).
    void compare(int from, int to);

    int fromRevision() const;
    int toRevision() const;
    GraphDiffModel *model() const { return m_model; }
    QTreeView *treeView() const { return m_tree; }
    QComboBox *fromBox() const { return m_from; }
    QComboBox *toBox() const { return m_to; }
    QLabel *summaryLabel() const { return m_summary; }

Q_SIGNALS:
    void diffRequested(int from, int to);
    void nodeActivated(const QString &name);

private:
    void request();

    QComboBox *m_from;
    QComboBox *m_to;
    QCheckBox *m_allOps;
    QLabel *m_summary;
    QTreeView *m_tree;
    GraphDiffModel *m_model;
    int m_shownFrom = -1, m_shownTo = -1;
};

} // namespace fxs
