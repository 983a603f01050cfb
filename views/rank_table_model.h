#pragma once
// The Profile dock's table of ranks: while a multi-rank profile runs, each rank's progress and what it is doing;
// after it, each rank's unfused and fused medians, its time in collectives against compute, and whether its fused
// outputs equal its unfused ones (and the expected outputs, when given), with a last row over the ranks (the slowest
// rank's times, as a step waits for it). It renders the merged JSON of docs/ranks.md.

#include "runtime/rank_launcher.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>
#include <vector>

namespace fxs {

struct RanksProfile;

class RankTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        StatusColumn,
        UnfusedColumn,
        FusedColumn,
        CollectiveColumn,
        ComputeColumn,
        OutputsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // numbers for the time columns (missing: -1), text otherwise
        ProgressRole, // the status column: thousandths done, -1 when the rank is not running
        RankRole, // the rank, -1 for the row over the ranks
    };

    struct Row {
        int rank = -1; // -1: over the ranks
        int permille = -1;
        QString state;
        double unfusedMs = -1, fusedMs = -1;
        double unfusedCollectiveMs = -1, fusedCollectiveMs = -1;
        double unfusedComputeMs = -1, fusedComputeMs = -1;
        std::optional<bool> outputsMatch; // fused against unfused on this rank
        double maxAbsDiff = 0;
        std::optional<bool> expectedMatch; // against the expected outputs file
        QString detail; // where the outputs differ first
    };

    explicit RankTableModel(QObject *parent = nullptr);

    // A run on `ranks` ranks starts: one row per rank, no times yet.
    void startRun(int ranks);
    // The running ranks' progress, by rank.
    void setProgress(const std::vector<RankProgress> &progress);
    // The run ended without a profile: each rank's row says where it stopped. False when no run was shown.
    bool stopRun();
    // A finished run: a row per rank and one over the ranks. nullptr empties the table.
    void setProfile(std::shared_ptr<const RanksProfile> profile);
    const std::vector<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
};

} // namespace fxs
