#include "profile_model.h"

#include "rewrite/graph_diff.h"
#include "runtime/runtime_library.h"

#include <QLocale>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fxs {

ProfileModel::ProfileModel(QObject *parent) : QAbstractTableModel(parent) { }

void ProfileModel::setProfile(std::shared_ptr<const ProfileReport> report, std::shared_ptr<const GraphDiff> diff)
{
    beginResetModel();
    m_report = std::move(report);
    m_diff = std::move(diff);
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
        for (const NodeProfile &n : m_report->unfused.nodes) {
            auto f = fused.find(n.name);
            m_rows.push_back({QString::fromStdString(n.name), QString::fromStdString(n.target), n.medianUs,
                f == fused.end() ? -1 : f->second, {}, {}});
        }
        if (m_report->fused)
            for (const NodeProfile &n : m_report->fused->nodes)
                if (!unfused.count(n.name))
                    m_rows.push_back(
                        {QString::fromStdString(n.name), QString::fromStdString(n.target), -1, n.medianUs, {}, {}});
        return;
    }
    // Regions: what each fusion put in place of what it replaced. The nodes one fusion added share their
    // provenance (the same replaced nodes): they make one region, timed together.
    if (!m_diff)
        return;
    std::map<std::vector<std::string>, size_t> regionOf;
    for (const DiffNode &added : m_diff->added) {
        if (added.replaced.empty())
            continue;
        std::vector<std::string> key = added.replaced;
        std::sort(key.begin(), key.end());
        auto [it, fresh] = regionOf.emplace(key, m_rows.size());
        if (fresh) {
            Row row;
            row.what = QString::fromStdString(added.pattern.empty() ? added.target : added.pattern);
            double sum = 0;
            bool any = false;
            for (const std::string &r : added.replaced) {
                row.replaced << QString::fromStdString(r);
                if (auto u = unfused.find(r); u != unfused.end()) {
                    sum += u->second;
                    any = true;
                }
            }
            row.unfusedUs = any ? sum : -1;
            m_rows.push_back(std::move(row));
        }
        Row &row = m_rows[it->second];
        // Named after the last node added (the one standing for the pattern's output), the others before it.
        row.name = row.name.isEmpty() ? QString::fromStdString(added.name)
                                      : row.name + QLatin1String(" + ") + QString::fromStdString(added.name);
        row.nodeName = QString::fromStdString(added.name);
        if (auto f = fused.find(added.name); f != fused.end())
            row.fusedUs = (row.fusedUs < 0 ? 0 : row.fusedUs) + f->second;
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
    const double speedup = r.unfusedUs > 0 && r.fusedUs > 0 ? r.unfusedUs / r.fusedUs : -1;
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
    if (role == Qt::ToolTipRole && !r.replaced.isEmpty())
        return tr("Replaced %1").arg(r.replaced.join(QLatin1String(", ")));
    if (role != Qt::DisplayRole)
        return {};
    auto us = [](double v) { return v < 0 ? QStringLiteral("—") : QLocale().toString(v, 'f', v < 10 ? 2 : 1); };
    switch (index.column()) {
    case NameColumn: return r.name;
    case WhatColumn:
        return r.replaced.isEmpty() ? r.what : tr("%1 (replaced %L2 nodes)").arg(r.what).arg(r.replaced.size());
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
