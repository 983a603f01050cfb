#pragma once
// The Recording dock's content, for a recording of a torch.compile run (python -m fxscope_capture.record): the
// passes torch applied per rank and compiled graph, in order, with what each pattern tried and replaced and torch's
// reason for every anchor it did not replace; and the fusion matrix, which pattern replaced how often on which rank
// and graph, with the cells where ranks disagree marked. It shows the recording it is given and reports the user's
// requests: a step's graph to show, two graphs to compare.

#include "compare/fusion_matrix.h"

#include <QWidget>

#include <memory>
#include <string>
#include <utility>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace fxs {

struct GraphFile;

class RecordingWidget : public QWidget {
    Q_OBJECT
public:
    explicit RecordingWidget(QWidget *parent = nullptr);

    // The recording of `file`; a file without one (or nullptr) clears the view.
    void setFile(const GraphFile *file);
    bool hasRecording() const { return m_recording != nullptr; }

    QTreeWidget *passesView() const { return m_passes; }
    QTableWidget *matrixView() const { return m_matrix; }
    QPushButton *diffButton() const { return m_diffButton; }
    QPushButton *rerunButton() const { return m_rerunButton; }

Q_SIGNALS:
    // Show graph `graphIndex` of the file (a step's graph).
    void graphActivated(int graphIndex);
    // Compare graph `before` with graph `after` of the file side by side.
    void compareRequested(int before, int after);
    // Re-run a recorded pattern pass from its point: show graph `before` and load `source` (inductor:NAME) into the
    // torch host, whose verdicts then explain each candidate and whose steps apply them.
    void rerunRequested(int before, const QString &source);

private:
    void fillPasses();
    void fillMatrix();
    void updateButtons();
    // The graphs before and after the selected step; false when it has none before it or changed nothing.
    bool selectedStepGraphs(int &before, int &after) const;
    // The stream and step of a row of the passes tree (a stream's row: no step).
    std::pair<const RecordedStream *, const RecordedStep *> streamAndStep(const QTreeWidgetItem *item) const;
    const RecordedStep *selectedStep(int &before) const;
    // The Inductor pattern set (inductor:NAME) the selected step's pattern pass comes from; empty when none.
    QString selectedStepSource(int &before) const;
    void matrixCellClicked(int row, int column);

    QLabel *m_summary;
    QTreeWidget *m_passes;
    QTableWidget *m_matrix;
    QPushButton *m_diffButton;
    QPushButton *m_rerunButton;
    std::shared_ptr<const Recording> m_recording;
    FusionMatrix m_fusions; // of m_recording
    std::vector<std::string> m_graphNames;
    std::vector<size_t> m_graphSizes;
};

} // namespace fxs
