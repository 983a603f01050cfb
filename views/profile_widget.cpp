#include "profile_widget.h"

#include "profile_model.h"
#include "rank_progress_delegate.h"
#include "rank_table_model.h"
#include "ranks_profile.h"

#include "runtime/rank_launcher.h"
#include "runtime/rank_profile.h"
#include "runtime/runtime_library.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QByteArray>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QSet>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace fxs {

namespace {
// A message in the summary, in the red the canvas marks a disagreeing node with.
QString errorHtml(const QString &message)
{
    return QStringLiteral("<span style=\"color:#d32f2f\">%1</span>").arg(message.toHtmlEscaped());
}

// How many ranks have a file for `pattern` ({r} for the rank), counting from 0 until one is missing.
int countRankFiles(const QString &pattern)
{
    int found = 0;
    while (found < 256) {
        auto path = rankFilePath(pattern.toStdString(), found);
        if (!path || !QFileInfo::exists(QString::fromStdString(path.value())))
            break;
        ++found;
    }
    return found;
}
} // namespace

ProfileWidget::ProfileWidget(QWidget *parent)
    : QWidget(parent), m_device(new QComboBox(this)), m_iters(new QSpinBox(this)), m_warmup(new QSpinBox(this)),
      m_symbolsLabel(new QLabel(tr("Symbols:"), this)), m_symbols(new QLineEdit(this)),
      m_plugin(new QPushButton(tr("Plugin…"), this)), m_run(new QPushButton(tr("Profile"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_export(new QToolButton(this)),
      m_exportTrace(new QAction(tr("Chrome trace (Perfetto)…"), this)), m_exportCsv(new QAction(tr("CSV…"), this)),
      m_busy(new QProgressBar(this)), m_ranks(new QSpinBox(this)), m_rankPanel(new QWidget(this)),
      m_rankTimeout(new QDoubleSpinBox(this)), m_rankGraphs(new QLineEdit(this)), m_rankInputs(new QLineEdit(this)),
      m_rankExpected(new QLineEdit(this)), m_rankOffer(new QLabel(this)), m_rankTable(new QTableView(this)),
      m_rankModel(new RankTableModel(this)), m_rankChoice(new QComboBox(this)), m_mode(new QComboBox(this)), m_overlay(new QCheckBox(tr("Colour canvas"), this)),
      m_summary(new QLabel(this)), m_table(new QTableView(this)), m_model(new ProfileModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_chart(new QChartView(this))
{
    setObjectName(QStringLiteral("profileWidget"));
    m_device->setObjectName(QStringLiteral("profileDevice"));
    m_device->setEditable(true); // cuda:1, npu:0, … as the user's machine has them
    m_device->addItem(QStringLiteral("cpu"));
    m_device->setToolTip(tr("Device to run on: cpu, cuda[:i] or npu[:i] (torch_npu's PrivateUse1); the list "
                            "holds the devices this LibTorch has, with the plugins loaded"));
    m_plugin->setObjectName(QStringLiteral("profilePlugin"));
    m_plugin->setToolTip(tr("Load device plugin: a library registering a LibTorch backend (torch_npu's "
                            "libtorch_npu.so for an Ascend NPU, or fxscope's emulated NPU), as fxscope-cli's "
                            "--device-plugin"));
    m_iters->setRange(1, 10000);
    m_iters->setValue(10);
    m_iters->setSuffix(tr(" iters"));
    m_iters->setObjectName(QStringLiteral("profileIters"));
    m_iters->setToolTip(tr("Timed iterations, after the warm-up runs; times are medians"));
    m_warmup->setObjectName(QStringLiteral("profileWarmup"));
    m_warmup->setRange(0, 1000);
    m_warmup->setValue(2);
    m_warmup->setSuffix(tr(" warm-up"));
    m_warmup->setToolTip(tr("Untimed runs before the timed iterations: allocator caches and lazy initialisation "
                            "settle"));
    m_symbols->setObjectName(QStringLiteral("profileSymbols"));
    m_symbols->setToolTip(tr("Values for the symbolic dims of the graph's inputs, as s0=128, s1=4: the inputs "
                             "generated from meta take these sizes. Where the dump says what a symbol was traced "
                             "with (torch.export hints, TORCH_TRACE create_symbol), that size is filled in"));
    m_symbolsLabel->setBuddy(m_symbols);
    m_symbolsLabel->setVisible(false);
    m_symbols->setVisible(false);
    m_run->setObjectName(QStringLiteral("profileRun"));
    m_run->setToolTip(tr("Run the graph as loaded and, after steps, the revision shown, with the same inputs"));
    m_cancel->setObjectName(QStringLiteral("profileCancel"));
    m_cancel->setEnabled(false);
    // One button with a menu: the dock shares its row with the view controls and must stay narrow enough for the
    // canvas and the pattern graph beside it.
    m_export->setText(tr("Export"));
    m_export->setObjectName(QStringLiteral("profileExport"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setMenu(new QMenu(m_export));
    m_export->menu()->addAction(m_exportTrace);
    m_export->menu()->addAction(m_exportCsv);
    m_exportTrace->setObjectName(QStringLiteral("profileExportTrace"));
    m_exportTrace->setToolTip(tr("Write the profile shown as a Chrome trace (JSON) that Perfetto and "
                                 "chrome://tracing open: each graph's median iteration, fused regions on a track of "
                                 "their own"));
    m_exportCsv->setObjectName(QStringLiteral("profileExportCsv"));
    m_exportCsv->setToolTip(tr("Write the profile shown as CSV: a row per node of each graph (median, min, max µs), "
                               "then a row per fused region"));
    m_busy->setObjectName(QStringLiteral("profileProgress"));
    m_busy->setRange(0, 1000);
    m_busy->setMaximumHeight(fontMetrics().height() + 2);
    m_busy->setFormat(QStringLiteral("%p%"));
    m_busy->setVisible(false);
    // Ranks: 1 runs in this process, as always; more run one worker process per rank on a real process group.
    m_ranks->setObjectName(QStringLiteral("profileRanks"));
    m_ranks->setRange(1, 64);
    m_ranks->setValue(1);
    m_ranks->setPrefix(tr("ranks "));
    m_ranks->setToolTip(tr("Ranks: 1 runs the graph here; N runs it on N worker processes, each a rank of a "
                           "torch.distributed process group (Gloo on the CPU) on this machine, so the graph's "
                           "collectives (all_reduce, all_gather, ...) run for real, as fxscope-cli profile --ranks N"));
    m_rankTimeout->setObjectName(QStringLiteral("profileRankTimeout"));
    m_rankTimeout->setRange(0.5, 3600);
    m_rankTimeout->setDecimals(1);
    m_rankTimeout->setValue(60);
    m_rankTimeout->setPrefix(tr("timeout "));
    m_rankTimeout->setSuffix(tr(" s"));
    m_rankTimeout->setToolTip(tr("A rank that makes no progress for this long (a collective waiting on a peer that "
                                 "never comes) ends the run, naming the rank and its node; every rank is stopped"));
    m_rankGraphs->setObjectName(QStringLiteral("profileRankGraphs"));
    m_rankGraphs->setPlaceholderText(tr("every rank: the graph shown"));
    m_rankGraphs->setToolTip(tr("Each rank's graph file, {r} standing for the rank (tp_mlp_rank{r}.json); a glob after "
                                "that must match one file (trace/dedicated_log_torch_trace_rank_{r}_*.log). The "
                                "graph with the shown graph's name (or index) is taken from it, and the steps applied "
                                "here are applied to it too. Empty: every rank runs the graph shown"));
    m_rankInputs->setObjectName(QStringLiteral("profileRankInputs"));
    m_rankInputs->setPlaceholderText(tr("generated, seed + rank"));
    m_rankInputs->setToolTip(tr("Each rank's inputs and weights (safetensors, by node name), {r} for the rank. Empty: "
                                "generated from the graph's meta with seed + rank, so shards differ"));
    m_rankExpected->setObjectName(QStringLiteral("profileRankExpected"));
    m_rankExpected->setPlaceholderText(tr("none"));
    m_rankExpected->setToolTip(tr("Each rank's expected outputs (safetensors output_0, ...: what PyTorch computed on "
                                  "that rank), {r} for the rank; the unfused outputs are checked against them"));
    m_rankOffer->setObjectName(QStringLiteral("profileRankOffer"));
    m_rankOffer->setWordWrap(true);
    m_rankOffer->setVisible(false);
    m_rankTable->setObjectName(QStringLiteral("profileRankTable"));
    m_rankTable->setModel(m_rankModel);
    m_rankTable->setItemDelegateForColumn(RankTableModel::StatusColumn, new RankProgressDelegate(m_rankTable));
    m_rankTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rankTable->verticalHeader()->hide();
    m_rankTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    // Columns follow their text: a running rank's phase while it runs, the times and outputs after.
    m_rankTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_rankTable->horizontalHeader()->setStretchLastSection(true);
    m_rankTable->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_rankTable->setVisible(false);
    m_rankChoice->setObjectName(QStringLiteral("profileRankChoice"));
    m_rankChoice->setToolTip(tr("The rank the node table, the chart and the canvas colours show; the max over ranks "
                                "gives each node its slowest rank's time, as a step waits for the slowest rank"));
    m_rankChoice->setVisible(false);
    m_mode->addItem(tr("Per node"), int(ProfileModel::Mode::Nodes));
    m_mode->addItem(tr("Per fused region"), int(ProfileModel::Mode::Regions));
    m_mode->setObjectName(QStringLiteral("profileMode"));
    m_overlay->setObjectName(QStringLiteral("profileOverlay"));
    m_overlay->setToolTip(tr("Colour the canvas's nodes by their time, with a legend"));
    m_summary->setObjectName(QStringLiteral("profileSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setText(introText());

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProfileModel::SortRole);
    m_table->setObjectName(QStringLiteral("profileTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ProfileModel::UnfusedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(ProfileModel::WhatColumn, QHeaderView::Stretch);
    m_chart->setObjectName(QStringLiteral("profileChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(240);

    // Two short rows rather than one long one: the dock's narrowest width limits the canvas beside it.
    auto *deviceRow = new QHBoxLayout;
    deviceRow->addWidget(m_device, 1);
    deviceRow->addWidget(m_plugin);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_iters);
    controls->addWidget(m_warmup);
    controls->addWidget(m_ranks);
    controls->addStretch(1);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    auto *symbols = new QHBoxLayout;
    symbols->addWidget(m_symbolsLabel);
    symbols->addWidget(m_symbols, 1);
    // The per-rank files: one line each, with a word on what {r} means.
    auto *rankFiles = new QGridLayout(m_rankPanel);
    rankFiles->setContentsMargins(0, 0, 0, 0);
    rankFiles->setVerticalSpacing(2);
    auto addRankField = [&](int row, const QString &label, QLineEdit *edit) {
        auto *name = new QLabel(label, m_rankPanel);
        name->setBuddy(edit);
        rankFiles->addWidget(name, row, 0);
        rankFiles->addWidget(edit, row, 1, 1, row == 0 ? 1 : 2);
    };
    addRankField(0, tr("Graphs:"), m_rankGraphs);
    rankFiles->addWidget(m_rankTimeout, 0, 2);
    addRankField(1, tr("Inputs:"), m_rankInputs);
    addRankField(2, tr("Expected:"), m_rankExpected);
    auto *rankHelp = new QLabel(tr("<small>{r} stands for the rank: rank 1 reads the file with 1 there. Empty fields: "
                                   "every rank runs the graph shown on inputs generated with seed + rank.</small>"),
        m_rankPanel);
    rankHelp->setWordWrap(true);
    rankHelp->setEnabled(false); // the palette's dimmed text: an explanation, not a control
    rankFiles->addWidget(rankHelp, 3, 0, 1, 3);
    rankFiles->setColumnStretch(1, 1);
    m_rankPanel->setVisible(false);
    auto *view = new QHBoxLayout;
    view->addWidget(m_mode, 1);
    view->addWidget(m_rankChoice);
    view->addWidget(m_overlay);
    view->addWidget(m_export);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(deviceRow);
    layout->addLayout(controls);
    layout->addLayout(symbols);
    layout->addWidget(m_rankPanel);
    layout->addWidget(m_rankOffer);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_rankTable);
    layout->addLayout(view);
    layout->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, [this] {
        SymbolValues values;
        if (const QString problem = parseSymbols(values); !problem.isEmpty()) {
            setError(problem);
            m_symbols->setFocus();
            return;
        }
        if (m_ranks->value() > 1)
            Q_EMIT ranksProfileRequested(device(), m_iters->value(), m_warmup->value(), values, rankRequest());
        else
            Q_EMIT profileRequested(device(), m_iters->value(), m_warmup->value(), values);
    });
    connect(m_ranks, qOverload<int>(&QSpinBox::valueChanged), this, [this] {
        updateRankFields();
        Q_EMIT settingsChanged();
    });
    connect(m_rankTimeout, qOverload<double>(&QDoubleSpinBox::valueChanged), this, &ProfileWidget::settingsChanged);
    connect(m_rankOffer, &QLabel::linkActivated, this, [this] { m_ranks->setValue(m_rankFilesFound); });
    connect(m_rankChoice, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (m_ranksProfile)
            showChosenRank();
    });
    connect(m_rankTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        // A rank's row shows that rank; the row over the ranks, the max.
        const int rank = index.data(RankTableModel::RankRole).toInt();
        if (m_ranksProfile && m_rankChoice->count())
            m_rankChoice->setCurrentIndex(m_rankChoice->findData(rank));
    });
    connect(m_device, &QComboBox::currentTextChanged, this, &ProfileWidget::settingsChanged);
    connect(m_iters, qOverload<int>(&QSpinBox::valueChanged), this, &ProfileWidget::settingsChanged);
    connect(m_warmup, qOverload<int>(&QSpinBox::valueChanged), this, &ProfileWidget::settingsChanged);
    connect(m_symbols, &QLineEdit::textEdited, this, &ProfileWidget::settingsChanged);
    connect(m_plugin, &QPushButton::clicked, this, &ProfileWidget::devicePluginRequested);
    connect(m_exportTrace, &QAction::triggered, this, [this] { Q_EMIT exportRequested(ExportFormat::ChromeTrace); });
    connect(m_exportCsv, &QAction::triggered, this, [this] { Q_EMIT exportRequested(ExportFormat::Csv); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        // LibTorch stops at its next progress report; the summary says so until it has.
        m_cancel->setEnabled(false);
        m_summary->setText(tr("Cancelling…"));
        Q_EMIT cancelRequested();
    });
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        m_model->setMode(ProfileModel::Mode(m_mode->currentData().toInt()));
        fitNameColumn();
        rebuildChart();
    });
    connect(m_overlay, &QCheckBox::toggled, this, &ProfileWidget::overlayChanged);
    connect(m_table, &QTableView::clicked, this,
        [this](const QModelIndex &index) { Q_EMIT nodeActivated(index.data(ProfileModel::NodeNameRole).toString()); });
    rebuildChart();
    updateExportButtons();
}

void ProfileWidget::setBusy(bool busy, const QString &what)
{
    m_busy->setVisible(busy);
    m_busy->setValue(0);
    m_run->setEnabled(!busy);
    m_plugin->setEnabled(!busy); // no backend registers under a running graph
    m_ranks->setEnabled(!busy);
    m_rankPanel->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    updateExportButtons();
    if (busy)
        m_summary->setText(what);
}

void ProfileWidget::updateExportButtons()
{
    // The runtime's JSON is what the exports are made from; a failed run's partial report has it too.
    const ProfileReport *report = m_model->report();
    const bool exportable = report && report->json.isObject() && !m_busy->isVisibleTo(this);
    m_export->setEnabled(exportable);
}

void ProfileWidget::setGraphSymbols(const QStringList &symbols, const SymbolValues &hints)
{
    // Keep what the user typed for the graph shown before, so a value survives switching graphs.
    m_symbolValues = symbolValues();
    m_graphSymbols = symbols;
    m_symbolHints = hints;
    showGraphSymbols();
}

void ProfileWidget::showGraphSymbols()
{
    QStringList items;
    for (const QString &name : m_graphSymbols) {
        const std::string key = name.toStdString();
        auto given = m_symbolValues.find(key);
        auto hint = m_symbolHints.find(key);
        QString value;
        if (given != m_symbolValues.end())
            value = QString::number(given->second);
        else if (hint != m_symbolHints.end())
            value = QString::number(hint->second);
        items << name + QLatin1Char('=') + value;
    }
    m_symbols->setText(items.join(QLatin1String(", ")));
    m_symbols->setPlaceholderText(
        m_graphSymbols.isEmpty() ? QString() : m_graphSymbols.first() + QLatin1String("=128"));
    m_symbolsLabel->setVisible(!m_graphSymbols.isEmpty());
    m_symbols->setVisible(!m_graphSymbols.isEmpty());
}

QString ProfileWidget::device() const
{
    return m_device->currentText().trimmed();
}

SymbolValues ProfileWidget::symbolValues() const
{
    // The field speaks for the graph's symbols: one left at its hint, or emptied, holds no value of the user's.
    SymbolValues values = m_symbolValues;
    for (const QString &name : m_graphSymbols)
        values.erase(name.toStdString());
    for (const QString &item : m_symbols->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        SymbolValues one;
        if (!parseSymbolAssignments(item.simplified().remove(QLatin1Char(' ')).toStdString(), one))
            continue; // "s0=" still to give, or a typo: nothing to keep
        for (const auto &[name, value] : one) {
            auto hint = m_symbolHints.find(name);
            if (hint == m_symbolHints.end() || hint->second != value)
                values[name] = value;
            else
                values.erase(name);
        }
    }
    return values;
}

void ProfileWidget::setSettings(const QString &device, int iters, int warmup, const SymbolValues &symbols)
{
    m_device->setCurrentText(device);
    m_iters->setValue(iters);
    m_warmup->setValue(warmup);
    for (const auto &[name, value] : symbols)
        m_symbolValues[name] = value;
    showGraphSymbols();
}

QString ProfileWidget::parseSymbols(SymbolValues &values) const
{
    QStringList missing;
    for (const QString &item : m_symbols->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString trimmed = item.simplified().remove(QLatin1Char(' '));
        if (trimmed.isEmpty())
            continue;
        // "s0=" as prefilled: a value still to give.
        if (trimmed.endsWith(QLatin1Char('=')) && trimmed.count(QLatin1Char('=')) == 1
            && parseSymbolAssignments((trimmed + QLatin1Char('0')).toStdString(), values)) {
            values.erase(trimmed.chopped(1).toStdString());
            missing << trimmed.chopped(1);
            continue;
        }
        if (!parseSymbolAssignments(trimmed.toStdString(), values))
            return tr("Symbols: expected SYMBOL=N (a name and a non-negative integer), found '%1'").arg(trimmed);
    }
    for (const QString &name : m_graphSymbols)
        if (!values.count(name.toStdString()) && !missing.contains(name))
            missing << name;
    if (!missing.isEmpty())
        return tr("Symbols: give %1 a value (e.g. %2=128); the graph's inputs are sized by %3")
            .arg(missing.join(QLatin1String(", ")), missing.first(), missing.size() == 1 ? tr("it") : tr("them"));
    return {};
}

void ProfileWidget::setFailure(const QString &message, std::shared_ptr<const ProfileReport> partial)
{
    setBusy(false);
    stopRanks();
    m_model->setProfile(partial);
    updateExportButtons();
    fitNameColumn();
    rebuildChart();
    QString text = errorHtml(message);
    if (partial) {
        const std::pair<QString, const GraphProfile *> sides[]
            = {{tr("unfused"), &partial->unfused}, {tr("fused"), partial->fused ? &*partial->fused : nullptr}};
        for (const auto &[side, g] : sides)
            if (g && !g->failedNode.empty())
                text += tr("<br>The %1 graph ran %L2 nodes before <b>%3</b> failed; their times are below.")
                            .arg(side)
                            .arg(g->nodes.size())
                            .arg(QString::fromStdString(g->failedNode).toHtmlEscaped());
    }
    m_summary->setText(text);
}

void ProfileWidget::setDevices(const RuntimeDevices &devices)
{
    QStringList names;
    QStringList details;
    for (const DeviceInfo &d : devices.devices) {
        if (!d.available)
            continue;
        QString name = QString::fromStdString(d.name);
        if (name.startsWith(QLatin1String("privateuseone")))
            name.replace(0, int(qstrlen("privateuseone")), QStringLiteral("npu"));
        names << name;
        details << QStringLiteral("%1 (%2) %3")
                       .arg(name, QString::fromStdString(d.backend), QString::fromStdString(d.detail))
                       .trimmed();
    }
    QString current = m_device->currentText().trimmed();
    // A device a plugin just added is what the user loaded it for.
    for (const QString &name : names)
        if (!m_knownDevices.isEmpty() && !m_knownDevices.contains(name)) {
            current = name;
            break;
        }
    m_knownDevices = names;
    m_device->clear();
    for (int i = 0; i < names.size(); ++i) {
        m_device->addItem(names[i]);
        m_device->setItemData(i, details[i], Qt::ToolTipRole);
    }
    // What the user typed stays, listed or not (cuda:1 before it is attached).
    m_device->setCurrentText(current.isEmpty() ? QStringLiteral("cpu") : current);
}

void ProfileWidget::setProgress(int permille)
{
    m_busy->setValue(std::clamp(permille, 0, 1000));
}

void ProfileWidget::setError(const QString &message)
{
    setBusy(false);
    m_summary->setText(errorHtml(message));
}

void ProfileWidget::setProfile(std::shared_ptr<const ProfileReport> report)
{
    setBusy(false);
    m_ranksProfile.reset();
    m_rankModel->setProfile(nullptr);
    m_rankTable->setVisible(false);
    m_rankChoice->setVisible(false);
    m_model->setProfile(report);
    updateExportButtons();
    rebuildChart();
    if (!report) {
        m_summary->setText(introText());
        return;
    }
    fitNameColumn();
    showReport(report.get(), {});
}

void ProfileWidget::showReport(const ProfileReport *report, const QString &header)
{
    QString text = header.isEmpty() ? QString() : header + QStringLiteral("<br>");
    text += tr("<b>%1</b> · unfused <b>%2 ms</b>")
                       .arg(QString::fromStdString(report->device).toHtmlEscaped())
                       .arg(report->unfused.medianMs, 0, 'f', 3);
    if (report->fused) {
        text += tr(" · fused <b>%1 ms</b> · speedup <b>%2×</b>")
                    .arg(report->fused->medianMs, 0, 'f', 3)
                    .arg(report->speedup, 0, 'f', 2);
        text += report->outputsMatch ? tr(" · <span style=\"color:#2e9d4a\">outputs match</span> (max |Δ| %1)")
                                           .arg(report->maxAbsDiff, 0, 'g', 3)
                                     : tr(" · <span style=\"color:#d32f2f\">outputs differ</span> (max |Δ| %1)")
                                           .arg(report->maxAbsDiff, 0, 'g', 3);
        int onReference = 0;
        for (const NodeProfile &n : report->fused->nodes)
            onReference += n.referenceKernel ? 1 : 0;
        if (onReference)
            text += (onReference == 1 ? tr("<br>1 fused node ran on fxscope's CPU reference kernel")
                                      : tr("<br>%1 fused nodes ran on fxscope's CPU reference kernels").arg(onReference))
                + tr(": outputs checked, times not the device's");
        for (const std::string *line : {&report->outputsDetail, &report->outputsNonFinite})
            if (!line->empty())
                text += QStringLiteral("<br>") + QString::fromStdString(*line).toHtmlEscaped();
    } else {
        text += tr(" · apply steps to compare a fused graph");
    }
    QSet<QString> onStandIn; // nodes of either graph whose op this torch lacks, run through an equivalent
    for (const GraphProfile *g : {&report->unfused, report->fused ? &*report->fused : nullptr})
        for (size_t k = 0; g && k < g->nodes.size(); ++k)
            if (!g->nodes[k].standIn.empty())
                onStandIn.insert(QString::fromStdString(g->nodes[k].name));
    if (!onStandIn.isEmpty())
        text += (onStandIn.size() == 1 ? tr("<br>1 node ran on a stand-in for an op")
                                       : tr("<br>%1 nodes ran on stand-ins for ops").arg(onStandIn.size()))
            + tr(" this torch lacks here (marked below): outputs checked, times not the original ops'");
    for (const std::string &warning : report->warnings)
        text += QStringLiteral("<br><span style=\"color:#b26a00\">") + QString::fromStdString(warning).toHtmlEscaped()
            + QStringLiteral("</span>");
    m_summary->setText(text);
}

void ProfileWidget::startRanks(int ranks)
{
    m_ranksProfile.reset();
    m_rankChoice->setVisible(false);
    m_rankModel->startRun(ranks);
    m_rankTable->setVisible(true);
    fitRankTable();
    m_summary->setText(tr("%1<br>On %2 ranks, a worker process each: Cancel stops them all.")
                           .arg(m_summary->text())
                           .arg(ranks));
}

void ProfileWidget::setRanksProgress(const std::vector<RankProgress> &progress)
{
    m_rankModel->setProgress(progress);
    fitRankTable();
}

void ProfileWidget::stopRanks()
{
    // A run on ranks keeps its table, saying where each rank was; a table of an older profile goes.
    if (!m_rankModel->stopRun())
        m_rankTable->setVisible(false);
    m_ranksProfile.reset();
    m_rankChoice->setVisible(false);
}

void ProfileWidget::setRanksProfile(std::shared_ptr<const RanksProfile> profile)
{
    if (!profile) {
        setProfile(nullptr);
        return;
    }
    setBusy(false);
    m_ranksProfile = std::move(profile);
    m_rankModel->setProfile(m_ranksProfile);
    m_rankTable->setVisible(true);
    fitRankTable();
    // The choice made for the last run stays where this run has that rank.
    const int previous = m_rankChoice->count() ? m_rankChoice->currentData().toInt() : -1;
    {
        const QSignalBlocker quiet(m_rankChoice);
        m_rankChoice->clear();
        m_rankChoice->addItem(tr("max over ranks"), -1);
        for (size_t r = 0; r < m_ranksProfile->ranks.size(); ++r)
            m_rankChoice->addItem(tr("rank %1").arg(r), int(r));
        m_rankChoice->setCurrentIndex(std::max(0, m_rankChoice->findData(previous)));
    }
    m_rankChoice->setVisible(true);
    showChosenRank();
}

int ProfileWidget::shownRank() const
{
    return m_ranksProfile && m_rankChoice->count() ? m_rankChoice->currentData().toInt() : -1;
}

void ProfileWidget::showChosenRank()
{
    const int rank = shownRank();
    const auto &report = rank < 0 || size_t(rank) >= m_ranksProfile->ranks.size() ? m_ranksProfile->overRanks
                                                                                    : m_ranksProfile->ranks[size_t(rank)];
    m_model->setProfile(report);
    updateExportButtons();
    fitNameColumn();
    rebuildChart();
    const Json &merged = m_ranksProfile->json;
    const QString header = tr("<b>%1 ranks</b> on %2 · showing %3")
                               .arg(m_ranksProfile->ranks.size())
                               .arg(QString::fromStdString(merged["backend"].toString()).toHtmlEscaped(),
                                   rank < 0 ? tr("<b>the max over ranks</b> (each node's slowest rank; outputs "
                                                 "compared on every rank)")
                                            : tr("<b>rank %1</b>").arg(rank));
    if (report)
        showReport(report.get(), header);
    else
        m_summary->setText(header);
    Q_EMIT overlayChanged(m_overlay->isChecked()); // the canvas colours follow the rank shown
}

RankRunRequest ProfileWidget::rankRequest() const
{
    RankRunRequest request;
    request.ranks = m_ranks->value();
    request.timeoutSeconds = m_rankTimeout->value();
    request.graphs = m_rankGraphs->text().trimmed();
    request.inputs = m_rankInputs->text().trimmed();
    request.expected = m_rankExpected->text().trimmed();
    return request;
}

void ProfileWidget::updateRankFields()
{
    m_rankPanel->setVisible(m_ranks->value() > 1);
    m_rankOffer->setVisible(m_rankFilesFound > 1 && m_ranks->value() == 1);
}

void ProfileWidget::fitRankTable()
{
    // As tall as its rows, up to eight: the node table below gets the rest.
    const int rows = std::min(m_rankModel->rowCount(), 8);
    // A horizontal scroll bar, when the columns are wider than the dock, must not hide a row.
    const bool scrolls = m_rankTable->horizontalHeader()->length() > m_rankTable->width() - 2 * m_rankTable->frameWidth();
    m_rankTable->setFixedHeight(m_rankTable->horizontalHeader()->sizeHint().height()
        + rows * m_rankTable->verticalHeader()->defaultSectionSize() + 2 * m_rankTable->frameWidth() + 2
        + (scrolls ? style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0));
}

void ProfileWidget::suggestRankFiles(const QString &openedPath)
{
    // tp_mlp_rank0.json, dedicated_log_torch_trace_rank_0_ab12.log: the rank's number right after "rank".
    static const QRegularExpression rankZero(
        QStringLiteral("(rank[_-]?)0(?!\\d)"), QRegularExpression::CaseInsensitiveOption);
    const QFileInfo info(openedPath);
    QString fields[3];
    int found = 0;
    const QRegularExpressionMatch match = rankZero.match(info.fileName());
    if (!openedPath.startsWith(QLatin1String(":/")) && match.hasMatch()) {
        const QString prefix = match.captured(1) + QStringLiteral("{r}");
        QString name = info.fileName().replace(match.capturedStart(), match.capturedLength(), prefix);
        QString pattern = info.dir().filePath(name);
        found = countRankFiles(pattern);
        // torch names each rank's log with a suffix of its own: the part after the rank becomes a glob.
        const int after = int(match.capturedStart() + prefix.size());
        const int dot = name.indexOf(QLatin1Char('.'), after);
        if (found < 2 && dot > after) {
            const QString globbed = info.dir().filePath(name.left(after) + QLatin1Char('*') + name.mid(dot));
            if (const int n = countRankFiles(globbed); n >= 2) {
                pattern = globbed;
                found = n;
            }
        }
        if (found >= 2) {
            fields[0] = pattern;
            // The capture's companions: STEM.safetensors (inputs, weights) and STEM.outputs.safetensors.
            const QString stem = info.completeBaseName();
            const QString stemR = QString(stem).replace(match.capturedStart(), match.capturedLength(), prefix);
            if (QFileInfo::exists(info.dir().filePath(stem + QLatin1String(".safetensors"))))
                fields[1] = info.dir().filePath(stemR + QLatin1String(".safetensors"));
            if (QFileInfo::exists(info.dir().filePath(stem + QLatin1String(".outputs.safetensors"))))
                fields[2] = info.dir().filePath(stemR + QLatin1String(".outputs.safetensors"));
        }
    }
    m_rankFilesFound = found >= 2 ? found : 0;
    // What the user typed stays; what the last suggestion put there is replaced.
    QLineEdit *edits[3] = {m_rankGraphs, m_rankInputs, m_rankExpected};
    for (int i = 0; i < 3; ++i) {
        if (edits[i]->text().isEmpty() || edits[i]->text() == m_suggested[i])
            edits[i]->setText(fields[i]);
        m_suggested[i] = fields[i];
    }
    if (m_rankFilesFound)
        m_rankOffer->setText(tr("This graph is rank 0 of %1 per-rank graphs (%2): <a href=\"ranks\">run all %1 "
                                "ranks</a>, each on its own graph and inputs ({r} in the Ranks fields stands for the "
                                "rank).")
                                 .arg(m_rankFilesFound)
                                 .arg(QFileInfo(fields[0]).fileName().toHtmlEscaped()));
    updateRankFields();
}

QString ProfileWidget::introText()
{
    return tr("Profile the graph on a device: as loaded, and fused when steps were applied.");
}

void ProfileWidget::fitNameColumn()
{
    // Region names join their nodes: as wide as they need, up to 40 % of the table.
    m_table->resizeColumnToContents(ProfileModel::NameColumn);
    const int most = std::max(80, m_table->viewport()->width() * 2 / 5);
    if (m_table->columnWidth(ProfileModel::NameColumn) > most)
        m_table->setColumnWidth(ProfileModel::NameColumn, most);
}

QStringList ProfileWidget::chartCategories() const
{
    return m_categories;
}

void ProfileWidget::rebuildChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setBackgroundRoundness(0);
    chart->setTheme(
        palette().color(QPalette::Window).lightness() < 128 ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_categories.clear();
    const auto &rows = m_model->rows();
    if (!rows.empty()) {
        // The slowest rows, by unfused time where they ran unfused.
        std::vector<size_t> order(rows.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        auto key = [&](size_t i) { return std::max(rows[i].unfusedUs, rows[i].fusedUs); };
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) > key(b); });
        order.resize(std::min(order.size(), size_t(kChartRows)));
        std::reverse(order.begin(), order.end()); // horizontal bars draw bottom-up: the slowest on top
        auto *unfused = new QBarSet(tr("unfused"));
        auto *fused = new QBarSet(tr("fused"));
        double most = 0;
        for (size_t i : order)
            most = std::max(most, key(i));
        // Milliseconds once bars reach 10 ms: six-digit tick labels are hard to read.
        const bool inMs = most >= 10000;
        const double scale = inMs ? 1e-3 : 1.0;
        most *= scale;
        for (size_t i : order) {
            *unfused << std::max(0.0, rows[i].unfusedUs) * scale;
            *fused << std::max(0.0, rows[i].fusedUs) * scale;
            m_categories.prepend(rows[i].name);
        }
        auto *series = new QHorizontalBarSeries;
        series->append(unfused);
        if (m_model->report() && m_model->report()->fused)
            series->append(fused);
        else
            delete fused;
        chart->addSeries(series);
        auto *names = new QBarCategoryAxis;
        QFont small = font();
        small.setPixelSize(10); // node names must fit one bar's height, or Qt Charts elides them to "…"
        names->setLabelsFont(small);
        QStringList bottomUp = m_categories;
        std::reverse(bottomUp.begin(), bottomUp.end());
        names->append(bottomUp);
        chart->addAxis(names, Qt::AlignLeft);
        series->attachAxis(names);
        auto *time = new QValueAxis;
        time->setLabelsFont(small);
        time->setTickCount(4);
        time->setRange(0, most * 1.05);
        time->applyNiceNumbers(); // ticks at round values
        time->setTitleText(inMs ? tr("ms (median)") : tr("µs (median)"));
        time->setLabelFormat(QStringLiteral("%g"));
        chart->addAxis(time, Qt::AlignBottom);
        series->attachAxis(time);
    } else {
        chart->setTitle(tr("No profile yet"));
    }
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

} // namespace fxs
