#pragma once
// The Profile dock's content: run controls (device, iterations, run, cancel, a progress bar), the summary (unfused and
// fused totals, speedup, outputs compared), the per-node or per-region table and a Qt Charts bar chart of the
// slowest rows, unfused against fused. With Ranks above 1 it asks for a run on that many ranks (docs/ranks.md) and
// shows a table of ranks (progress, then each rank's times and outputs) and a rank chooser: the node table, chart
// and canvas overlay show the rank chosen, or each node's slowest rank. It shows the profile it is given and reports
// the user's requests.

#include "rank_run_request.h"
#include "runtime/symbol_values.h"

#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QToolButton;
class QAction;

class QChartView;

namespace fxs {

struct ProfileReport;
struct RankProgress;
struct RanksProfile;
struct RuntimeDevices;
class ProfileModel;
class RankTableModel;

class ProfileWidget : public QWidget {
    Q_OBJECT
public:
    // What "Export trace…" and "Export CSV…" ask for: profile_export.h's two forms of the report shown.
    enum class ExportFormat { ChromeTrace, Csv };
    Q_ENUM(ExportFormat)

    explicit ProfileWidget(QWidget *parent = nullptr);

    // A profile on one rank; the rank table and chooser go.
    void setProfile(std::shared_ptr<const ProfileReport> report);
    // A run on `ranks` ranks started: the rank table shows each rank's progress (setRanksProgress) until it ends.
    void startRanks(int ranks);
    void setRanksProgress(const std::vector<RankProgress> &progress);
    // The run on ranks ended without a profile (failed or cancelled): the table says where each rank stopped.
    void stopRanks();
    // A profile on several ranks: the rank table, and the rank chosen (or the max over ranks) in the node table, the
    // chart and the canvas overlay.
    void setRanksProfile(std::shared_ptr<const RanksProfile> profile);
    const RanksProfile *ranksProfile() const { return m_ranksProfile.get(); }
    // The rank the node table and the overlay show: -1 for the max over ranks.
    int shownRank() const;
    // The file just opened: where its name holds rank0 (or rank_0, rank-0) and files for rank 1 on sit beside it,
    // the Ranks fields offer them with {r} for the rank, and the dock says how many it found.
    void suggestRankFiles(const QString &openedPath);
    // Ranks, timeout and the per-rank files as the fields hold them.
    RankRunRequest rankRequest() const;
    void setBusy(bool busy, const QString &what = {});
    // The running profile's progress, in thousandths.
    void setProgress(int permille);
    void setError(const QString &message);
    // A run that failed part-way: the error, and the nodes that ran before the failing one (partial may be null).
    void setFailure(const QString &message, std::shared_ptr<const ProfileReport> partial);
    // The devices LibTorch can run on: the available ones fill the device list (PrivateUse1 shown as npu:i, as
    // --device takes it); one that a plugin just added is selected.
    void setDevices(const RuntimeDevices &devices);
    // The symbols the graph's inputs use: the Symbols field shows them, each with the value the user gave before,
    // else the dump's hint (the size it was traced with), else none; Run asks for a value for each. Empty hides the
    // field.
    void setGraphSymbols(const QStringList &symbols, const SymbolValues &hints = {});
    // The field's values, or the message saying what is wrong with it (empty when valid).
    QString parseSymbols(SymbolValues &values) const;

    // What a session keeps: the device, iterations, warm-up runs and the symbol values the user gave (for every
    // graph shown, not the hints they left as they were). settingsChanged reports a change the user made.
    QString device() const;
    SymbolValues symbolValues() const;
    void setSettings(const QString &device, int iters, int warmup, const SymbolValues &symbols);
    // Rows shown in the chart (the slowest by unfused time, else fused).
    static constexpr int kChartRows = 10;

    ProfileModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    QComboBox *deviceBox() const { return m_device; }
    QComboBox *modeBox() const { return m_mode; }
    QSpinBox *itersBox() const { return m_iters; }
    QSpinBox *warmupBox() const { return m_warmup; }
    QLineEdit *symbolsEdit() const { return m_symbols; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *pluginButton() const { return m_plugin; }
    QPushButton *cancelButton() const { return m_cancel; }
    QToolButton *exportButton() const { return m_export; }
    QProgressBar *progressBar() const { return m_busy; }
    QCheckBox *overlayBox() const { return m_overlay; }
    QSpinBox *ranksBox() const { return m_ranks; }
    QDoubleSpinBox *rankTimeoutBox() const { return m_rankTimeout; }
    QLineEdit *rankGraphsEdit() const { return m_rankGraphs; }
    QLineEdit *rankInputsEdit() const { return m_rankInputs; }
    QLineEdit *rankExpectedEdit() const { return m_rankExpected; }
    QLabel *rankOfferLabel() const { return m_rankOffer; }
    QTableView *rankTable() const { return m_rankTable; }
    RankTableModel *rankModel() const { return m_rankModel; }
    QComboBox *rankChoiceBox() const { return m_rankChoice; }
    QLabel *summaryLabel() const { return m_summary; }
    QChartView *chartView() const { return m_chart; }
    // The labels of the chart's categories, top to bottom; for tests.
    QStringList chartCategories() const;

Q_SIGNALS:
    void profileRequested(const QString &device, int iters, int warmup, const fxs::SymbolValues &symbols);
    // Profile with Ranks above 1.
    void ranksProfileRequested(const QString &device, int iters, int warmup, const fxs::SymbolValues &symbols,
        const fxs::RankRunRequest &request);
    void cancelRequested();
    // "Load device plugin…": the window asks for the library.
    void devicePluginRequested();
    // "Export trace…" or "Export CSV…" of the report shown: the window asks where.
    void exportRequested(fxs::ProfileWidget::ExportFormat format);
    void nodeActivated(const QString &name);
    // The canvas overlay: per node, its time in µs (unfused where it ran there, else fused); empty clears. Also
    // when another rank is chosen: the overlay follows the report shown.
    void overlayChanged(bool shown);
    void settingsChanged();

private:
    static QString introText();
    void rebuildChart();
    void fitNameColumn();
    void updateExportButtons();
    void showGraphSymbols();
    void showReport(const ProfileReport *report, const QString &header);
    void showChosenRank();
    void updateRankFields();
    void fitRankTable();

    QComboBox *m_device;
    QSpinBox *m_iters;
    QSpinBox *m_warmup;
    QLabel *m_symbolsLabel;
    QLineEdit *m_symbols;
    QStringList m_graphSymbols;
    SymbolValues m_symbolHints; // the graph's, from its dump
    SymbolValues m_symbolValues; // what the user gave, by symbol, across graphs
    QPushButton *m_plugin;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QToolButton *m_export; // its menu: trace, CSV
    QAction *m_exportTrace;
    QAction *m_exportCsv;
    QProgressBar *m_busy;
    QSpinBox *m_ranks;
    QWidget *m_rankPanel; // the per-rank files and timeout: shown with Ranks above 1
    QDoubleSpinBox *m_rankTimeout;
    QLineEdit *m_rankGraphs;
    QLineEdit *m_rankInputs;
    QLineEdit *m_rankExpected;
    QLabel *m_rankOffer; // per-rank files found beside the file opened, while Ranks is 1
    int m_rankFilesFound = 0;
    QString m_suggested[3]; // what suggestRankFiles put in the three fields: replaced by the next suggestion
    QTableView *m_rankTable;
    RankTableModel *m_rankModel;
    QComboBox *m_rankChoice;
    std::shared_ptr<const RanksProfile> m_ranksProfile;
    QComboBox *m_mode;
    QCheckBox *m_overlay;
    QLabel *m_summary;
    QTableView *m_table;
    ProfileModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QChartView *m_chart;
    QStringList m_categories;
    QStringList m_knownDevices; // from the last setDevices
};

} // namespace fxs
