#pragma once
// Narrows the pattern tree to the candidates a person is looking for: accepted or rejected ones, those
// decided at one stage, those of one pattern, and those whose pattern, anchor or reasons contain a text. A pattern
// stays while any of its candidates does; a shown candidate keeps all its reasons.

#include <QSortFilterProxyModel>

namespace fxs {

class PatternTreeModel;

class PatternFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Verdicts { All, Accepted, Rejected };

    explicit PatternFilterProxyModel(QObject *parent = nullptr);

    void setVerdicts(Verdicts verdicts);
    Verdicts verdicts() const { return m_verdicts; }
    // A matchStageName ("generic", "extra_check", ...); empty for any stage.
    void setStage(const QString &stage);
    QString stage() const { return m_stage; }
    // One pattern's exact name: only its candidates stay; empty for every pattern.
    void setPattern(const QString &pattern);
    QString pattern() const { return m_pattern; }
    // Case-insensitive substring of the pattern name, the anchor or any reason line.
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }
    bool isFiltering() const
    {
        return m_verdicts != Verdicts::All || !m_stage.isEmpty() || !m_pattern.isEmpty() || !m_text.isEmpty();
    }

    // Candidates passing the filter, over every pattern.
    int visibleCandidateCount() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool candidatePasses(int pattern, int candidate) const;
    PatternTreeModel *tree() const;

    Verdicts m_verdicts = Verdicts::All;
    QString m_stage;
    QString m_pattern;
    QString m_text;
};

} // namespace fxs
