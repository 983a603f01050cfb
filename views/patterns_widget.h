#pragma once
// The Patterns dock's content: a filter bar (text, verdict, stage) over the pattern → candidate → reason tree,
// the current candidate's whole verdict below it (reasons wrapped, the disagreement, the extra_check trace line
// by line, bindings) and a summary line. It shows the report it is given and reports the candidate the user
// makes current and the node links the user follows.

#include <QWidget>

#include "runtime/fusion_numerics.h"

#include <memory>

class QComboBox;
class QCompleter;
class QLabel;
class QStringListModel;
class QLineEdit;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace fxs {

struct MatchReport;
struct TorchComparison;
class PatternFilterProxyModel;
class PatternTreeModel;

class PatternsWidget : public QWidget {
    Q_OBJECT
public:
    explicit PatternsWidget(QWidget *parent = nullptr);
    ~PatternsWidget() override;

    void setReport(std::shared_ptr<const MatchReport> report, qint64 milliseconds = -1);
    // Shown while a match runs; the last report stays until the new one arrives.
    void setMatching(bool matching);

    // The Torch column: shown while a check of `report` (the one shown) runs and once it is done; a failure hides it
    // and says why in one line above the tree.
    void setTorchRunning(const MatchReport *report);
    void setTorchResult(const MatchReport *report, std::shared_ptr<const TorchComparison> comparison);
    void setTorchFailed(const MatchReport *report, const QString &message);
    // The line that says why torch could not check; hidden otherwise.
    QLabel *torchMessage() const { return m_torchMessage; }

    // The Numerics column (issue 25): shown once a check of `report` (the one shown) starts; the button asks for one.
    void setNumericsRunning(const MatchReport *report);
    void setNumerics(const MatchReport *report, std::shared_ptr<const CandidateNumerics> numerics);
    QToolButton *numericsButton() const { return m_numericsButton; }

    PatternTreeModel *model() const { return m_model; }
    PatternFilterProxyModel *proxyModel() const { return m_proxy; }
    QTreeView *treeView() const { return m_tree; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *verdictBox() const { return m_verdict; }
    QComboBox *stageBox() const { return m_stage; }
    QTextBrowser *detailsView() const { return m_details; }
    // Completes "pattern:" terms in the filter with the report's pattern names (ignoring case).
    QCompleter *patternCompleter() const { return m_completer; }
    // Says why a "pattern:NAME" term picks no pattern, naming the close ones; hidden otherwise.
    QLabel *filterMessage() const { return m_filterMessage; }

    // Makes the candidate current and visible (clearing filters that hide it) without emitting
    // candidateSelected. False when the report has no such candidate.
    bool selectCandidate(int pattern, int candidate);
    // The current row's candidate as (pattern, candidate); (-1, -1) when none.
    std::pair<int, int> currentCandidate() const;

public Q_SLOTS:
    void focusFilter();

Q_SIGNALS:
    // The user made a candidate (or one of its reasons) current.
    void candidateSelected(int pattern, int candidate);
    // The user clicked a node name in the candidate's details.
    void nodeActivated(const QString &name);
    // The user asked for the accepted candidates' numerics.
    void numericsRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyStyle();
    void applyFilter();
    // The "pattern:" term the cursor is in: its start and length in the filter's text; length -1 when none.
    std::pair<int, int> patternTermAtCursor() const;
    void completePatternTerm();
    void insertPatternCompletion(const QString &completion);
    void updateSummary();
    void updateFileWarnings();
    void updateTorchColumn();
    void spanChildRows(const QModelIndex &proxyParent);
    void showDetails(int pattern, int candidate);

    PatternTreeModel *m_model;
    PatternFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QComboBox *m_verdict;
    QComboBox *m_stage;
    QLabel *m_summary;
    QLabel *m_filterMessage;
    QLabel *m_torchMessage;
    QToolButton *m_numericsButton;
    QCompleter *m_completer;
    QStringListModel *m_patternNames;
    QWidget *m_fileWarningsRow; // the pattern files' load warnings, above the tree; hidden when there are none
    QLabel *m_fileWarnings;
    QTreeView *m_tree;
    QTextBrowser *m_details;
    qint64 m_matchMs = -1;
    bool m_matching = false;
    bool m_selecting = false; // set while selectCandidate() moves the current row
};

} // namespace fxs
