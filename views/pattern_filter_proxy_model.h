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
    // One pattern, by the name typed after "pattern:": its exact name, else the one name equal to it ignoring case,
    // else the one name it begins (ignoring case). Only that pattern's candidates stay; an unknown or ambiguous
    // name keeps none and patternProblem() says why. Empty for every pattern. Resolved again when the report changes.
    void setPattern(const QString &typed);
    QString pattern() const { return m_pattern; } // the name it resolved to; empty when none
    QString typedPattern() const { return m_typedPattern; }
    // Why the typed name picks no pattern, naming the close ones; empty when it picks one (or none was typed).
    QString patternProblem() const { return m_patternProblem; }
    // The report's pattern names, in its order.
    QStringList patternNames() const;
    // Case-insensitive substring of the pattern name, the anchor or any reason line.
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }
    bool isFiltering() const
    {
        return m_verdicts != Verdicts::All || !m_stage.isEmpty() || !m_typedPattern.isEmpty() || !m_text.isEmpty();
    }

    // Candidates passing the filter, over every pattern.
    int visibleCandidateCount() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool candidatePasses(int pattern, int candidate) const;
    void resolvePattern();
    PatternTreeModel *tree() const;

    Verdicts m_verdicts = Verdicts::All;
    QString m_stage;
    QString m_typedPattern;
    QString m_pattern;
    QString m_patternProblem;
    QString m_text;
};

} // namespace fxs
