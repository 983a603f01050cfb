#pragma once
// The match report as a tree: pattern → candidates (✓/✗ with the stage that decided) → the reasons in words,
// the extra_check's evaluation trace line by line and the matched nodes. It renders a MatchReport and decides
// nothing; reason texts are built on first display, so thousands of early rejections cost nothing until opened.

#include "runtime/fusion_numerics.h"

#include <QAbstractItemModel>
#include <QFont>
#include <QIcon>

#include <memory>
#include <vector>

namespace fxs {

struct MatchReport;
struct PatternReport;
struct Verdict;
struct TorchComparison;

// The icon of a pattern (or pattern file) that loaded with warnings.
QIcon patternWarningIcon();

class PatternTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, VerdictColumn, TorchColumn, NumericsColumn, DetailColumn, ColumnCount };
    // The Torch column: what Inductor's real pass says of each candidate, when a Python with torch checked it.
    enum class TorchState { Unavailable, Running, Done, Failed };
    enum class Kind { Pattern, Candidate, Reason, Trace, Nodes };
    enum Role {
        KindRole = Qt::UserRole, // int(Kind)
        PatternIndexRole, // index in MatchReport::patterns
        CandidateIndexRole, // index in PatternReport::candidates; -1 on pattern rows
        AcceptedRole, // candidates: bool
        StageRole, // candidates: matchStageName
        AnchorRole, // candidates: the anchor's node name
        WarningsRole, // patterns: the entry's load warnings (QStringList)
        TorchAgreesRole, // candidates: bool once torch checked them; null otherwise
        NumericsEqualRole, // accepted candidates: bool once their numerics ran; null otherwise
    };

    explicit PatternTreeModel(QObject *parent = nullptr);
    ~PatternTreeModel() override;

    // Shows `report` (nullptr clears); the pointer keeps it alive while shown.
    void setReport(std::shared_ptr<const MatchReport> report);
    const MatchReport *report() const { return m_report.get(); }

    // The Torch column (empty until a check runs; setReport empties it). Both ignore a report other than the one shown.
    void setTorchRunning(const MatchReport *report);
    void setTorchResult(const MatchReport *report, std::shared_ptr<const TorchComparison> comparison);
    void setTorchFailed(const MatchReport *report);
    TorchState torchState() const { return m_torchState; }
    const TorchComparison *torchComparison() const { return m_torch.get(); }

    // The Numerics column: each accepted candidate's fusion run against the nodes it replaces (empty until a check
    // runs; setReport empties it). Both ignore a report other than the one shown.
    void setNumericsRunning(const MatchReport *report);
    void setNumerics(const MatchReport *report, std::shared_ptr<const CandidateNumerics> numerics);
    bool numericsShown() const { return m_numericsRunning || m_numerics; }
    const CandidateNumerics *numericsResult() const { return m_numerics.get(); }
    // The numerics of a candidate, nullptr while none ran.
    const FusionNumerics *numerics(int pattern, int candidate) const;

    // What a row stands for; nullptr where it does not (a pattern row has no verdict).
    const PatternReport *pattern(const QModelIndex &index) const;
    const Verdict *verdict(const QModelIndex &index) const;
    Kind kind(const QModelIndex &index) const;
    QModelIndex patternIndex(int pattern) const;
    QModelIndex candidateIndex(int pattern, int candidate) const;
    // A candidate's child rows: its reasons, then its extra_check trace, then its matched nodes.
    const std::vector<QString> &childTexts(int pattern, int candidate) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Internal ids: 0 for pattern rows; for candidate rows the pattern's index + 1; for child rows of a
    // candidate its flat index + 1 with kChildBit set.
    static constexpr quintptr kChildBit = quintptr(1) << (sizeof(quintptr) * 8 - 1);
    struct ChildRows {
        bool built = false;
        int reasons = 0; // rows [0, reasons) are reasons
        int trace = 0; // then `trace` extra_check lines, then one nodes row when there are nodes
        std::vector<QString> texts;
    };
    ChildRows &childRows(size_t flat) const;
    size_t flatIndex(int pattern, int candidate) const { return m_firstCandidate[size_t(pattern)] + size_t(candidate); }
    QVariant patternData(int pattern, int column, int role) const;
    QVariant candidateData(int pattern, int candidate, int column, int role) const;
    QVariant childData(size_t flat, int row, int column, int role) const;

    void torchColumnChanged();
    void columnChanged(int column);

    std::shared_ptr<const MatchReport> m_report;
    TorchState m_torchState = TorchState::Unavailable;
    std::shared_ptr<const TorchComparison> m_torch;
    bool m_numericsRunning = false;
    std::shared_ptr<const CandidateNumerics> m_numerics;
    std::vector<size_t> m_firstCandidate; // per pattern: flat index of its first candidate
    std::vector<std::pair<int, int>> m_candidateOf; // per flat index: (pattern, candidate)
    mutable std::vector<ChildRows> m_children; // per flat index, built on first use
    QIcon m_accepted;
    QIcon m_rejected;
    QIcon m_warning;
    QFont m_fixedFont;
};

} // namespace fxs
