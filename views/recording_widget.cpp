#include "recording_widget.h"

#include "compare/fusion_matrix.h"
#include "ir/graph_file.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fxs {

namespace {

constexpr int kStreamRole = Qt::UserRole + 1; // the stream a step row belongs to
constexpr int kStepRole = Qt::UserRole + 2; // the step's index in its stream, -1 on other rows
enum Column { StepColumn, NodesColumn, ReplacedColumn, TriedColumn, TimeColumn, ColumnCount };

QString number(int64_t n)
{
    return QString::number(n);
}

// The pattern set of Inductor's a recorded pattern pass comes from (its module attribute), as the torch host loads it.
QString inductorSetOf(const std::string &identity)
{
    static const std::pair<const char *, const char *> sets[] = {
        {"torch._inductor.fx_passes.joint_graph.", "inductor:joint_graph"},
        {"torch._inductor.fx_passes.post_grad.", "inductor:post_grad"},
        {"torch._inductor.fx_passes.freezing_patterns.", "inductor:freezing_patterns"},
        {"torch._inductor.fx_passes.fuse_attention.", "inductor:fuse_attention"},
        {"torch._inductor.fx_passes.pad_mm.", "inductor:pad_mm"},
        {"torch._inductor.fx_passes.misc_patterns.", "inductor:misc_patterns"}};
    for (const auto &[module, set] : sets)
        if (identity.rfind(module, 0) == 0)
            return QString::fromLatin1(set);
    return {};
}

// A stream's graph after its last step: what Inductor lowered (or the joint graph the partitioner split).
int finalGraph(const RecordedStream &stream)
{
    return stream.steps.empty() ? -1 : stream.steps.back().graph;
}

} // namespace

RecordingWidget::RecordingWidget(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_passes(new QTreeWidget(this)), m_matrix(new QTableWidget(this)),
      m_diffButton(new QPushButton(tr("Diff this pass"), this)),
      m_rerunButton(new QPushButton(tr("Re-run with torch"), this))
{
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Open a recording (python -m fxscope_capture.record -o DIR script.py) to see the passes "
                          "of a torch.compile run here."));

    m_passes->setObjectName(QStringLiteral("recordingPasses"));
    m_passes->setColumnCount(ColumnCount);
    m_passes->setHeaderLabels({tr("Pass"), tr("Nodes"), tr("Replaced"), tr("Tried"), tr("ms")});
    m_passes->header()->setStretchLastSection(false);
    m_passes->setTextElideMode(Qt::ElideMiddle); // pattern names differ at their ends
    m_passes->header()->setSectionResizeMode(StepColumn, QHeaderView::Stretch);
    for (int c = NodesColumn; c < ColumnCount; ++c)
        m_passes->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_passes->setToolTip(tr("Each pass torch applied, in order, per rank and compiled graph; under a pattern pass, "
                            "each pattern it tried, and under a pattern the anchors with torch's reason"));
    connect(m_passes, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const auto [stream, step] = streamAndStep(item);
        if (!stream)
            return;
        const int graph = step ? step->graph : finalGraph(*stream);
        if (graph >= 0)
            Q_EMIT graphActivated(graph);
    });
    connect(m_passes, &QTreeWidget::currentItemChanged, this, &RecordingWidget::updateButtons);

    m_diffButton->setObjectName(QStringLiteral("recordingDiff"));
    m_diffButton->setToolTip(tr("The graph before the selected pass beside the graph after it"));
    connect(m_diffButton, &QPushButton::clicked, this, [this] {
        int before = -1, after = -1;
        if (selectedStepGraphs(before, after))
            Q_EMIT compareRequested(before, after);
    });
    m_rerunButton->setObjectName(QStringLiteral("recordingRerun"));
    connect(m_rerunButton, &QPushButton::clicked, this, [this] {
        int before = -1;
        const QString source = selectedStepSource(before);
        if (!source.isEmpty())
            Q_EMIT rerunRequested(before, source);
    });

    m_matrix->setObjectName(QStringLiteral("fusionMatrix"));
    m_matrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_matrix->setSelectionMode(QAbstractItemView::SingleSelection);
    m_matrix->setToolTip(tr("Replaced (tried) per pattern, rank and compiled graph; a marked cell: another rank "
                            "replaced a different number of times in the same graph (click it to compare the two)"));
    connect(m_matrix, &QTableWidget::cellClicked, this, &RecordingWidget::matrixCellClicked);

    auto *passesPage = new QWidget(this);
    auto *passesLayout = new QVBoxLayout(passesPage);
    passesLayout->setContentsMargins(0, 0, 0, 0);
    passesLayout->addWidget(m_passes, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_diffButton);
    buttons->addWidget(m_rerunButton);
    buttons->addStretch(1);
    passesLayout->addLayout(buttons);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("recordingTabs"));
    tabs->addTab(passesPage, tr("Passes"));
    tabs->addTab(m_matrix, tr("Fusion matrix"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(tabs, 1);
    updateButtons();
}

void RecordingWidget::setFile(const GraphFile *file)
{
    m_recording = file ? file->recording : nullptr;
    m_fusions = m_recording ? fusionMatrix(*m_recording) : FusionMatrix{};
    m_graphNames.clear();
    m_graphSizes.clear();
    if (m_recording)
        for (const auto &g : file->graphs) {
            m_graphNames.push_back(g.name);
            m_graphSizes.push_back(g.graph ? g.graph->size() : 0);
        }
    if (!m_recording) {
        m_summary->setText(tr("Not a recording. python -m fxscope_capture.record -o DIR script.py records the "
                              "passes of a torch.compile run; open DIR to see them here."));
    } else {
        int64_t replaced = 0;
        for (const auto &s : m_recording->streams)
            for (const auto &step : s.steps)
                replaced += step.replaced();
        QString text = tr("torch %1 · %n rank(s)", nullptr, int(m_recording->ranks().size()))
                           .arg(QString::fromStdString(m_recording->torchVersion)) +
            tr(" · %n compiled graph(s)", nullptr, int(m_recording->streams.size())) +
            tr(" · %n replacement(s)", nullptr, int(replaced));
        if (m_fusions.disagreements())
            text += tr(" · <b>ranks disagree in %n cell(s)</b> of the fusion matrix", nullptr,
                int(m_fusions.disagreements()));
        m_summary->setText(text);
    }
    fillPasses();
    fillMatrix();
    updateButtons();
}

void RecordingWidget::fillPasses()
{
    m_passes->clear();
    if (!m_recording)
        return;
    for (size_t s = 0; s < m_recording->streams.size(); ++s) {
        const RecordedStream &stream = m_recording->streams[s];
        int64_t replaced = 0;
        for (const auto &step : stream.steps)
            replaced += step.replaced();
        auto *top = new QTreeWidgetItem(m_passes);
        top->setText(StepColumn, tr("rank %1 · %2").arg(stream.rank).arg(QString::fromStdString(stream.name)));
        top->setData(StepColumn, kStreamRole, int(s));
        top->setData(StepColumn, kStepRole, -1);
        const int last = finalGraph(stream);
        if (last >= 0)
            top->setText(NodesColumn, number(int64_t(m_graphSizes[size_t(last)])));
        top->setText(ReplacedColumn, number(replaced));
        size_t before = 0;
        for (size_t i = 0; i < stream.steps.size(); ++i) {
            const RecordedStep &step = stream.steps[i];
            const size_t nodes = step.graph >= 0 ? m_graphSizes[size_t(step.graph)] : 0;
            auto *row = new QTreeWidgetItem(top);
            QString text = QStringLiteral("%1  %2").arg(step.index, 3, 10, QLatin1Char('0'))
                               .arg(QString::fromStdString(step.pass));
            if (i > 0 && !step.changed)
                text += tr("  (unchanged)");
            row->setText(StepColumn, text);
            row->setData(StepColumn, kStreamRole, int(s));
            row->setData(StepColumn, kStepRole, int(i));
            QString nodesText = number(int64_t(nodes));
            if (i > 0 && nodes != before)
                nodesText += QStringLiteral(" (%1%2)").arg(nodes > before ? QStringLiteral("+") : QStringLiteral("−"))
                                 .arg(nodes > before ? nodes - before : before - nodes);
            row->setText(NodesColumn, nodesText);
            if (!step.patternPasses.empty())
                row->setText(ReplacedColumn, number(step.replaced()));
            if (step.seconds > 0)
                row->setText(TimeColumn, QString::number(step.seconds * 1e3, 'f', 1));
            if (!step.error.empty()) {
                row->setForeground(StepColumn, QBrush(Qt::red));
                row->setToolTip(StepColumn, tr("raised %1").arg(QString::fromStdString(step.error)));
            }
            for (const auto &pass : step.patternPasses)
                for (const auto &p : pass.patterns) {
                    auto *pattern = new QTreeWidgetItem(row);
                    pattern->setText(StepColumn, QString::fromStdString(p.name));
                    pattern->setToolTip(StepColumn,
                        QStringLiteral("%1\n%2\n%3").arg(QString::fromStdString(p.name),
                            QString::fromStdString(p.source), QString::fromStdString(pass.identity)) +
                            (pass.otherGraph ? tr("\napplied to a graph a check traced, not to this one") : QString()));
                    pattern->setData(StepColumn, kStepRole, -1);
                    pattern->setText(ReplacedColumn, number(p.replaced));
                    pattern->setText(TriedColumn, number(p.tried));
                    if (p.replaced > 0)
                        pattern->setForeground(ReplacedColumn, QBrush(QColor(0x2e, 0x7d, 0x32)));
                    for (const auto &a : p.anchors) {
                        auto *anchor = new QTreeWidgetItem(pattern);
                        const QString reason = QString::fromStdString(a.reason);
                        anchor->setText(StepColumn, QStringLiteral("%1  %2%3").arg(QString::fromStdString(a.anchor),
                            QString::fromStdString(a.verdict), reason.isEmpty() ? QString() : QLatin1String(": ") + reason));
                        anchor->setToolTip(StepColumn, reason);
                        anchor->setData(StepColumn, kStepRole, -1);
                    }
                    if (size_t(p.tried) > p.anchors.size()) {
                        auto *more = new QTreeWidgetItem(pattern);
                        more->setText(StepColumn, tr("… %n more anchor(s) not recorded one by one", nullptr,
                            int(size_t(p.tried) - p.anchors.size())));
                        more->setData(StepColumn, kStepRole, -1);
                    }
                }
            before = nodes;
        }
    }
    m_passes->expandToDepth(0);
}

void RecordingWidget::fillMatrix()
{
    m_matrix->clear();
    m_matrix->setRowCount(0);
    m_matrix->setColumnCount(0);
    if (!m_recording)
        return;
    const FusionMatrix &matrix = m_fusions;
    m_matrix->setColumnCount(int(matrix.columns.size()));
    m_matrix->setRowCount(int(matrix.rows.size()));
    QStringList columns;
    for (const auto &c : matrix.columns)
        columns << tr("rank %1\n%2").arg(c.rank).arg(QString::fromStdString(c.stream));
    m_matrix->setHorizontalHeaderLabels(columns);
    for (size_t r = 0; r < matrix.rows.size(); ++r) {
        // The function's own name and its enclosing one: the module path is in the tooltip.
        const QString full = QString::fromStdString(matrix.rows[r].pattern);
        const QStringList parts = full.split(QLatin1Char('.'));
        auto *header = new QTableWidgetItem(parts.size() > 2 ? parts.mid(parts.size() - 2).join(QLatin1Char('.')) : full);
        header->setToolTip(full + QLatin1Char('\n') + QString::fromStdString(matrix.rows[r].source));
        header->setData(Qt::UserRole, full);
        m_matrix->setVerticalHeaderItem(int(r), header);
    }
    for (size_t r = 0; r < matrix.rows.size(); ++r)
        for (size_t c = 0; c < matrix.columns.size(); ++c) {
            const FusionMatrix::Cell &cell = matrix.rows[r].cells[c];
            auto *item = new QTableWidgetItem(
                cell.present ? QStringLiteral("%1 (%2)").arg(cell.replaced).arg(cell.tried) : QStringLiteral("–"));
            item->setTextAlignment(Qt::AlignCenter);
            if (cell.disagrees) {
                item->setBackground(QColor(0xff, 0xcd, 0xd2));
                item->setForeground(QColor(0x8e, 0x00, 0x00));
                item->setToolTip(tr("Another rank replaced a different number of times in this graph: click to "
                                    "compare the two"));
            } else if (cell.replaced > 0) {
                item->setForeground(QColor(0x2e, 0x7d, 0x32));
            }
            m_matrix->setItem(int(r), int(c), item);
        }
    m_matrix->resizeColumnsToContents();
}

void RecordingWidget::matrixCellClicked(int row, int column)
{
    if (!m_recording)
        return;
    const FusionMatrix &matrix = m_fusions;
    if (row < 0 || size_t(row) >= matrix.rows.size() || column < 0 || size_t(column) >= matrix.columns.size())
        return;
    const auto &cells = matrix.rows[size_t(row)].cells;
    const FusionMatrix::Column &here = matrix.columns[size_t(column)];
    auto graphOf = [&](const FusionMatrix::Column &c) {
        for (const auto &s : m_recording->streams)
            if (s.rank == c.rank && s.name == c.stream)
                return finalGraph(s);
        return -1;
    };
    if (!cells[size_t(column)].disagrees) {
        if (const int g = graphOf(here); g >= 0)
            Q_EMIT graphActivated(g);
        return;
    }
    // The first other rank with a different count in the same graph.
    for (size_t c = 0; c < matrix.columns.size(); ++c)
        if (c != size_t(column) && matrix.columns[c].stream == here.stream &&
            cells[c].replaced != cells[size_t(column)].replaced) {
            const int a = graphOf(here), b = graphOf(matrix.columns[c]);
            if (a >= 0 && b >= 0)
                Q_EMIT compareRequested(a, b);
            return;
        }
}

std::pair<const RecordedStream *, const RecordedStep *> RecordingWidget::streamAndStep(
    const QTreeWidgetItem *item) const
{
    // A pattern or anchor row belongs to the step above it.
    while (item && item->data(StepColumn, kStepRole).toInt() < 0 && item->parent())
        item = item->parent();
    if (!item || !m_recording)
        return {};
    const int stream = item->data(StepColumn, kStreamRole).toInt();
    const int step = item->data(StepColumn, kStepRole).toInt();
    if (stream < 0 || size_t(stream) >= m_recording->streams.size())
        return {};
    const RecordedStream &s = m_recording->streams[size_t(stream)];
    return {&s, step >= 0 && size_t(step) < s.steps.size() ? &s.steps[size_t(step)] : nullptr};
}

const RecordedStep *RecordingWidget::selectedStep(int &before) const
{
    const auto [stream, step] = streamAndStep(m_passes->currentItem());
    if (!step || step == &stream->steps.front())
        return nullptr;
    before = (step - 1)->graph;
    return before >= 0 ? step : nullptr;
}

bool RecordingWidget::selectedStepGraphs(int &before, int &after) const
{
    const RecordedStep *step = selectedStep(before);
    after = step ? step->graph : -1;
    return step && step->changed && after >= 0;
}

QString RecordingWidget::selectedStepSource(int &before) const
{
    const RecordedStep *step = selectedStep(before);
    if (!step)
        return {};
    for (const auto &pass : step->patternPasses)
        if (QString set = inductorSetOf(pass.identity); !set.isEmpty() && !pass.otherGraph)
            return set;
    return {};
}

void RecordingWidget::updateButtons()
{
    int before = -1, after = -1;
    m_diffButton->setEnabled(selectedStepGraphs(before, after));
    const QString source = selectedStepSource(before);
    m_rerunButton->setEnabled(!source.isEmpty());
    m_rerunButton->setToolTip(source.isEmpty()
            ? tr("Select a pass of Inductor's pattern sets: it is re-run from the graph it saw with the same set "
                 "loaded into your torch")
            : tr("Show the graph this pass saw and load %1 into your torch: every candidate explained, each one a "
                 "step to apply").arg(source));
}

} // namespace fxs
