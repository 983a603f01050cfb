#include "profile_widget.h"

#include "profile_model.h"

#include "runtime/runtime_library.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QByteArray>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
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
} // namespace

ProfileWidget::ProfileWidget(QWidget *parent)
    : QWidget(parent), m_device(new QComboBox(this)), m_iters(new QSpinBox(this)), m_warmup(new QSpinBox(this)),
      m_symbolsLabel(new QLabel(tr("Symbols:"), this)), m_symbols(new QLineEdit(this)),
      m_plugin(new QPushButton(tr("Plugin…"), this)), m_run(new QPushButton(tr("Profile"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_export(new QToolButton(this)),
      m_exportTrace(new QAction(tr("Chrome trace (Perfetto)…"), this)), m_exportCsv(new QAction(tr("CSV…"), this)),
      m_busy(new QProgressBar(this)), m_mode(new QComboBox(this)), m_overlay(new QCheckBox(tr("Colour canvas"), this)),
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
    controls->addStretch(1);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    auto *symbols = new QHBoxLayout;
    symbols->addWidget(m_symbolsLabel);
    symbols->addWidget(m_symbols, 1);
    auto *view = new QHBoxLayout;
    view->addWidget(m_mode, 1);
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
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addLayout(view);
    layout->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, [this] {
        SymbolValues values;
        if (const QString problem = parseSymbols(values); !problem.isEmpty()) {
            setError(problem);
            m_symbols->setFocus();
            return;
        }
        Q_EMIT profileRequested(device(), m_iters->value(), m_warmup->value(), values);
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
    m_model->setProfile(report);
    updateExportButtons();
    rebuildChart();
    if (!report) {
        m_summary->setText(introText());
        return;
    }
    fitNameColumn();
    QString text = tr("<b>%1</b> · unfused <b>%2 ms</b>")
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
    for (const std::string &warning : report->warnings)
        text += QStringLiteral("<br><span style=\"color:#b26a00\">") + QString::fromStdString(warning).toHtmlEscaped()
            + QStringLiteral("</span>");
    m_summary->setText(text);
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
