#pragma once
// The Timeline dock's content: the session's history (a QUndoView over the Document's undo stack: click a step to
// go there), "apply first N steps" (bisect), and what the last move changed: the nodes it removed (clicking one
// selects the node that replaced it), the nodes it added, and the per-op before/after counts. It shows the diff it
// is given and reports the user's requests.

#include <QWidget>

#include <memory>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QUndoStack;
class QUndoView;

namespace fxs {

struct GraphDiff;

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);

    void setUndoStack(QUndoStack *stack);
    // What the last move did; nullptr clears (a new graph).
    void setDiff(std::shared_ptr<const GraphDiff> diff, const QString &description);
    void setBusy(bool busy);

    QUndoView *historyView() const { return m_history; }
    QSpinBox *bisectBox() const { return m_bisectSteps; }
    QListWidget *removedList() const { return m_removed; }
    QListWidget *addedList() const { return m_added; }
    QTableWidget *opTable() const { return m_ops; }

Q_SIGNALS:
    void bisectRequested(int steps);
    // A node to select on the canvas: an added node, or the node that replaced a removed one.
    void nodeActivated(const QString &name);

private:
    void activate(QListWidgetItem *item);

    QUndoView *m_history;
    QSpinBox *m_bisectSteps;
    QPushButton *m_bisectButton;
    QLabel *m_description;
    QListWidget *m_removed;
    QListWidget *m_added;
    QTableWidget *m_ops;
    std::shared_ptr<const GraphDiff> m_diff;
};

} // namespace fxs
