#include "pattern_filter_proxy_model.h"

#include "pattern_tree_model.h"

#include "match/match_report.h"

namespace fxs {

PatternFilterProxyModel::PatternFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
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

void PatternFilterProxyModel::setPattern(const QString &pattern)
{
    if (pattern == m_pattern)
        return;
    m_pattern = pattern;
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
    if (!m_pattern.isEmpty() && m_pattern != QString::fromStdString(p.name))
        return false;
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
