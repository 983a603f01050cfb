#include "graph_diff_model.h"

#include "rewrite/graph_diff.h"

#include <QFont>
#include <QStringList>

#include <algorithm>
#include <cstdlib>

namespace fxs {

namespace {
// Internal ids: 0 for section rows, the section + 1 for its children.
constexpr quintptr kSectionId = 0;

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}
} // namespace

GraphDiffModel::GraphDiffModel(QObject *parent) : QAbstractItemModel(parent) { }

void GraphDiffModel::setDiff(std::shared_ptr<const GraphDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    rebuildOps();
    endResetModel();
}

void GraphDiffModel::setShowUnchangedOps(bool show)
{
    if (show == m_showUnchangedOps)
        return;
    beginResetModel();
    m_showUnchangedOps = show;
    rebuildOps();
    endResetModel();
}

void GraphDiffModel::rebuildOps()
{
    m_ops.clear();
    if (!m_diff)
        return;
    for (const auto &[op, counts] : m_diff->opCounts)
        if (m_showUnchangedOps || counts.first != counts.second)
            m_ops.push_back({str(op), counts.first, counts.second});
    auto delta = [](const OpRow &r) { return std::llabs(qlonglong(r.after) - qlonglong(r.before)); };
    std::stable_sort(m_ops.begin(), m_ops.end(), [&](const OpRow &a, const OpRow &b) {
        const bool ac = a.before != a.after, bc = b.before != b.after;
        if (ac != bc)
            return ac;
        return delta(a) > delta(b);
    });
}

QModelIndex GraphDiffModel::sectionIndex(Section section) const
{
    return m_diff ? createIndex(int(section), 0, kSectionId) : QModelIndex();
}

int GraphDiffModel::childCount(int section) const
{
    if (!m_diff)
        return 0;
    switch (Section(section)) {
    case Removed: return int(m_diff->removed.size());
    case Added: return int(m_diff->added.size());
    case Changed: return int(m_diff->changed.size());
    case OpCounts: return int(m_ops.size());
    case SectionCount: break;
    }
    return 0;
}

QModelIndex GraphDiffModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kSectionId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex GraphDiffModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kSectionId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kSectionId);
}

int GraphDiffModel::rowCount(const QModelIndex &parent) const
{
    if (!m_diff)
        return 0;
    if (!parent.isValid())
        return SectionCount;
    if (parent.internalId() != kSectionId || parent.column() != 0)
        return 0;
    return childCount(parent.row());
}

int GraphDiffModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant GraphDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_diff)
        return {};
    if (index.internalId() != kSectionId)
        return childData(int(index.internalId() - 1), index.row(), index.column(), role);
    const int section = index.row();
    if (role == SectionRole)
        return section;
    if (role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole || index.column() != NameColumn)
        return {};
    static const char *const titles[] = {QT_TR_NOOP("Removed (%L1)"), QT_TR_NOOP("Added (%L1)"),
        QT_TR_NOOP("Changed (%L1)"), QT_TR_NOOP("Op counts (%L1)")};
    return tr(titles[section]).arg(childCount(section));
}

QVariant GraphDiffModel::childData(int section, int row, int column, int role) const
{
    if (role == SectionRole)
        return section;
    switch (Section(section)) {
    case Removed:
    case Added: {
        const DiffNode &n = section == Removed ? m_diff->removed[size_t(row)] : m_diff->added[size_t(row)];
        if (role == NodeNameRole)
            return str(n.name);
        if (role == Qt::ToolTipRole && !n.replaced.empty()) {
            QStringList replaced;
            for (const std::string &r : n.replaced)
                replaced << str(r);
            return tr("Created by %1, replacing %2").arg(str(n.pattern), replaced.join(QLatin1String(", ")));
        }
        if (role != Qt::DisplayRole)
            return {};
        if (column == NameColumn)
            return str(n.name);
        if (column == WhatColumn)
            return n.pattern.empty() ? str(n.target) : tr("%1 (by %2)").arg(str(n.target), str(n.pattern));
        return {};
    }
    case Changed: {
        const DiffChange &c = m_diff->changed[size_t(row)];
        if (role == NodeNameRole)
            return str(c.name);
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        switch (column) {
        case NameColumn: return str(c.name);
        case WhatColumn: return str(c.field);
        case BeforeColumn: return str(c.before);
        case AfterColumn: return str(c.after);
        }
        return {};
    }
    case OpCounts: {
        const OpRow &r = m_ops[size_t(row)];
        if (role == NodeNameRole)
            return QString();
        if (role == Qt::TextAlignmentRole && column >= BeforeColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role != Qt::DisplayRole)
            return {};
        const qlonglong delta = qlonglong(r.after) - qlonglong(r.before);
        switch (column) {
        case NameColumn: return r.op;
        case WhatColumn:
            return delta == 0 ? QStringLiteral("±0")
                              : (delta > 0 ? QStringLiteral("+%1") : QStringLiteral("−%1")).arg(std::llabs(delta));
        case BeforeColumn: return r.before;
        case AfterColumn: return r.after;
        }
        return {};
    }
    case SectionCount: break;
    }
    return {};
}

QVariant GraphDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Node / op");
    case WhatColumn: return tr("Target / field / Δ");
    case BeforeColumn: return tr("Before");
    case AfterColumn: return tr("After");
    }
    return {};
}

} // namespace fxs
