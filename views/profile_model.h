#pragma once
// A profile as a table, unfused against fused: one row per node (by name: the nodes both graphs share, then the
// fused graph's own), or one row per fused region (the nodes one fusion added against the nodes they replaced, as
// the runtime timed them). It renders the ProfileReport it is given; sorting by the time columns sorts numerically.

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fxs {

struct ProfileReport;

class ProfileModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Mode { Nodes, Regions };
    enum Column { NameColumn, WhatColumn, UnfusedColumn, FusedColumn, SpeedupColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, // numbers for the time columns (missing: -1), text otherwise
        NodeNameRole, // the node to select: the fused node for regions
    };

    struct Row {
        QString name;
        QString what; // target, or the pattern for a region
        double unfusedUs = -1; // -1: the node is not in that graph
        double fusedUs = -1;
        QStringList replaced; // regions: the unfused nodes
        QString nodeName; // regions: the node to select (the last one the fusion added)
        double speedup = -1; // -1: not both times, or an incomplete region
        bool complete = true; // regions: false when some origin nodes are not in the unfused graph
        bool referenceKernel = false; // ran on fxscope's CPU stand-in for a device op: the time is not the device's
        QString standIn; // an op this torch lacks ran as this equivalent: outputs checked, the time is not the op's
    };

    explicit ProfileModel(QObject *parent = nullptr);

    void setProfile(std::shared_ptr<const ProfileReport> report);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    const ProfileReport *report() const { return m_report.get(); }
    const std::vector<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    std::shared_ptr<const ProfileReport> m_report;
    Mode m_mode = Mode::Nodes;
    std::vector<Row> m_rows;
};

} // namespace fxs
