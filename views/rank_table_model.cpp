#include "rank_table_model.h"

#include "ranks_profile.h"

#include <QColor>
#include <QFont>
#include <QLocale>

namespace fxs {

namespace {

// The times one graph's side of a report gives: -1 where the run had no such graph.
void readSide(const Json &side, const Json &rank, const char *name, double &median, double &collective,
    double &compute)
{
    if (!side.isObject())
        return;
    median = side["median_ms"].toDouble();
    // A rank's row keeps its split beside the report; the row over the ranks has it in the graph's object.
    const Json &c = rank.isObject() ? rank[std::string(name) + "_collective_ms"] : side["collective_ms"];
    const Json &m = rank.isObject() ? rank[std::string(name) + "_compute_ms"] : side["compute_ms"];
    collective = c.isNull() ? -1 : c.toDouble();
    compute = m.isNull() ? -1 : m.toDouble();
}

} // namespace

RankTableModel::RankTableModel(QObject *parent) : QAbstractTableModel(parent) { }

void RankTableModel::startRun(int ranks)
{
    beginResetModel();
    m_rows.assign(size_t(std::max(0, ranks)), Row{});
    for (size_t r = 0; r < m_rows.size(); ++r) {
        m_rows[r].rank = int(r);
        m_rows[r].permille = 0;
        m_rows[r].state = tr("starting");
    }
    endResetModel();
}

void RankTableModel::setProgress(const std::vector<RankProgress> &progress)
{
    if (progress.size() != m_rows.size())
        startRun(int(progress.size()));
    for (size_t r = 0; r < progress.size(); ++r) {
        m_rows[r].permille = std::clamp(int(progress[r].fraction * 1000), 0, 1000);
        m_rows[r].state = QString::fromStdString(progress[r].state);
    }
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, StatusColumn), index(int(m_rows.size()) - 1, StatusColumn));
}

bool RankTableModel::stopRun()
{
    bool running = false;
    for (Row &row : m_rows) {
        if (row.permille < 0)
            continue;
        running = true;
        row.state = row.state == QLatin1String("finished")
            ? tr("finished")
            : tr("stopped at %1 % (%2)").arg(row.permille / 10).arg(row.state);
        row.permille = -1;
    }
    if (running)
        Q_EMIT dataChanged(index(0, StatusColumn), index(int(m_rows.size()) - 1, StatusColumn));
    return running;
}

void RankTableModel::setProfile(std::shared_ptr<const RanksProfile> profile)
{
    beginResetModel();
    m_rows.clear();
    if (profile) {
        const Json &merged = profile->json;
        for (const Json &rank : merged["per_rank"].items()) {
            Row row;
            row.rank = int(rank["rank"].toInt());
            row.state = tr("done");
            readSide(rank["unfused"], rank, "unfused", row.unfusedMs, row.unfusedCollectiveMs, row.unfusedComputeMs);
            readSide(rank["fused"], rank, "fused", row.fusedMs, row.fusedCollectiveMs, row.fusedComputeMs);
            if (rank["fused"].isObject()) {
                row.outputsMatch = rank["outputs_match"].toBool();
                row.maxAbsDiff = rank["max_abs_diff"].toDouble();
            }
            if (rank["expected"].isObject())
                row.expectedMatch = rank["expected"]["outputs_match"].toBool();
            row.detail = QString::fromStdString(rank["outputs_detail"].toString());
            m_rows.push_back(std::move(row));
        }
        Row over;
        over.state = tr("slowest rank");
        readSide(merged["unfused"], Json(), "unfused", over.unfusedMs, over.unfusedCollectiveMs, over.unfusedComputeMs);
        readSide(merged["fused"], Json(), "fused", over.fusedMs, over.fusedCollectiveMs, over.fusedComputeMs);
        if (merged["fused"].isObject()) {
            over.outputsMatch = merged["outputs_match"].toBool();
            over.maxAbsDiff = merged["max_abs_diff"].toDouble();
        }
        if (merged["expected_match"].isBool())
            over.expectedMatch = merged["expected_match"].toBool();
        m_rows.push_back(std::move(over));
    }
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RankTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    const int column = index.column();
    if (role == RankRole)
        return r.rank;
    if (role == ProgressRole)
        return column == StatusColumn ? r.permille : -1;
    if (role == SortRole) {
        switch (column) {
        case RankColumn: return r.rank < 0 ? 1 << 30 : r.rank; // the row over the ranks stays last
        case UnfusedColumn: return r.unfusedMs;
        case FusedColumn: return r.fusedMs;
        case CollectiveColumn: return r.unfusedCollectiveMs;
        case ComputeColumn: return r.unfusedComputeMs;
        case OutputsColumn: return r.outputsMatch ? int(*r.outputsMatch) : -1;
        default: return r.state;
        }
    }
    if (role == Qt::TextAlignmentRole && column >= UnfusedColumn && column <= ComputeColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && r.rank < 0) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    const bool differ = (r.outputsMatch && !*r.outputsMatch) || (r.expectedMatch && !*r.expectedMatch);
    if (role == Qt::ForegroundRole && column == OutputsColumn && r.outputsMatch)
        return differ ? QColor(0xd3, 0x2f, 0x2f) : QColor(0x2e, 0x9d, 0x4a); // the summary's red and green
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case CollectiveColumn:
            return tr("Time in collectives (all_reduce, all_gather, wait_tensor, npu_mm_all_reduce_base, ...), "
                      "unfused → fused: the sum of those nodes' medians");
        case ComputeColumn: return tr("Time in every other node, unfused → fused");
        case OutputsColumn:
            if (!r.outputsMatch)
                return {};
            return tr("Fused outputs against unfused ones on %1: %2 (max |Δ| %3)%4%5")
                .arg(r.rank < 0 ? tr("every rank") : tr("rank %1").arg(r.rank),
                    *r.outputsMatch ? tr("equal") : tr("different"))
                .arg(r.maxAbsDiff, 0, 'g', 3)
                .arg(r.expectedMatch ? tr("; against the expected outputs: %1")
                                           .arg(*r.expectedMatch ? tr("equal") : tr("different"))
                                     : QString(),
                    r.detail.isEmpty() ? QString() : QStringLiteral("\n") + r.detail);
        case StatusColumn: return r.state;
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    auto ms = [](double v) { return v < 0 ? QStringLiteral("—") : QLocale().toString(v, 'f', 3); };
    auto pair = [&](double unfused, double fused) {
        return fused < 0 ? ms(unfused) : QStringLiteral("%1 → %2").arg(ms(unfused), ms(fused));
    };
    switch (column) {
    case RankColumn: return r.rank < 0 ? tr("max") : QString::number(r.rank);
    case StatusColumn:
        return r.permille < 0 ? r.state : QStringLiteral("%1 % · %2").arg(r.permille / 10).arg(r.state);
    case UnfusedColumn: return ms(r.unfusedMs);
    case FusedColumn: return ms(r.fusedMs);
    case CollectiveColumn: return pair(r.unfusedCollectiveMs, r.fusedCollectiveMs);
    case ComputeColumn: return pair(r.unfusedComputeMs, r.fusedComputeMs);
    case OutputsColumn:
        if (!r.outputsMatch)
            return QStringLiteral("—");
        return (*r.outputsMatch ? tr("match") : tr("differ"))
            + (r.expectedMatch ? tr(" · expected: %1").arg(*r.expectedMatch ? tr("match") : tr("differ")) : QString());
    }
    return {};
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn: return tr("Rank");
    case StatusColumn: return tr("Status");
    case UnfusedColumn: return tr("Unfused ms");
    case FusedColumn: return tr("Fused ms");
    case CollectiveColumn: return tr("Collectives ms");
    case ComputeColumn: return tr("Compute ms");
    case OutputsColumn: return tr("Outputs");
    }
    return {};
}

} // namespace fxs
