#include "timeline_widget.h"

#include "rewrite/graph_diff.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QUndoView>
#include <QVBoxLayout>

namespace fxs {

namespace {

constexpr int kNodeRole = Qt::UserRole + 1; // the node a row selects

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(title), box);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent), m_history(new QUndoView(this)), m_bisectSteps(new QSpinBox(this)),
      m_bisectButton(new QPushButton(tr("Apply"), this)), m_description(new QLabel(this)),
      m_removed(new QListWidget(this)), m_added(new QListWidget(this)), m_ops(new QTableWidget(this))
{
    m_history->setObjectName(QStringLiteral("historyView"));
    m_history->setEmptyLabel(tr("0. Graph as loaded"));
    m_history->setToolTip(tr("Every step of the session; click one to go to the graph after it"));

    m_bisectSteps->setObjectName(QStringLiteral("bisectSteps"));
    m_bisectSteps->setRange(0, 1000000);
    m_bisectSteps->setToolTip(
        tr("Only the first N steps applied: replayed from the history, matched afresh beyond it"));
    m_bisectButton->setObjectName(QStringLiteral("bisectButton"));
    connect(m_bisectButton, &QPushButton::clicked, this, [this] { Q_EMIT bisectRequested(m_bisectSteps->value()); });
    connect(m_bisectSteps, &QSpinBox::editingFinished, this, [this] {
        if (m_bisectSteps->hasFocus())
            Q_EMIT bisectRequested(m_bisectSteps->value());
    });
    auto *bisectRow = new QHBoxLayout;
    bisectRow->addWidget(new QLabel(tr("Apply first"), this));
    bisectRow->addWidget(m_bisectSteps);
    bisectRow->addWidget(new QLabel(tr("steps"), this));
    bisectRow->addWidget(m_bisectButton);
    bisectRow->addStretch(1);

    m_description->setObjectName(QStringLiteral("stepDescription"));
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_removed->setObjectName(QStringLiteral("removedNodes"));
    m_removed->setToolTip(tr("Nodes the last move removed; click one to select the node that replaced it"));
    m_added->setObjectName(QStringLiteral("addedNodes"));
    m_added->setToolTip(tr("Nodes the last move added (green on the canvas); click one to select it"));
    connect(m_removed, &QListWidget::itemClicked, this, &TimelineWidget::activate);
    connect(m_added, &QListWidget::itemClicked, this, &TimelineWidget::activate);

    m_ops->setObjectName(QStringLiteral("opCounts"));
    m_ops->setColumnCount(4);
    m_ops->setHorizontalHeaderLabels({tr("Op"), tr("Before"), tr("After"), tr("Δ")});
    m_ops->verticalHeader()->hide();
    m_ops->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_ops->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ops->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_ops->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    auto *lists = new QWidget(this);
    auto *listsLayout = new QHBoxLayout(lists);
    listsLayout->setContentsMargins(0, 0, 0, 0);
    listsLayout->addWidget(titled(tr("Removed"), m_removed, lists));
    listsLayout->addWidget(titled(tr("Added"), m_added, lists));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(titled(tr("History"), m_history, splitter));
    splitter->addWidget(lists);
    splitter->addWidget(titled(tr("Op counts (changed)"), m_ops, splitter));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bisectRow);
    layout->addWidget(m_description);
    layout->addWidget(splitter, 1);
    setDiff(nullptr, {});
}

void TimelineWidget::setUndoStack(QUndoStack *stack)
{
    m_history->setStack(stack);
}

void TimelineWidget::setBusy(bool busy)
{
    m_bisectButton->setEnabled(!busy);
}

void TimelineWidget::setDiff(std::shared_ptr<const GraphDiff> diff, const QString &description)
{
    m_diff = std::move(diff);
    m_description->setText(description);
    m_description->setVisible(!description.isEmpty());
    m_removed->clear();
    m_added->clear();
    m_ops->setRowCount(0);
    if (!m_diff)
        return;
    for (const DiffNode &n : m_diff->removed) {
        // The node that replaced it, from the added nodes' provenance; none for a node a pass deleted.
        QString replacement;
        for (const DiffNode &a : m_diff->added)
            if (std::find(a.replaced.begin(), a.replaced.end(), n.name) != a.replaced.end())
                replacement = QString::fromStdString(a.name);
        auto *item = new QListWidgetItem(replacement.isEmpty()
                ? QStringLiteral("%1  %2").arg(QString::fromStdString(n.name), QString::fromStdString(n.target))
                : QStringLiteral("%1  %2  → %3")
                      .arg(QString::fromStdString(n.name), QString::fromStdString(n.target), replacement),
            m_removed);
        item->setData(kNodeRole, replacement);
    }
    for (const DiffNode &n : m_diff->added) {
        QString text = QStringLiteral("%1  %2").arg(QString::fromStdString(n.name), QString::fromStdString(n.target));
        if (!n.pattern.empty())
            text += QStringLiteral("  (%1)").arg(QString::fromStdString(n.pattern));
        auto *item = new QListWidgetItem(text, m_added);
        item->setData(kNodeRole, QString::fromStdString(n.name));
    }
    for (const auto &[op, counts] : m_diff->opCounts) {
        if (counts.first == counts.second)
            continue;
        const int row = m_ops->rowCount();
        m_ops->insertRow(row);
        const long long delta = (long long)(counts.second) - (long long)(counts.first);
        const QStringList cells = {QString::fromStdString(op), QString::number(counts.first),
            QString::number(counts.second), (delta > 0 ? QStringLiteral("+") : QString()) + QString::number(delta)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *cell = new QTableWidgetItem(cells[c]);
            if (c > 0)
                cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_ops->setItem(row, c, cell);
        }
    }
    const int totalRow = m_ops->rowCount();
    m_ops->insertRow(totalRow);
    const QStringList total
        = {tr("all nodes"), QString::number(m_diff->nodesBefore), QString::number(m_diff->nodesAfter),
            QString::number((long long)(m_diff->nodesAfter) - (long long)(m_diff->nodesBefore))};
    for (int c = 0; c < total.size(); ++c) {
        auto *cell = new QTableWidgetItem(total[c]);
        QFont f = cell->font();
        f.setBold(true);
        cell->setFont(f);
        if (c > 0)
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_ops->setItem(totalRow, c, cell);
    }
}

void TimelineWidget::activate(QListWidgetItem *item)
{
    const QString node = item ? item->data(kNodeRole).toString() : QString();
    if (!node.isEmpty())
        Q_EMIT nodeActivated(node);
}

} // namespace fxs
