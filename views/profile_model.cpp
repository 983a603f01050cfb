#include "profile_model.h"

#include "runtime/runtime_library.h"

#include <QLocale>

#include <algorithm>
#include <unordered_map>

namespace fxs {

ProfileModel::ProfileModel(QObject *parent) : QAbstractTableModel(parent) { }

void ProfileModel::setProfile(std::shared_ptr<const ProfileReport> report)
{
    beginResetModel();
    m_report = std::move(report);
    rebuild();
    endResetModel();
}

void ProfileModel::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    beginResetModel();
    m_mode = mode;
    rebuild();
    endResetModel();
}

void ProfileModel::rebuild()
{
    m_rows.clear();
    if (!m_report)
        return;
    std::unordered_map<std::string, double> unfused, fused;
    for (const NodeProfile &n : m_report->unfused.nodes)
        unfused[n.name] = n.medianUs;
    if (m_report->fused)
        for (const NodeProfile &n : m_report->fused->nodes)
            fused[n.name] = n.medianUs;

    if (m_mode == Mode::Nodes) {
        auto add = [this](const NodeProfile &n, double unfusedUs, double fusedUs) {
            Row row;
            row.name = QString::fromStdString(n.name);
            row.what = QString::fromStdString(n.target);
            row.unfusedUs = unfusedUs;
            row.fusedUs = fusedUs;
            row.speedup = unfusedUs > 0 && fusedUs > 0 ? unfusedUs / fusedUs : -1;
            row.referenceKernel = n.referenceKernel;
            row.standIn = QString::fromStdString(n.standIn);
            m_rows.push_back(std::move(row));
        };
        for (const NodeProfile &n : m_report->unfused.nodes) {
            auto f = fused.find(n.name);
            add(n, n.medianUs, f == fused.end() ? -1 : f->second);
        }
        if (m_report->fused)
            for (const NodeProfile &n : m_report->fused->nodes)
                if (!unfused.count(n.name))
                    add(n, -1, n.medianUs);
        return;
    }
    // Regions as the runtime timed them; the GUI only names them after their nodes for the canvas.
    std::unordered_map<std::string, const std::string *> fusedTarget;
    if (m_report->fused)
        for (const NodeProfile &n : m_report->fused->nodes)
            fusedTarget[n.name] = &n.target;
    for (const RegionProfile &region : m_report->regions) {
        Row row;
        QStringList nodes;
        for (const std::string &n : region.nodes) {
            nodes << QString::fromStdString(n);
            // The node selected stands for the fusion: its last op, not a getitem unpacking its result.
            auto target = fusedTarget.find(n);
            if (row.nodeName.isEmpty() || target == fusedTarget.end() || *target->second != "operator.getitem")
                row.nodeName = nodes.last();
        }
        for (const std::string &r : region.origin)
            row.replaced << QString::fromStdString(r);
        row.name = nodes.join(QLatin1String(" + "));
        row.what = QString::fromStdString(region.pattern);
        row.unfusedUs = region.unfusedUs;
        row.fusedUs = region.fusedUs;
        row.complete = region.complete;
        row.referenceKernel = region.referenceKernel;
        row.speedup = region.complete && region.speedup > 0 ? region.speedup : -1;
        m_rows.push_back(std::move(row));
    }
}

int ProfileModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProfileModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    const double speedup = r.speedup;
    if (role == NodeNameRole)
        return r.nodeName.isEmpty() ? r.name : r.nodeName;
    if (role == SortRole) {
        switch (index.column()) {
        case UnfusedColumn: return r.unfusedUs;
        case FusedColumn: return r.fusedUs;
        case SpeedupColumn: return speedup;
        case WhatColumn: return r.what;
        default: return r.name;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= UnfusedColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && r.referenceKernel)
        return tr("Ran on fxscope's CPU reference kernel (no device plugin defines this op): its outputs are checked, "
                  "its time is not the device's");
    if (role == Qt::ToolTipRole && !r.standIn.isEmpty())
        return tr("This torch lacks %1 here, so it ran as %2: its outputs are the op's and are checked, its time is "
                  "not the original kernel's")
            .arg(r.what, r.standIn);
    if (role == Qt::ToolTipRole && r.replaced.isEmpty() && index.column() == WhatColumn)
        return r.what;
    if (role == Qt::ToolTipRole && !r.replaced.isEmpty())
        return r.complete ? tr("Replaced %1").arg(r.replaced.join(QLatin1String(", ")))
                          : tr("Replaced %1; some of them are not in the unfused graph, so the unfused time leaves "
                               "them out and no speedup is given")
                                .arg(r.replaced.join(QLatin1String(", ")));
    if (role != Qt::DisplayRole)
        return {};
    auto us = [](double v) { return v < 0 ? QStringLiteral("—") : QLocale().toString(v, 'f', v < 10 ? 2 : 1); };
    switch (index.column()) {
    case NameColumn: return r.name;
    case WhatColumn: {
        // aten.mm.default: the overload kept, the "torch.ops." every aten op shares left to the tooltip.
        QString what = r.replaced.isEmpty()
            ? (r.what.startsWith(QLatin1String("torch.ops.")) ? r.what.mid(10) : r.what)
            : r.complete
            ? tr("%1 (replaced %L2 nodes)").arg(r.what).arg(r.replaced.size())
            : tr("%1 (replaced %L2 nodes, some not in the unfused graph)").arg(r.what).arg(r.replaced.size());
        if (!r.standIn.isEmpty())
            return tr("%1 · stand-in").arg(what);
        return r.referenceKernel ? tr("%1 · reference kernel").arg(what) : what;
    }
    case UnfusedColumn: return us(r.unfusedUs);
    case FusedColumn: return us(r.fusedUs);
    case SpeedupColumn: return speedup < 0 ? QStringLiteral("—") : QStringLiteral("%1×").arg(speedup, 0, 'f', 2);
    }
    return {};
}

QVariant ProfileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return m_mode == Mode::Nodes ? tr("Node") : tr("Fused node");
    case WhatColumn: return m_mode == Mode::Nodes ? tr("Target") : tr("Pattern");
    case UnfusedColumn: return tr("Unfused µs");
    case FusedColumn: return tr("Fused µs");
    case SpeedupColumn: return tr("Speedup");
    }
    return {};
}

} // namespace fxs
