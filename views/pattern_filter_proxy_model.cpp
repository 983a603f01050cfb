#include "pattern_filter_proxy_model.h"

#include "pattern_tree_model.h"

#include "match/match_report.h"
#include "util/closest_name.h"

namespace fxs {

PatternFilterProxyModel::PatternFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
    // A new report may have the typed pattern, or another one it now stands for. Connected before any view, so the
    // rows are filtered afresh with the new answer.
    connect(this, &QAbstractItemModel::modelReset, this, &PatternFilterProxyModel::resolvePattern);
}

QStringList PatternFilterProxyModel::patternNames() const
{
    QStringList names;
    if (const PatternTreeModel *model = tree(); model && model->report())
        for (const PatternReport &p : model->report()->patterns)
            names << QString::fromStdString(p.name);
    return names;
}

void PatternFilterProxyModel::resolvePattern()
{
    m_pattern.clear();
    m_patternProblem.clear();
    if (m_typedPattern.isEmpty())
        return;
    const QStringList names = patternNames();
    if (names.contains(m_typedPattern)) {
        m_pattern = m_typedPattern;
        return;
    }
    QStringList same, prefixed;
    for (const QString &name : names) {
        if (name.compare(m_typedPattern, Qt::CaseInsensitive) == 0)
            same << name;
        if (name.startsWith(m_typedPattern, Qt::CaseInsensitive))
            prefixed << name;
    }
    if (same.size() == 1 || (same.isEmpty() && prefixed.size() == 1)) {
        m_pattern = same.isEmpty() ? prefixed.front() : same.front();
        return;
    }
    constexpr int kListed = 5;
    const auto listed = [](QStringList list) {
        const int more = int(list.size()) - kListed;
        if (more > 0)
            list = list.mid(0, kListed) << tr("… %n more", nullptr, more);
        return list.join(QLatin1String(", "));
    };
    if (!prefixed.isEmpty()) {
        m_patternProblem = tr("“%1” begins %n pattern names: %2; type more of one", nullptr, int(prefixed.size()))
                               .arg(m_typedPattern, listed(prefixed));
        return;
    }
    // Unknown: the names close to it (closestName's rule per name), its best guess first.
    std::vector<std::string> known;
    for (const QString &name : names)
        known.push_back(name.toStdString());
    const std::string typed = m_typedPattern.toStdString();
    QStringList close;
    if (const std::string best = closestName(typed, known); !best.empty())
        close << QString::fromStdString(best);
    for (const std::string &name : known)
        if (!closestName(typed, {name}).empty() && !close.contains(QString::fromStdString(name)))
            close << QString::fromStdString(name);
    if (names.isEmpty())
        m_patternProblem = tr("No pattern “%1”: the report has no patterns").arg(m_typedPattern);
    else if (close.isEmpty())
        m_patternProblem = tr("No pattern “%1”; the patterns are %2").arg(m_typedPattern, listed(names));
    else
        m_patternProblem = tr("No pattern “%1”; close names: %2").arg(m_typedPattern, listed(close));
}

PatternTreeModel *PatternFilterProxyModel::tree() const
{
    return qobject_cast<PatternTreeModel *>(sourceModel());
}

void PatternFilterProxyModel::setVerdicts(Verdicts verdicts)
{
    if (verdicts == m_verdicts)
        return;
    m_verdicts = verdicts;
    invalidateFilter();
}

void PatternFilterProxyModel::setStage(const QString &stage)
{
    if (stage == m_stage)
        return;
    m_stage = stage;
    invalidateFilter();
}

void PatternFilterProxyModel::setPattern(const QString &typed)
{
    if (typed == m_typedPattern)
        return;
    m_typedPattern = typed;
    resolvePattern();
    invalidateFilter();
}

void PatternFilterProxyModel::setFilterText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool PatternFilterProxyModel::candidatePasses(int pattern, int candidate) const
{
    const PatternTreeModel *model = tree();
    const PatternReport &p = model->report()->patterns[size_t(pattern)];
    if (!m_typedPattern.isEmpty() && m_pattern != QString::fromStdString(p.name))
        return false; // another pattern, or the typed name picks none
    const Verdict &v = p.candidates[size_t(candidate)];
    if ((m_verdicts == Verdicts::Accepted && !v.accepted) || (m_verdicts == Verdicts::Rejected && v.accepted))
        return false;
    if (!m_stage.isEmpty() && m_stage != QLatin1String(matchStageName(v.stage)))
        return false;
    if (m_text.isEmpty())
        return true;
    if (QString::fromStdString(p.name).contains(m_text, Qt::CaseInsensitive)
        || QString::fromStdString(v.anchor).contains(m_text, Qt::CaseInsensitive))
        return true;
    for (const QString &line : model->childTexts(pattern, candidate))
        if (line.contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

bool PatternFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const PatternTreeModel *model = tree();
    if (!model || !model->report() || !isFiltering())
        return true;
    if (!sourceParent.isValid()) {
        const PatternReport &p = model->report()->patterns[size_t(sourceRow)];
        for (size_t c = 0; c < p.candidates.size(); ++c)
            if (candidatePasses(sourceRow, int(c)))
                return true;
        return false;
    }
    if (model->kind(sourceParent) == PatternTreeModel::Kind::Pattern)
        return candidatePasses(sourceParent.row(), sourceRow);
    return true; // a reason of a shown candidate
}

int PatternFilterProxyModel::visibleCandidateCount() const
{
    int count = 0;
    for (int p = 0; p < rowCount(); ++p)
        count += rowCount(index(p, 0));
    return count;
}

} // namespace fxs
