#include "pattern_tree_model.h"

#include "match/match_report.h"
#include "match/torch_check.h"

#include <QBrush>
#include <QFontDatabase>
#include <QPainter>
#include <QPixmap>

namespace fxs {

namespace {

QColor acceptedColor()
{
    return QColor(0x2e, 0x7d, 0x32);
}

QColor rejectedColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

// An icon drawn rather than shipped, so it follows the device pixel ratio: `draw` paints a 16-unit design scaled
// by s, at 16 and 32 pixels.
template <typename Draw>
QIcon drawnIcon(Draw draw)
{
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        draw(p, size / 16.0);
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

// A round badge with a tick or a cross.
QIcon verdictIcon(bool accepted)
{
    return drawnIcon([accepted](QPainter &p, qreal s) {
        p.setPen(Qt::NoPen);
        p.setBrush(accepted ? acceptedColor() : rejectedColor());
        p.drawEllipse(QRectF(1 * s, 1 * s, 14 * s, 14 * s));
        p.setPen(QPen(Qt::white, 2 * s, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        if (accepted) {
            p.drawPolyline(
                QPolygonF({QPointF(4.5 * s, 8.2 * s), QPointF(7 * s, 10.6 * s), QPointF(11.5 * s, 5.6 * s)}));
        } else {
            p.drawLine(QPointF(5.3 * s, 5.3 * s), QPointF(10.7 * s, 10.7 * s));
            p.drawLine(QPointF(10.7 * s, 5.3 * s), QPointF(5.3 * s, 10.7 * s));
        }
    });
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

// An amber triangle with an exclamation mark: the pattern loaded, with warnings.
QIcon patternWarningIcon()
{
    return drawnIcon([](QPainter &p, qreal s) {
        p.setPen(QPen(QColor(0xb2, 0x6a, 0x00), 1 * s, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(QColor(0xff, 0xb3, 0x00));
        p.drawPolygon(QPolygonF({QPointF(8 * s, 1.5 * s), QPointF(15 * s, 14.5 * s), QPointF(1 * s, 14.5 * s)}));
        p.setPen(QPen(QColor(0x3e, 0x27, 0x23), 1.8 * s, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(8 * s, 5.8 * s), QPointF(8 * s, 9.8 * s));
        p.drawPoint(QPointF(8 * s, 12.3 * s));
    });
}

PatternTreeModel::PatternTreeModel(QObject *parent)
    : QAbstractItemModel(parent), m_accepted(verdictIcon(true)), m_rejected(verdictIcon(false)),
      m_warning(patternWarningIcon()), m_fixedFont(QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
}

PatternTreeModel::~PatternTreeModel() = default;

void PatternTreeModel::setReport(std::shared_ptr<const MatchReport> report)
{
    beginResetModel();
    if (report != m_report) { // the same report shown again keeps its Torch and Numerics columns
        m_torchState = TorchState::Unavailable;
        m_torch.reset();
        m_numericsRunning = false;
        m_numerics.reset();
    }
    m_report = std::move(report);
    m_firstCandidate.clear();
    m_candidateOf.clear();
    m_children.clear();
    if (m_report) {
        for (size_t p = 0; p < m_report->patterns.size(); ++p) {
            m_firstCandidate.push_back(m_candidateOf.size());
            for (size_t c = 0; c < m_report->patterns[p].candidates.size(); ++c)
                m_candidateOf.emplace_back(int(p), int(c));
        }
        m_children.resize(m_candidateOf.size());
    }
    endResetModel();
}

const PatternReport *PatternTreeModel::pattern(const QModelIndex &index) const
{
    if (!m_report || !index.isValid())
        return nullptr;
    const int p = index.data(PatternIndexRole).toInt();
    return p >= 0 && size_t(p) < m_report->patterns.size() ? &m_report->patterns[size_t(p)] : nullptr;
}

const Verdict *PatternTreeModel::verdict(const QModelIndex &index) const
{
    if (!m_report || !index.isValid() || kind(index) == Kind::Pattern)
        return nullptr;
    const PatternReport *p = pattern(index);
    const int c = index.data(CandidateIndexRole).toInt();
    return p && c >= 0 && size_t(c) < p->candidates.size() ? &p->candidates[size_t(c)] : nullptr;
}

PatternTreeModel::Kind PatternTreeModel::kind(const QModelIndex &index) const
{
    const quintptr id = index.internalId();
    if (id == 0)
        return Kind::Pattern;
    if (!(id & kChildBit))
        return Kind::Candidate;
    const ChildRows &rows = childRows((id & ~kChildBit) - 1);
    if (index.row() < rows.reasons)
        return Kind::Reason;
    if (index.row() < rows.reasons + rows.trace)
        return Kind::Trace;
    return Kind::Nodes;
}

QModelIndex PatternTreeModel::patternIndex(int pattern) const
{
    return index(pattern, 0);
}

QModelIndex PatternTreeModel::candidateIndex(int pattern, int candidate) const
{
    return index(candidate, 0, patternIndex(pattern));
}

const std::vector<QString> &PatternTreeModel::childTexts(int pattern, int candidate) const
{
    return childRows(flatIndex(pattern, candidate)).texts;
}

PatternTreeModel::ChildRows &PatternTreeModel::childRows(size_t flat) const
{
    ChildRows &rows = m_children[flat];
    if (rows.built)
        return rows;
    rows.built = true;
    const auto [p, c] = m_candidateOf[flat];
    const Verdict &v = m_report->patterns[size_t(p)].candidates[size_t(c)];
    for (const std::string &reason : v.reasonTexts())
        rows.texts.push_back(qs(reason));
    rows.reasons = int(rows.texts.size());
    for (const std::string &line : v.checkTrace)
        rows.texts.push_back(qs(line));
    rows.trace = int(v.checkTrace.size());
    if (!v.nodes.empty()) {
        QStringList names;
        for (const std::string &n : v.nodes)
            names << qs(n);
        rows.texts.push_back(tr("matched nodes: %1").arg(names.join(QLatin1String(", "))));
    }
    return rows;
}

QModelIndex PatternTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    if (parent.internalId() == 0) // a candidate of pattern parent.row()
        return createIndex(row, column, quintptr(parent.row()) + 1);
    if (!(parent.internalId() & kChildBit)) // a child row of a candidate
        return createIndex(row, column, (flatIndex(int(parent.internalId() - 1), parent.row()) + 1) | kChildBit);
    return {};
}

QModelIndex PatternTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const quintptr id = child.internalId();
    if (!(id & kChildBit))
        return createIndex(int(id - 1), 0, quintptr(0));
    const auto [p, c] = m_candidateOf[(id & ~kChildBit) - 1];
    return createIndex(c, 0, quintptr(p) + 1);
}

int PatternTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!m_report)
        return 0;
    if (!parent.isValid())
        return int(m_report->patterns.size());
    if (parent.column() != 0)
        return 0;
    const quintptr id = parent.internalId();
    if (id == 0)
        return int(m_report->patterns[size_t(parent.row())].candidates.size());
    if (!(id & kChildBit))
        return int(childRows(flatIndex(int(id - 1), parent.row())).texts.size());
    return 0;
}

bool PatternTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (!m_report)
        return false;
    if (!parent.isValid() || parent.internalId() == 0 || parent.column() != 0)
        return rowCount(parent) > 0;
    if (parent.internalId() & kChildBit)
        return false;
    // Answered without building the reason texts: the tree asks this of every candidate it shows.
    const Verdict &v = m_report->patterns[size_t(parent.internalId() - 1)].candidates[size_t(parent.row())];
    return (v.failure && (v.stage == MatchStage::Generic || v.stage == MatchStage::Specific)) || !v.reasons.empty()
        || !v.checkTrace.empty() || !v.nodes.empty();
}

int PatternTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant PatternTreeModel::data(const QModelIndex &index, int role) const
{
    if (!m_report || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const quintptr id = index.internalId();
    if (id == 0)
        return patternData(index.row(), index.column(), role);
    if (!(id & kChildBit))
        return candidateData(int(id - 1), index.row(), index.column(), role);
    return childData((id & ~kChildBit) - 1, index.row(), index.column(), role);
}

QVariant PatternTreeModel::patternData(int pattern, int column, int role) const
{
    const PatternReport &p = m_report->patterns[size_t(pattern)];
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return qs(p.name);
        case VerdictColumn:
            return p.candidates.empty() ? tr("no candidates")
                                        : tr("%1 of %2 accepted").arg(p.acceptedCount()).arg(p.candidates.size());
        case DetailColumn: {
            // A near-miss hint first: it is what the user can act on (the details say what to change).
            const QString hint = p.hints.empty() ? QString()
                                                 : tr("hint: would match %L1 of %L2 · ")
                                                       .arg(p.hints.front().wouldMatch)
                                                       .arg(p.hints.front().candidates);
            if (p.warnings.empty())
                return hint + qs(p.source);
            if (p.warnings.size() == 1)
                return hint + tr("1 load warning · %1").arg(qs(p.source));
            return hint + tr("%L1 load warnings · %2").arg(p.warnings.size()).arg(qs(p.source));
        }
        }
        break;
    case Qt::DecorationRole:
        if (column == NameColumn && !p.warnings.empty())
            return m_warning;
        break;
    case WarningsRole: {
        QStringList warnings;
        for (const std::string &w : p.warnings)
            warnings << qs(w);
        return warnings;
    }
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("<b>%1</b><br>%2").arg(qs(p.name).toHtmlEscaped(), qs(p.source).toHtmlEscaped());
        if (!p.warnings.empty()) {
            tip += tr("<br><b>Load warnings</b><ul>");
            for (const std::string &w : p.warnings)
                tip += QStringLiteral("<li>%1</li>").arg(qs(w).toHtmlEscaped());
            tip += QStringLiteral("</ul>");
        }
        if (!p.pattern.empty())
            tip += QStringLiteral("<pre>%1</pre>").arg(qs(p.pattern).toHtmlEscaped());
        if (!p.extraCheckSource.empty())
            tip += tr("<b>extra_check</b><pre>%1</pre>").arg(qs(p.extraCheckSource).toHtmlEscaped());
        return tip;
    }
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return QBrush(p.acceptedCount() > 0 ? acceptedColor() : QColor(0x75, 0x75, 0x75));
        if (column == DetailColumn)
            return QBrush(p.warnings.empty() ? QColor(0x75, 0x75, 0x75) : QColor(0xb2, 0x6a, 0x00));
        break;
    case Qt::FontRole:
        if (column == NameColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        break;
    case KindRole: return int(Kind::Pattern);
    case PatternIndexRole: return pattern;
    case CandidateIndexRole: return -1;
    }
    return {};
}

QVariant PatternTreeModel::candidateData(int pattern, int candidate, int column, int role) const
{
    const Verdict &v = m_report->patterns[size_t(pattern)].candidates[size_t(candidate)];
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return qs(v.anchor);
        case VerdictColumn:
            return v.accepted ? tr("✓ accepted") : QStringLiteral("✗ %1").arg(QLatin1String(matchStageName(v.stage)));
        case TorchColumn:
            switch (m_torchState) {
            case TorchState::Unavailable:
            case TorchState::Failed: return QString();
            case TorchState::Running: return QStringLiteral("…");
            case TorchState::Done: {
                const auto &row = m_torch->verdicts[size_t(pattern)];
                return size_t(candidate) < row.size() ? qs(row[size_t(candidate)].text()) : QString();
            }
            }
            break;
        case NumericsColumn:
            if (const FusionNumerics *n = numerics(pattern, candidate)) // ifAccepted: refused by its extra_check
                return (n->ifAccepted ? tr("if fused: ") : QString())
                    + (!n->ran ? tr("not run") : n->equal ? tr("= equal") : tr("≠ differs"));
            return m_numericsRunning && (v.accepted || v.stage == MatchStage::ExtraCheck) ? QStringLiteral("…")
                                                                                          : QString();
        case DetailColumn: {
            const std::vector<QString> &texts = childRows(flatIndex(pattern, candidate)).texts;
            if (v.accepted)
                return tr("%n node(s)", nullptr, int(v.nodes.size()));
            return texts.empty() ? QString() : texts.front();
        }
        }
        break;
    case Qt::DecorationRole:
        if (column == NameColumn)
            return v.accepted ? m_accepted : m_rejected;
        break;
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return QBrush(v.accepted ? acceptedColor() : rejectedColor());
        if (column == TorchColumn || column == NumericsColumn) {
            const QVariant agrees = candidateData(pattern, candidate, column,
                column == TorchColumn ? TorchAgreesRole : NumericsEqualRole);
            if (agrees.isValid())
                return QBrush(agrees.toBool() ? acceptedColor() : rejectedColor());
        }
        break;
    case NumericsEqualRole:
        if (const FusionNumerics *n = numerics(pattern, candidate); n && n->ran)
            return n->equal;
        break;
    case TorchAgreesRole:
        if (m_torchState == TorchState::Done) {
            const auto &row = m_torch->verdicts[size_t(pattern)];
            if (size_t(candidate) < row.size() && row[size_t(candidate)].known)
                return row[size_t(candidate)].agrees;
        }
        break;
    case Qt::FontRole:
        if (column == NameColumn)
            return m_fixedFont;
        break;
    case Qt::ToolTipRole: {
        if (column == NumericsColumn) {
            const FusionNumerics *n = numerics(pattern, candidate);
            if (n && n->ifAccepted)
                return tr("Refused by its extra_check. Fused alone as if the check had accepted, and run against the "
                          "nodes it would replace on the same seeded inputs: %1")
                    .arg(qs(n->text()).toHtmlEscaped());
            return n ? tr("The fusion run against the nodes it replaces, on the same seeded inputs: %1")
                           .arg(qs(n->text()).toHtmlEscaped())
                     : QString();
        }
        if (column == TorchColumn) {
            const QString text = candidateData(pattern, candidate, column, Qt::DisplayRole).toString();
            if (text.isEmpty() || m_torchState != TorchState::Done)
                return text;
            const TorchVerdict &t = m_torch->verdicts[size_t(pattern)][size_t(candidate)];
            QString tip = tr("Inductor's PatternMatcherPass (torch %1), with the pattern files alone: %2")
                              .arg(qs(m_torch->torchVersion), text.toHtmlEscaped());
            if (t.fxscopeAccepted != v.accepted)
                tip += tr("<br>With the pattern files alone fxscope %1 this candidate; here a built-in pattern "
                          "decided its nodes first.")
                           .arg(t.fxscopeAccepted ? tr("accepts") : tr("rejects"));
            return tip;
        }
        QStringList lines;
        for (const QString &t : childRows(flatIndex(pattern, candidate)).texts)
            lines << t.toHtmlEscaped();
        return lines.join(QLatin1String("<br>"));
    }
    case KindRole: return int(Kind::Candidate);
    case PatternIndexRole: return pattern;
    case CandidateIndexRole: return candidate;
    case AcceptedRole: return v.accepted;
    case StageRole: return QLatin1String(matchStageName(v.stage));
    case AnchorRole: return qs(v.anchor);
    }
    return {};
}

QVariant PatternTreeModel::childData(size_t flat, int row, int column, int role) const
{
    const ChildRows &rows = childRows(flat);
    const auto [p, c] = m_candidateOf[flat];
    const Kind k = row < rows.reasons ? Kind::Reason : row < rows.reasons + rows.trace ? Kind::Trace : Kind::Nodes;
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn)
            return rows.texts[size_t(row)];
        break;
    case Qt::ToolTipRole:
        if (column == NameColumn)
            return rows.texts[size_t(row)];
        break;
    case Qt::FontRole:
        if (k == Kind::Trace)
            return m_fixedFont;
        break;
    case Qt::ForegroundRole:
        if (k == Kind::Trace)
            return QBrush(QColor(0x4a, 0x14, 0x8c));
        if (k == Kind::Nodes)
            return QBrush(QColor(0x61, 0x61, 0x61));
        break;
    case KindRole: return int(k);
    case PatternIndexRole: return p;
    case CandidateIndexRole: return c;
    }
    return {};
}

QVariant PatternTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Pattern / anchor");
    case VerdictColumn: return tr("Verdict");
    case TorchColumn: return tr("Torch");
    case NumericsColumn: return tr("Numerics");
    case DetailColumn: return tr("Detail");
    }
    return {};
}

void PatternTreeModel::setTorchRunning(const MatchReport *report)
{
    if (!m_report || report != m_report.get())
        return;
    m_torchState = TorchState::Running;
    m_torch.reset();
    torchColumnChanged();
}

void PatternTreeModel::setTorchResult(const MatchReport *report, std::shared_ptr<const TorchComparison> comparison)
{
    if (!m_report || report != m_report.get() || !comparison
        || comparison->verdicts.size() != m_report->patterns.size())
        return;
    m_torchState = TorchState::Done;
    m_torch = std::move(comparison);
    torchColumnChanged();
}

void PatternTreeModel::setTorchFailed(const MatchReport *report)
{
    if (!m_report || report != m_report.get())
        return;
    m_torchState = TorchState::Failed;
    m_torch.reset();
    torchColumnChanged();
}

void PatternTreeModel::torchColumnChanged()
{
    columnChanged(TorchColumn);
}

void PatternTreeModel::columnChanged(int column)
{
    for (int p = 0; p < int(m_report->patterns.size()); ++p) {
        const int n = int(m_report->patterns[size_t(p)].candidates.size());
        if (n > 0)
            Q_EMIT dataChanged(candidateIndex(p, 0).siblingAtColumn(column),
                candidateIndex(p, n - 1).siblingAtColumn(column));
    }
    Q_EMIT headerDataChanged(Qt::Horizontal, column, column);
}

void PatternTreeModel::setNumericsRunning(const MatchReport *report)
{
    if (!m_report || report != m_report.get())
        return;
    m_numericsRunning = true;
    m_numerics.reset();
    columnChanged(NumericsColumn);
}

void PatternTreeModel::setNumerics(const MatchReport *report, std::shared_ptr<const CandidateNumerics> numerics)
{
    if (!m_report || report != m_report.get())
        return;
    m_numericsRunning = false;
    m_numerics = std::move(numerics);
    columnChanged(NumericsColumn);
}

const FusionNumerics *PatternTreeModel::numerics(int pattern, int candidate) const
{
    if (!m_numerics || !m_report)
        return nullptr;
    const PatternReport &p = m_report->patterns[size_t(pattern)];
    auto it = m_numerics->find({p.name, p.candidates[size_t(candidate)].anchor});
    return it == m_numerics->end() ? nullptr : &it->second;
}

} // namespace fxs
